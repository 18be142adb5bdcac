import Foundation
import Scenarios
import SimKernel
import Testing
import WhiteLabel

/// Mutations of a valid input, drawn from a seed: what a bad edit, a bad merge or a bad disk does to a file.
struct Mutator {
    var random: SeededGenerator

    enum Kind: CaseIterable {
        case flipByte, truncate, deleteLine, duplicateLine, wrongType, hugeNumber, deepNesting, invalidUTF8
        case swapLines, empty
    }

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + draw(3)) { bytes = apply(Kind.allCases[draw(Kind.allCases.count)], to: bytes) }
        return bytes
    }

    private mutating func draw(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }

    private mutating func apply(_ kind: Kind, to bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        switch kind {
        case .flipByte:
            guard !bytes.isEmpty else { return bytes }
            bytes[draw(bytes.count)] ^= UInt8(1 << draw(8))
        case .truncate:
            bytes = Array(bytes.prefix(draw(bytes.count + 1)))
        case .deleteLine, .duplicateLine, .swapLines:
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            guard !lines.isEmpty else { return bytes }
            let index = draw(lines.count)
            switch kind {
            case .deleteLine: lines.remove(at: index)
            case .duplicateLine: lines.insert(lines[index], at: index)
            default: lines.swapAt(index, draw(lines.count))
            }
            bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        case .wrongType, .hugeNumber:
            // A value after a colon (JSON) or a word after a space (scenarios) becomes something of another type.
            let starts = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") || bytes[$0] == UInt8(ascii: " ") }
            guard let start = starts.isEmpty ? nil : starts[draw(starts.count)] else { return bytes }
            var end = start + 1
            while end < bytes.count && end - start < 64 && !",}]\n ".utf8.contains(bytes[end]) { end += 1 }
            let replacements =
                kind == .wrongType
                ? [#" "text""#, " 12", " true", " null", " []", " {}", #" {"a": 1}"#, " -3.5"]
                : [" 1e999", " 99999999999999999999999999", " -9223372036854775809", " 0.0000000000000000000001e-400"]
            bytes.replaceSubrange((start + 1)..<end, with: Array(replacements[draw(replacements.count)].utf8))
        case .deepNesting:
            let depth = 1 + draw(5_000)
            let position = draw(bytes.count + 1)
            let open = draw(2) == 0 ? UInt8(ascii: "[") : UInt8(ascii: "{")
            bytes.insert(contentsOf: [UInt8](repeating: open, count: depth), at: position)
        case .invalidUTF8:
            let sequences: [[UInt8]] = [
                [0xFF], [0xC3, 0x28], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0],
            ]
            bytes.insert(contentsOf: sequences[draw(sequences.count)], at: draw(bytes.count + 1))
        case .empty:
            bytes = []
        }
        return bytes
    }
}

/// One parser, the files it is seeded with, and how it reads bytes under a file name.
struct FuzzedParser: CustomTestStringConvertible, Sendable {
    let name: String
    let seeds: @Sendable () throws -> [String]
    /// Parses `bytes` as the file at `path` (a name in the seed's folder that does not exist).
    let parse: @Sendable (_ bytes: [UInt8], _ path: String) throws(ConfigError) -> Void
    var testDescription: String { name }

    static func files(in folder: String, endingWith suffix: String, recursive: Bool = false) -> [String] {
        let root = "\(TestSupport.packageRoot)/\(folder)"
        let names =
            recursive
            ? (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            : ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(root)/\($0)" }
    }

    static let sharedStoreKit = "\(TestSupport.packageRoot)/../shared/fixtures/storekit"

    static let all: [FuzzedParser] = [
        FuzzedParser(
            name: "demo configs", seeds: { files(in: "demo-configs", endingWith: ".json") },
            parse: { (bytes, path) throws(ConfigError) in _ = try DemoConfigLoader.decode(Data(bytes), file: path) }),
        FuzzedParser(
            name: "themes", seeds: { files(in: "themes", endingWith: ".json") },
            parse: { (bytes, path) throws(ConfigError) in _ = try ThemeLoader.decode(Data(bytes), file: path) }),
        FuzzedParser(
            name: "scenarios", seeds: { files(in: "scenarios", endingWith: ".scenario", recursive: true) },
            parse: { (bytes, path) throws(ConfigError) in
                guard let text = String(bytes: bytes, encoding: .utf8) else {
                    // Not UTF-8: only the file reader sees such bytes. Written under the temporary folder,
                    // never beside the seed: other tests list and play scenarios/ meanwhile.
                    let folder = NSTemporaryDirectory() + "paywall-sim-parser-fuzz-" + UUID().uuidString
                    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(atPath: folder) }
                    let file = "\(folder)/\((path as NSString).lastPathComponent)"
                    _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
                    _ = try ScenarioParser.parse(file: file)
                    return
                }
                _ = try ScenarioParser.parse(text, file: path)
            }),
        FuzzedParser(
            name: ".storekit files",
            seeds: {
                let shipped = files(in: "demo-configs", endingWith: ".storekit")
                guard FileManager.default.fileExists(atPath: sharedStoreKit) else {
                    print("../shared/fixtures/storekit is absent: fuzzing the shipped .storekit files only")
                    return shipped
                }
                let shared = ((try? FileManager.default.contentsOfDirectory(atPath: sharedStoreKit)) ?? [])
                    .filter { $0.hasSuffix(".storekit") }.sorted().map { "\(sharedStoreKit)/\($0)" }
                return shipped + shared
            },
            parse: { (bytes, path) throws(ConfigError) in
                _ = try StoreKitConfiguration.decode(Data(bytes), file: path)
            }),
    ]
}

