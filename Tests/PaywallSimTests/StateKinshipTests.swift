import Database
import Foundation
import Testing

@testable import Simulation

/// A state folder's databases belong together and can be written: a store file from another folder, one behind what
/// the ledger heard (an older copy, a -wal lost after a crash) or a read-only one was opened in silence, and the
/// run charged what the reader had cancelled or had never bought (session 29). Refused naming the file, exit 2,
/// nothing on disk changed; `check --ledger` reports the same.
@Suite struct StateKinshipTests {
    private let store = "appstore.sqlite"

    /// A world kept in `directory` whose reader bought the monthly plan; the options reopen the folder.
    private func subscribed(in directory: String) throws -> WorldOptions {
        let options = WorldOptions(latency: .none, stateDirectory: directory)
        let world = try World(config: try TestSupport.demoConfig(), options: options)
        world.launchAndSettle()
        world.buyFromFeed()
        try #require(world.problems.isEmpty, "\(world.problems)")
        return options
    }

    /// A copy of the store file in `directory` as it stands, its -wal included (a world may still hold it open).
    private func copyStore(from directory: String, to path: String) throws {
        try Database(path: "\(directory)/\(store)", readOnly: true).execute("VACUUM INTO '\(path)'")
    }

    /// The store file in `directory` replaced by the one at `path`, its -wal and -shm gone with it.
    private func replaceStore(in directory: String, with path: String) throws {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(store)\(suffix)")
        }
        try FileManager.default.copyItem(atPath: path, toPath: "\(directory)/\(store)")
    }

    /// The world refuses `directory` with `message`, changing nothing on disk, and `check --ledger` reports it.
    private func expectRefused(_ options: WorldOptions, _ directory: String, saying message: String) throws {
        let before = try StateFolderTests.files(directory)
        let config = try TestSupport.demoConfig()
        do {
            _ = try World(config: config, options: options)
            Issue.record("the folder was opened")
        } catch {
            #expect(error.description.hasPrefix("\(directory)/\(store): \(message)"), "\(error.description)")
        }
        #expect(try StateFolderTests.files(directory) == before)
        let check = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(check.code == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("- \(directory)/\(store): \(message)"), "\(check.stdout)")
        #expect(try StateFolderTests.files(directory) == before)
    }

    /// The App Store's records as they were before a renewal the ledger heard of: an older copy of the file, or the
    /// file without its -wal after a crash. Opened, Apple's notification ids started over and the next one was
    /// dropped as a duplicate; a cancellation undone this way renewed and charged.
    @Test func aStoreFileBehindWhatTheLedgerHeardIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = try subscribed(in: directory)
        let older = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: older) }
        try copyStore(from: directory, to: "\(older)/\(store)")
        do {
            let world = try World(config: try TestSupport.demoConfig(), options: options)
            world.launchAndSettle()
            try WorldAction.renew.apply(to: world)
            world.scheduler.runUntilIdle()
            try #require(world.problems.isEmpty, "\(world.problems)")
        }
        try replaceStore(in: directory, with: "\(older)/\(store)")
        try expectRefused(
            options, directory, saying: "behind backend.sqlite: the ledger heard the App Store's notification 65")
    }

    /// The same app's store file from another state folder: its transaction ids coincide with this folder's, so the
    /// ledger's purchases were all "held", and the run charged for a plan this folder's reader never bought.
    @Test func aStoreFileFromAnotherFolderIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let other = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: other) }
        let options = try subscribed(in: directory)
        _ = try subscribed(in: other)
        try copyStore(from: other, to: "\(other)/copy.sqlite")
        try replaceStore(in: directory, with: "\(other)/copy.sqlite")
        try expectRefused(options, directory, saying: "from another state folder than backend.sqlite beside it")
    }

    /// A folder made before the stamp opens, and its databases take one identity; one stamped beside one that is not
    /// gives it its own.
    @Test func aFolderMadeBeforeTheStampOpensAndAdoptsIt() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = try subscribed(in: directory)
        func stamps() throws -> [Int64] {
            try StateCheck.databases.map { name in
                try Database(path: "\(directory)/\(name)", readOnly: true).query("PRAGMA application_id")[0][0].int ?? 0
            }
        }
        let made = try stamps()
        #expect(made[0] != 0 && made[0] == made[1], "\(made)")
        for unstamped in [StateCheck.databases, [store]] {
            let ledgers = try stamps()[1]
            for name in unstamped { try Database(path: "\(directory)/\(name)").execute("PRAGMA application_id = 0") }
            _ = try World(config: try TestSupport.demoConfig(), options: options)
            let adopted = try stamps()
            #expect(adopted[0] != 0 && adopted[0] == adopted[1], "\(adopted)")
            if unstamped.count == 1 { #expect(adopted[1] == ledgers) }
        }
    }

    /// A read-only database in a writable folder: every purchase then failed ("You were not charged") and every
    /// renewal logged "attempt to write a readonly database", exit 0. Root writes any file, so as root the run is
    /// made as nobody.
    @Test func aDatabaseThatCannotBeWrittenIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", directory])
        try #require(bench.code == 0, "\(bench.stderr)")
        let path = "\(directory)/\(store)"
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let asRoot = getuid() == 0
        if asRoot {
            let items = try FileManager.default.subpathsOfDirectory(atPath: directory).map { "\(directory)/\($0)" }
            for item in [directory] + items { try #require(chown(item, 65534, 65534) == 0) }
        }
        let before = try StateFolderTests.files(directory)
        let prefix = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix.first ?? TestSupport.binaryPath)
        process.arguments =
            Array(prefix.dropFirst()) + (asRoot ? [TestSupport.binaryPath] : [])
            + ["bench", "lifecycle", "--count", "1", "--state", directory]
        let error = Pipe()
        process.standardError = error
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(stderr)")
        #expect(stderr.contains("\(path): cannot be written (Permission denied)"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        // Everything but the lock, which a bench (unlike `run`) signs with its pid as it takes the folder.
        let after = try StateFolderTests.files(directory).filter { $0.key != StateLock.fileName }
        #expect(after == before.filter { $0.key != StateLock.fileName })
    }
}
