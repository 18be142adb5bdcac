import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The JUnit and TAP that `play` writes, read by parsers as CI reads them, not by eye.
@Suite struct MachineReportTests {
    private let passing =
        "title Buying the monthly plan\nlaunch\nopen paywall\nselect offer premium-monthly\nconfirm payment\n"
    /// A title with an escape sequence and XML's special characters, and a failing step.
    private let failing = "title Esc \u{1B}[1m & <b> \"q\"\nlaunch\nexpect charges 3\n"
    private let malformed = "launch\nopen the door\n"

    private func folder(_ files: [String: String]) throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        for (name, text) in files { try text.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        return directory
    }

    @Test func junitHasTheSurefireShapeWithAMalformedFileAsAnErrorCase() throws {
        let directory = try folder(["a.scenario": passing, "b.scenario": failing, "c.scenario": malformed])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/junit.xml"
        let result = try TestSupport.runBinary(["play", directory, "--junit", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)/c.scenario:2:"))
        let report = try SurefireReport(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(report.parsed, "XMLParser: \(report.error ?? "")")
        #expect(report.problems.isEmpty, "\(report.problems)")
        let suite = try #require(report.suites.first)
        #expect(suite["tests"] == "3")
        #expect(suite["failures"] == "1")
        #expect(suite["errors"] == "1")
        #expect(report.properties["virtual-time"].flatMap(Double.init) ?? 0 > 0)
        #expect(report.cases.count == 3)
        #expect(report.cases.contains { $0.name == "Esc \\u{1B}[1m & <b> \"q\"" && $0.child == "failure" })
        #expect(report.cases.contains { $0.name == "\(directory)/c.scenario" && $0.child == "error" })
        #expect(report.cases.contains { $0.name == "Buying the monthly plan" && $0.child == nil })
    }

    /// A report that cannot be written is refused before the scenarios run, not after them (session 24).
    @Test func aJUnitReportThatCannotBeWrittenIsRefusedAtTheStart() throws {
        let directory = try folder(["a.scenario": passing])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory, "--junit", directory])
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("--junit: \(directory) is a folder, not a file"))
    }

    /// `play --junit p.scenario p.scenario` wrote its XML over the scenario it played (session 24); `--cast` too.
    @Test func aReportNeverWritesOverTheScenarioItPlays() throws {
        let directory = try folder(["a.scenario": passing])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/a.scenario"
        let before = try String(contentsOfFile: path, encoding: .utf8)
        for options in [["--junit", path], ["--live", "--cast", path]] {
            let result = try TestSupport.runBinary(["play", path] + options)
            #expect(result.code == 2)
            #expect(
                result.stderr.contains("\(path) exists and is not its output as paywall-sim wrote it"),
                "\(result.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        }
    }

    /// Session 26: the report replaced a symbolic link (the file it pointed to never updated, its mode lost) and a
    /// FIFO with regular files, and wrote over any XML whose root was `<testsuites`, a pytest report too, or its
    /// own report edited by hand. Rerun, it writes over its own report as it wrote it.
    @Test func aJUnitReportFollowsALinkWritesThroughAFIFOAndKeepsWhatIsNotItsOwn() throws {
        let directory = try folder(["a.scenario": passing])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = "\(directory)/a.scenario"
        let real = "\(directory)/real.xml"
        #expect(try TestSupport.runBinary(["play", scenario, "--junit", real]).code == 0)
        #expect(try TestSupport.runBinary(["play", scenario, "--junit", real]).code == 0)
        #expect(chmod(real, 0o640) == 0)
        #expect(symlink("real.xml", "\(directory)/link.xml") == 0)
        let linked = try TestSupport.runBinary(["play", scenario, "--junit", "\(directory)/link.xml"])
        #expect(linked.code == 0, "\(linked.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(directory)/link.xml")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int == 0o640)
        #expect(try SurefireReport(data: Data(contentsOf: URL(fileURLWithPath: real))).parsed)

        let edited = try String(contentsOfFile: real, encoding: .utf8) + "<!-- checked by hand -->\n"
        let pytest =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"3\"><testsuite name=\"pytest\"/>"
            + "</testsuites>\n"
        for (name, text) in [("edited.xml", edited), ("pytest.xml", pytest)] {
            let path = "\(directory)/\(name)"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try TestSupport.runBinary(["play", scenario, "--junit", path])
            #expect(result.code == 2)
            #expect(result.stderr.contains("\(path) exists and is not its output as paywall-sim wrote it"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }

        let fifo = "\(directory)/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Thread {
            let data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
            try? data.write(to: URL(fileURLWithPath: "\(directory)/from-pipe.xml"))
        }
        reader.start()
        #expect(try TestSupport.runBinary(["play", scenario, "--junit", fifo]).code == 0)
        for _ in 0..<300 where !FileManager.default.fileExists(atPath: "\(directory)/from-pipe.xml") { usleep(10_000) }
        #expect(try SurefireReport(data: Data(contentsOf: URL(fileURLWithPath: "\(directory)/from-pipe.xml"))).parsed)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func tapFollowsTheLineGrammarAndBailsOutOnAMalformedFile() throws {
        let directory = try folder(["a.scenario": passing, "b.scenario": failing])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try TestSupport.runBinary(["play", directory, "--tap"])
        #expect(run.code == 1)
        let lines = TAPLines(run.stdout)
        #expect(lines.problems.isEmpty, "\(lines.problems)\n\(run.stdout)")
        #expect(lines.plan == 2)
        #expect(lines.results == [true, false])

        try malformed.write(toFile: "\(directory)/c.scenario", atomically: true, encoding: .utf8)
        let bail = try TestSupport.runBinary(["play", directory, "--tap"])
        #expect(bail.code == 2)
        let bailLines = TAPLines(bail.stdout)
        #expect(bailLines.problems.isEmpty, "\(bailLines.problems)")
        #expect(bailLines.bailOut?.hasPrefix("\(directory)/c.scenario:2:") == true)
    }
}