/// Every parser of a file a person writes, fed thousands of seeded mutations of the shipped files:
/// none crashes, and each input either loads or is refused with a message that names the file and
/// where in it (a field path, a line, or a line and column).
@Suite struct ParserFuzzTests {
    static let mutationsPerParser = 3_000

    @Test(arguments: FuzzedParser.all)
    func mutatedInputsLoadOrNameTheProblem(_ parser: FuzzedParser) throws {
        let seeds = try parser.seeds().map { path in (path, Array(try Data(contentsOf: URL(fileURLWithPath: path)))) }
        try #require(!seeds.isEmpty)
        var mutator = Mutator(random: SeededGenerator(seed: 8))
        var refused = 0
        var unhelpful: [String] = []
        for round in 0..<Self.mutationsPerParser {
            let (seedPath, seed) = seeds[round % seeds.count]
            let folder = (seedPath as NSString).deletingLastPathComponent
            let name = "fuzz-\(round)-" + (seedPath as NSString).lastPathComponent
            let path = "\(folder)/\(name)"
            let input = mutator.mutate(seed)
            do {
                try parser.parse(input, path)
            } catch {
                refused += 1
                if let problem = Self.problem(with: error, name: name), unhelpful.count < 5 {
                    unhelpful.append(
                        "\(problem): \(error)\n  input: \(String(decoding: input.prefix(300), as: UTF8.self))")
                }
            }
        }
        #expect(unhelpful.isEmpty, "\(parser.name):\n\(unhelpful.joined(separator: "\n"))")
        // The mutations mostly break the file; the ones that do not must still load.
        #expect(refused > Self.mutationsPerParser / 2)
    }

    /// Through the binary, as a person meets them: a handful of mutated configs and scenarios the
    /// parsers refuse give exit 2 and one line on stderr that names the file.
    @Test(arguments: [
        ("check", "demo-configs/daily-news.json"), ("check", "demo-configs/podcast-club.json"),
        ("play", "scenarios/failure-table/03-receipt-missing.scenario"),
    ])
    func theCommandLineRefusesMutatedFilesWithExitTwoAndOneMessage(_ command: String, _ seedFile: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let seedPath = "\(TestSupport.packageRoot)/\(seedFile)"
        let seed = try Array(Data(contentsOf: URL(fileURLWithPath: seedPath)))
        let parser = FuzzedParser.all[command == "check" ? 0 : 2]
        // The seed's .storekit files beside the mutated config, so its reference still resolves.
        for file in FuzzedParser.files(in: "demo-configs", endingWith: ".storekit") {
            try FileManager.default.copyItem(
                atPath: file, toPath: "\(directory)/\((file as NSString).lastPathComponent)")
        }
        var mutator = Mutator(random: SeededGenerator(seed: 3))
        var tried = 0
        while tried < 4 {
            let name = "bad-\(tried)-" + (seedPath as NSString).lastPathComponent
            let path = "\(directory)/\(name)"
            let input = mutator.mutate(seed)
            guard (try? parser.parse(input, path)) == nil else { continue }
            tried += 1
            _ = FileManager.default.createFile(atPath: path, contents: Data(input))
            let arguments = command == "check" ? ["check", "--paywall", "--app", path] : ["play", path]
            let result = try TestSupport.runBinary(arguments)
            let lines = result.stderr.split(separator: "\n")
            #expect(result.code == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(lines.count == 1 && lines[0].contains(name), "\(arguments): \(result.stderr)")
        }
    }

    /// What is wrong with a refusal's message, or nil when it names the file and where in it.
    static func problem(with error: ConfigError, name: String) -> String? {
        if !error.description.contains(name) { return "does not name the file" }
        if error.message.isEmpty { return "says nothing" }
        if ["Cannot initialize", "could not be completed", "Data was corrupted"].contains(where: {
            error.message.contains($0)
        }) {
            return "speaks Foundation, not the reader's words"
        }
        // A scenario's line is part of its file (`file:12`); a JSON file's place is a field path or a line.
        let located = !(error.location ?? "").isEmpty || !lineNumber(error.file).isEmpty
        let wholeFile = ["no steps: write at least launch", "is empty: a JSON object was expected"]
        if !located && !wholeFile.contains(error.message) { return "names no field or line" }
        return nil
    }

    /// `12` in `path/file.scenario:12`; empty when the file name ends without a line.
    private static func lineNumber(_ file: String) -> String {
        let digits = String(file.reversed().prefix { $0.isNumber }.reversed())
        return file.hasSuffix(":" + digits) && !digits.isEmpty ? digits : ""
    }
}
