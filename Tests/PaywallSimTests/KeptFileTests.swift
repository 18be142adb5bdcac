import Foundation
import Testing

@testable import TerminalUI

/// A recording or a walk's report written at the end keeps a file the reader put at its path during the session
/// (session 25: `--record` and `--report` were checked only at the start).
@Suite struct KeptFileTests {
    @Test func aFileTheReaderPutThereIsKeptAndTheOutputGoesBesideIt() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/walk-report.md"
        #expect(KeptFile.path(path, ownPrefix: "# Walk report") == path)
        try "notes made while walking\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(path, ownPrefix: "# Walk report") == "\(directory)/walk-report-2.md")
        try "# Walk report\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(path, ownPrefix: "# Walk report") == path)
        let bare = "\(directory)/session"
        try "mine\n".write(toFile: bare, atomically: true, encoding: .utf8)
        #expect(KeptFile.path(bare, ownPrefix: "# recorded by paywall-sim") == "\(bare)-2")
    }
}
