import Database
import Foundation
import Fuzzing
import Testing
import WhiteLabel

@testable import Simulation

/// What the commands do with `--state DIR`: never remove what they did not make, refuse a folder they
/// cannot use with one line and exit 2, and never share a folder with another process.
@Suite struct StateFolderTests {
    @Test func fuzzWithStateKeepsWhatTheFolderHeldAndLeavesNothingOfItsOwn() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/real-state", withIntermediateDirectories: true)
        try "keep me".write(toFile: "\(directory)/real-state/notes.txt", atomically: true, encoding: .utf8)

        let result = try TestSupport.runBinary([
            "fuzz", "--runs", "2", "--steps", "5", "--app", "daily-news", "--state", directory,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["real-state"])
        #expect(try String(contentsOfFile: "\(directory)/real-state/notes.txt", encoding: .utf8) == "keep me")
    }

    @Test(arguments: [
        (["--state", "/dev/null/state"], "--state: cannot create /dev/null/state"),
        (["--state", "/dev/null"], "--state: /dev/null is a file, not a folder"),
        (["--state", ""], "--state needs a folder, not an empty name"),
        (["--out", "/dev/null"], "--out: /dev/null is a file, not a folder"),
    ])
    func fuzzRefusesAFolderItCannotUseBeforeAnySession(arguments: [String], message: String) throws {
        let result = try TestSupport.runBinary(["fuzz", "--runs", "2", "--steps", "5"] + arguments)
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aSessionWhoseWorldCannotBeBuiltIsASetupFailureNotAPass() {
        let resources = ResourceLocator(root: TestSupport.packageRoot)
        let options = FuzzOptions(apps: ["daily-news"], runs: 3, steps: 5, stateDirectory: "/dev/null/fuzz")
        let result = Fuzzer(options: options, resources: resources).run()
        #expect(result.setupFailure?.hasPrefix("session 0 (daily-news) could not start: ") == true)
        #expect(result.failure == nil)
    }

    /// Issue 13, item 11: a phone per restore, each with a receipt listing the whole history, grew the
    /// folder quadratically (2.1 GB after 4,185 phones). The workload keeps its last few phones.
    @Test func theLifecycleFolderKeepsAFewPhonesHoweverLongItRuns() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<2 {
            let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "300", "--state", directory])
            #expect(result.code == 0, "\(result.stderr)")
        }
        let phones = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/devices").filter {
            $0.hasPrefix("phone-")
        }
        #expect(phones.count == LifecycleWorkload.phonesKept, "\(phones.sorted())")
        // The second run carried on after the first one's phones: over 60 phones were made, 8 are left.
        let highest = phones.compactMap { Int($0.dropFirst("phone-".count)) }.max() ?? 0
        #expect(highest > 60)
        let check = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aSecondProcessOnAHeldFolderNamesTheHolderAndExitsTwo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lock = try StateLock(folder: directory)
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr == "paywall-sim bench: \(directory) is in use by paywall-sim, pid \(getpid())\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/backend.sqlite"))
        withExtendedLifetime(lock) {}
    }

    @Test func aFolderIsFreeAgainOnceItsOwnerIsGoneEvenWithItsLockFileLeft() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A killed owner leaves its lock file with its pid; the kernel dropped its flock with it.
        try "999999\n".write(toFile: "\(directory)/\(StateLock.fileName)", atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", directory])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("lifecycle: 2 steps"))
    }

    @Test func oneProcessCannotTakeAFolderTwice() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: StateLock? = try StateLock(folder: directory)
        #expect(throws: StateLockError.self) { try StateLock(folder: directory) }
        first = nil
        #expect(first == nil)
        _ = try StateLock(folder: directory)
    }
}

/// `run` refuses what it cannot do before it touches the disk.
@Suite struct RunRefusalTests {
    @Test func withoutATerminalRunCreatesNoStateFolder() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["run", "--state", "\(directory)/state"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("needs a terminal"))
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/state"))
    }

    @Test(arguments: [
        ("/dev/null/session.scenario", "--record: no folder /dev/null to write /dev/null/session.scenario in"),
        ("/tmp", "--record: /tmp is a folder, not a file"),
        ("", "--record needs a file name"),
    ])
    func aRecordingThatCouldNotBeWrittenIsRefusedAtTheStart(path: String, message: String) throws {
        let result = try TestSupport.runBinary(["run", "--ephemeral", "--record", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}

/// A reopened folder is checked before anything writes into it.
@Suite struct DamagedStateTests {
    private func folderWithHistory() throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "30", "--state", directory])
        try #require(result.code == 0, "\(result.stderr)")
        return directory
    }

    @Test(arguments: ["appstore.sqlite", "backend.sqlite"])
    func aGarbledPageIsRefusedNamingTheFile(file: String) throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/\(file)"
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        // Pages 2 and 3: the tables' pages, not the header SQLite would refuse at once. The page size is
        // the header's big-endian 16-bit number at offset 16.
        try handle.seek(toOffset: 16)
        let size = try #require(try handle.read(upToCount: 2)).reduce(0) { $0 << 8 | Int($1) }
        try #require(size >= 512)
        try handle.seek(toOffset: UInt64(size))
        handle.write(Data(repeating: 0xA5, count: size * 2))
        try handle.close()
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains(path), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anEmptiedStoreFileBesideALedgerWithPurchasesIsRefused() throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: "\(directory)/appstore.sqlite\(suffix)")
        }
        #expect(FileManager.default.createFile(atPath: "\(directory)/appstore.sqlite", contents: Data()))
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("appstore.sqlite does not hold: the store's file was emptied or replaced"))
    }

    @Test func aSchemaNewerThanThisBuildIsRefused() throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Database(path: "\(directory)/backend.sqlite").execute("PRAGMA user_version = 99")
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("backend.sqlite: schema version 99 is newer than this build knows"))
    }
}
