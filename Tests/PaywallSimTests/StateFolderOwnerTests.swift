import Foundation
import Testing
import WhiteLabel

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

    /// Two configs of one bundleId and two app ids shared a folder in silence: the folder is named after the app
    /// (`app.id`), and `DIR/app` held only the bundleId its guard compared (session 28).
    @Test func twoAppsOfOneBundleIdDoNotShareAFolder() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dailyNews = try TestSupport.demoConfig()
        _ = try World(config: dailyNews, options: WorldOptions(stateDirectory: directory))
        var other = dailyNews
        other.app.id = "other-news"
        do {
            _ = try World(config: other, options: WorldOptions(stateDirectory: directory))
            Issue.record("other-news opened daily-news's state folder")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "\(directory)/app: this folder holds the state of daily-news (com.paywallsim.dailynews) and "),
                "\(error.description)")
        }
        _ = try World(config: dailyNews, options: WorldOptions(stateDirectory: directory))
    }

    /// A folder whose `app` names the bundleId alone, as earlier builds wrote it, keeps working for its app, which
    /// then names itself there too.
    @Test func anOlderFolderNamingTheBundleIdAloneKeepsWorking() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dailyNews = try TestSupport.demoConfig()
        _ = try World(config: dailyNews, options: WorldOptions(stateDirectory: directory))
        try "com.paywallsim.dailynews\n".write(toFile: "\(directory)/app", atomically: true, encoding: .utf8)
        _ = try World(config: dailyNews, options: WorldOptions(stateDirectory: directory))
        let held = try String(contentsOfFile: "\(directory)/app", encoding: .utf8)
        #expect(held.split(separator: " ").first == "com.paywallsim.dailynews")
        #expect(held.contains("daily-news"))
    }
}
