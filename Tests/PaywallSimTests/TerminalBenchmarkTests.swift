import Foundation
import Testing

/// `bench terminal` runs `run` as a terminal emulator would; its figures are only worth quoting if the
/// walk really reached the purchase and the article, in a terminal of the size it says.
@Suite struct TerminalBenchmarkTests {
    @Test func theWalkBuysInAPseudoTerminalAndRemovesOnlyWhatItMade() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mine = "\(directory)/notes.txt"
        try "kept".write(toFile: mine, atomically: true, encoding: .utf8)

        let result = try TestSupport.runBinary(["bench", "terminal", "--state", directory])

        #expect(result.code == 0, "\(result.stderr)")
        // A terminal of no size would have ended `run` with "too small" before the first key.
        #expect(result.stdout.contains("in a pseudo-terminal of 130x40, 13 key presses"), "\(result.stdout)")
        #expect(result.stdout.contains("the walk bought a subscription and read its full article"), "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.txt"])
    }
}