/// A JUnit file read by XMLParser and held to the Surefire report's shape: the suite's `name`, `tests`,
/// `failures`, `errors`, `skipped`, `time`; each case's `name`, `classname`, `time`; times are decimals.
private final class SurefireReport: NSObject, XMLParserDelegate {
    struct Case {
        var name: String
        var child: String?
    }
    var suites: [[String: String]] = []
    var cases: [Case] = []
    var properties: [String: String] = [:]
    var problems: [String] = []
    var parsed = false
    var error: String?
    private var errorCount = 0
    private var failureCount = 0

    init(data: Data) throws {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        parsed = parser.parse()
        error = parser.parserError.map { "\($0)" }
        if let suite = suites.first {
            if suite["errors"] != "\(errorCount)" {
                problems.append("errors=\(suite["errors"] ?? "") vs \(errorCount)")
            }
            if suite["failures"] != "\(failureCount)" { problems.append("failures vs \(failureCount)") }
            if suite["tests"] != "\(cases.count)" { problems.append("tests vs \(cases.count) cases") }
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        func require(_ names: [String]) {
            for name in names where attributes[name] == nil { problems.append("<\(element)> has no \(name)") }
        }
        func decimal(_ name: String) {
            if let value = attributes[name], Double(value) == nil { problems.append("\(element) \(name)=\(value)") }
        }
        switch element {
        case "testsuites": break
        case "testsuite":
            require(["name", "tests", "failures", "errors", "skipped", "time"])
            decimal("time")
            suites.append(attributes)
        case "properties": break
        case "property":
            require(["name", "value"])
            properties[attributes["name"] ?? ""] = attributes["value"]
        case "testcase":
            require(["name", "classname", "time"])
            decimal("time")
            cases.append(Case(name: attributes["name"] ?? "", child: nil))
        case "failure", "error":
            require(["message", "type"])
            if element == "error" { errorCount += 1 } else { failureCount += 1 }
            if cases.last?.child != nil { problems.append("two results in one case") }
            cases[cases.count - 1].child = element
        case "system-out": break
        default: problems.append("unexpected element <\(element)>")
        }
    }
}

/// TAP 13 by its line grammar: the version, then a plan and a result line per test (comments between), or
/// `Bail out!`; test numbers run 1, 2, … and match the plan.
private struct TAPLines {
    var plan: Int?
    var results: [Bool] = []
    var bailOut: String?
    var problems: [String] = []

    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            !$0.isEmpty
        }
        guard lines.first == "TAP version 13" else {
            problems.append("no version line")
            return
        }
        for line in lines.dropFirst() {
            if line.hasPrefix("Bail out!") {
                bailOut = String(line.dropFirst("Bail out! ".count))
            } else if line.hasPrefix("#") {
                continue
            } else if line.hasPrefix("1.."), let count = Int(line.dropFirst(3)), plan == nil, results.isEmpty {
                plan = count
            } else if let result = Self.result(line, number: results.count + 1) {
                results.append(result)
            } else {
                problems.append("not a TAP line: \(line)")
            }
            if line.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                problems.append("control character: \(line)")
            }
        }
        if bailOut == nil && plan != results.count { problems.append("plan \(plan ?? -1) vs \(results.count) results") }
    }

    /// `ok N - description` or `not ok N - description`, with N the next number.
    private static func result(_ line: String, number: Int) -> Bool? {
        for (prefix, passed) in [("ok ", true), ("not ok ", false)] where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            guard rest.hasPrefix("\(number) - ") || rest == "\(number)" else { return nil }
            return passed
        }
        return nil
    }
}
