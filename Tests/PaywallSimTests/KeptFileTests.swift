import Foundation
import Testing

@testable import TerminalUI

/// A recording or a walk's report written at the end keeps a file the reader put at its path during the session
/// (session 25: `--record` and `--report` were checked only at the start), and one whose first line alone looks like
/// ours (session 26).
@Suite struct KeptFileTests {
    @Test func aFileTheReaderPutThereIsKeptAndTheOutputGoesBesideIt() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/walk-report.md"
        #expect(KeptFile.path(path, own: .walkReport) == path)
        try "notes made while walking\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(path, own: .walkReport) == "\(directory)/walk-report-2.md")
        // A person's notes headed as ours are still theirs.
        try "# Walk report\n\nmy own notes\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(path, own: .walkReport) == "\(directory)/walk-report-2.md")
        try OwnOutput.walkReport.sealed("# Walk report\n\n| a |\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(path, own: .walkReport) == path)
        let bare = "\(directory)/session"
        try "mine\n".write(toFile: bare, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(bare, own: .recording) == "\(bare)-2")
        let fifo = "\(directory)/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(KeptFile.path(fifo, own: .recording) == fifo)
    }
}

/// What paywall-sim may write over: its own output, byte for byte as it wrote it (session 26: the first line alone).
@Suite struct OwnOutputTests {
    static let recording = "# recorded by paywall-sim run\napp daily-news\nlaunch\n\nexpect screen feed\n"

    @Test func aSealedFileIsOwnAndAnyEditMakesItAnother() {
        let sealed = OwnOutput.recording.sealed(Self.recording)
        #expect(sealed.hasPrefix(Self.recording))
        #expect(OwnOutput.recording.isOwn(sealed))
        // A QA engineer's lines after ours, or one word changed, or the seal line dropped.
        #expect(!OwnOutput.recording.isOwn(sealed + "# QA: the article must stay open\nrestart app\n"))
        #expect(!OwnOutput.recording.isOwn(sealed.replacingOccurrences(of: "feed", with: "paywall")))
        #expect(!OwnOutput.recording.isOwn(Self.recording))
        // Another kind's sealed file is not this kind's.
        #expect(!OwnOutput.fuzzFailure.isOwn(sealed))
    }

    @Test func otherProgramsFilesAreNotOurs() {
        let pytest = """
            <?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" \
            skipped="0" tests="3"></testsuite></testsuites>

            """
        #expect(!OwnOutput.junit.mayReplace(Data(pytest.utf8)))
        let asciinema =
            "{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1700000000}\n[0.1, \"o\", \"$ \"]\n"
        #expect(!OwnOutput.cast.mayReplace(Data(asciinema.utf8)))
        #expect(OwnOutput.cast.mayReplace(Data()))
    }

    /// The seal is a field of a cast's header: the header stays one JSON object a player reads.
    @Test func aSealedCastHeaderIsStillJSON() throws {
        let cast =
            "{\"version\": 2, \"width\": 120, \"height\": 36, \"title\": \"Ünïcode\", \"env\": {\"TERM\": \"x\"}}\n"
            + "[0.000000, \"o\", \"é\"]\n"
        let sealed = OwnOutput.cast.sealed(cast)
        #expect(OwnOutput.cast.isOwn(sealed))
        #expect(sealed.hasSuffix("\n[0.000000, \"o\", \"é\"]\n"))
        let header = try #require(sealed.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        #expect((object["x-paywall-sim"] as? String)?.hasPrefix("paywall-sim seal ") == true)
        #expect(!OwnOutput.cast.isOwn(sealed + "[9.0, \"o\", \"added\"]\n"))
    }
}
