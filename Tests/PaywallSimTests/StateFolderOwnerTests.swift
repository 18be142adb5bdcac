import Foundation
import Testing

@testable import Simulation

/// Whose state a folder holds, and what a run refused for it leaves there: nothing changed.
@Suite struct StateFolderOwnerTests {
    private func modified(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    /// A run refused for another app's state signed the folder's lock file with its pid, though README says the
    /// folder is left as it was (session 28); a lock file it made on a folder that had none stayed behind.
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
    func aRunRefusedForAnotherAppsStateLeavesTheFolderAsItWas() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        try #require(bench.code == 0, "\(bench.stderr)")
        for withLock in [true, false] {
            if !withLock { try FileManager.default.removeItem(atPath: "\(directory)/\(StateLock.fileName)") }
            let before = try StateFolderTests.files(directory)
            let lockTime = withLock ? try modified("\(directory)/\(StateLock.fileName)") : nil
            let tmux = try TmuxSession(["run", "--app", "fit-track", "--state", directory])
            tmux.waitFor("EXIT=2")
            #expect(tmux.screen.contains("this folder holds the state of"), "\(tmux.screen)")
            #expect(try StateFolderTests.files(directory) == before)
            if withLock { #expect(try modified("\(directory)/\(StateLock.fileName)") == lockTime) }
        }
    }
}
