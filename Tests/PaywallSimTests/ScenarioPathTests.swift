import Foundation
import Testing

/// A relative `storekit` path in a scenario is read from the scenario's folder: the working directory's file of the same
/// name was taken without a word, and the scenario ran another catalog than the one beside it (session 27).
@Suite struct ScenarioPathTests {
    private let scenario = "storekit Products.storekit\nlaunch\nopen paywall\nexpect text \"Beside\"\n"

    /// A `.storekit` file whose first plan is called `name`.
    private func storekit(_ name: String) throws -> String {
        let file = "\(TestSupport.packageRoot)/scenarios/found-by-hand/two-groups.storekit"
        return try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
            of: "\"displayName\": \"Stories\"", with: "\"displayName\": \"\(name)\"")
    }

    /// `play sub/a.scenario` from `folder`, whose files are `files` (paths relative to it).
    private func play(in files: [String: String]) throws -> (code: Int32, stdout: String, stderr: String) {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in files {
            let path = "\(folder)/\(name)"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.binaryPath)
        process.arguments = ["play", "sub/a.scenario"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = folder + "/state"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func theFileBesideTheScenarioIsRead() throws {
        let result = try play(in: ["sub/a.scenario": scenario, "sub/Products.storekit": try storekit("Beside")])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func theWorkingDirectorysIsReadWhenNoneIsBesideTheScenario() throws {
        let result = try play(in: ["sub/a.scenario": scenario, "Products.storekit": try storekit("Beside")])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func twoDifferentFilesOfTheNameAreRefusedAtTheLine() throws {
        let result = try play(in: [
            "sub/a.scenario": scenario, "sub/Products.storekit": try storekit("Beside"),
            "Products.storekit": try storekit("Elsewhere"),
        ])
        #expect(result.code == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("sub/a.scenario:1: Products.storekit names two different files"), "\(result.stderr)")
        #expect(result.stderr.contains("in \"storekit Products.storekit\""), "\(result.stderr)")
    }

    @Test func twoCopiesOfOneFileAreTheSameFile() throws {
        let result = try play(in: [
            "sub/a.scenario": scenario, "sub/Products.storekit": try storekit("Beside"),
            "Products.storekit": try storekit("Beside"),
        ])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
    }
}
