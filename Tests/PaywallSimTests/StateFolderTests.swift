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

    @Test func fuzzWithANewStateFolderRemovesTheFoldersItMade() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary([
            "fuzz", "--runs", "2", "--steps", "5", "--app", "daily-news", "--state", "\(directory)/new/state",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
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

    /// Two runs started together on a new folder: the second saw the first's databases while it made them (0 bytes,
    /// or one without the other) and said "the records it held are gone" (session 27). A folder whose shape is
    /// refused while another process owns it is that process's work in progress: the second says it is in use.
    @Test func aFolderBeingMadeByAnotherRunIsInUseNotEmptied() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data().write(to: URL(fileURLWithPath: "\(directory)/made-by-bench"))
        try Data().write(to: URL(fileURLWithPath: "\(directory)/appstore.sqlite"))
        do {
            let owner = try StateLock(folder: directory)
            let result = try TestSupport.runBinary(["bench", "ledger", "--count", "2", "--state", directory])
            #expect(result.code == 2)
            #expect(
                result.stderr.contains("\(directory) is in use by paywall-sim, pid \(getpid())"), "\(result.stderr)")
            withExtendedLifetime(owner) {}
        }
        // Nobody owns it: the same shape is what it says it is.
        let alone = try TestSupport.runBinary(["bench", "ledger", "--count", "2", "--state", directory])
        #expect(alone.code == 2)
        #expect(alone.stderr.contains("appstore.sqlite: empty (0 bytes)"), "\(alone.stderr)")
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

    /// `bench lifecycle --state` on a person's `run` folder upgraded the demo reader's plan, charged it twice and
    /// moved its purchase; `bench ledger` left raw.sqlite and floor.sqlite in it (session 26). Both refuse a folder
    /// they did not make, before writing a byte, and take their own again.
    @Test(arguments: ["lifecycle", "ledger"])
    func benchRefusesAFolderItDidNotMake(name: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let person = "\(directory)/daily-news"
        do {
            let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(stateDirectory: person))
            world.launch()
            world.scheduler.runUntilIdle()
        }
        let notes = "\(directory)/notes"
        try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: false)
        try "keep me\n".write(toFile: "\(notes)/todo.txt", atomically: true, encoding: .utf8)
        for (folder, what) in [(person, "a state folder"), (notes, "files")] {
            let before = try Self.files(folder)
            let result = try TestSupport.runBinary(["bench", name, "--count", "2", "--state", folder])
            #expect(result.code == 2)
            #expect(result.stderr.contains("--state: \(folder) holds \(what) bench did not make"), "\(result.stderr)")
            #expect(try Self.files(folder) == before)
        }
        let own = "\(directory)/bench"
        let made = try TestSupport.runBinary(["bench", name, "--count", "2", "--state", own])
        #expect(made.code == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(own)/made-by-bench"))
        // Each carries on in its own folder: the ledger's second run met the first one's raw.sqlite and stopped.
        let again = try TestSupport.runBinary(["bench", name, "--count", "2", "--state", own])
        #expect(again.code == 0, "\(again.stderr)")
        #expect(!(try Self.files(own).keys.contains { $0.hasPrefix("bench-floors") || $0.contains("raw.sqlite") }))
    }

    /// A bench folder whose world is refused (a ledger that is not a database): the refused benchmark had signed the
    /// lock file with its pid, and only `run` put it back (h3, session 29). A refused folder is left byte for byte.
    @Test(arguments: ["lifecycle", "ledger"])
    func benchRefusingItsOwnFolderLeavesItAsItWas(name: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try TestSupport.runBinary(["bench", name, "--count", "1", "--state", directory])
        #expect(made.code == 0, "\(made.stderr)")
        try "not a database, but not empty either\n".write(
            toFile: "\(directory)/backend.sqlite", atomically: true, encoding: .utf8)
        let before = try Self.files(directory)
        let result = try TestSupport.runBinary(["bench", name, "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)/backend.sqlite"), "\(result.stderr)")
        #expect(try Self.files(directory) == before)
    }

    @Test func aBenchmarkThatDoesNotUseStateSaysSo() throws {
        let result = try TestSupport.runBinary(["bench", "purchase", "--state", "unused"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("bench purchase does not use --state"), "\(result.stderr)")
    }

    /// Every file under `folder`, with its bytes.
    static func files(_ folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isFolder = false
            _ = FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isFolder)
            found[path] = isFolder ? Data() : try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(path)"))
        }
        return found
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

    /// Read between two of a running owner's commits, the ledger and the App Store's records disagree: the check
    /// reported tampering that never happened (found in session 24). It names the owner and checks nothing.
    @Test func aLedgerCheckOfAFolderInUseNamesItsOwnerAndExitsTwo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", directory])
        #expect(made.code == 0, "\(made.stderr)")
        var lock: StateLock? = try StateLock(folder: directory)
        let busy = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(busy.code == 2)
        #expect(
            busy.stderr.contains("is in use by paywall-sim, pid \(getpid()): check it once that ends"), "\(busy.stderr)"
        )
        lock = nil
        #expect(lock == nil)
        let free = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(free.code == 0, "\(free.stdout)\(free.stderr)")
        #expect(free.stdout.contains("the ledger holds"))
    }

    /// A folder a killed run left, its ledger's `-wal` and `-shm` beside it: `check --ledger` rewrote the `-shm` (h3,
    /// session 29). A check reads and changes nothing, byte for byte.
    @Test func aLedgerCheckOfAKilledRunsFolderChangesNoFile() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", "\(directory)/live"])
        #expect(made.code == 0, "\(made.stderr)")
        // The files as a kill leaves them: copied while a connection holds a commit in the WAL, not checkpointed.
        do {
            let ledger = try Database(path: "\(directory)/live/backend.sqlite")
            try ledger.execute("PRAGMA user_version=\(try ledger.schemaVersion())")
            try FileManager.default.copyItem(atPath: "\(directory)/live", toPath: "\(directory)/killed")
        }
        let killed = "\(directory)/killed"
        #expect(FileManager.default.fileExists(atPath: "\(killed)/backend.sqlite-shm"))
        let before = try Self.files(killed)
        let check = try TestSupport.runBinary(["check", "--ledger", "--state", killed])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(try Self.files(killed) == before)
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

    /// A recording starts from an empty world: made on a folder earlier sessions wrote, it replayed without their
    /// charge and failed (session 27). `--record` on such a folder is refused before the terminal opens.
    @Test func aRecordingOnAFolderWithEarlierSessionsIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", "\(directory)/state"])
        #expect(bench.code == 0, "\(bench.stderr)")
        let result = try TestSupport.runBinary([
            "run", "--state", "\(directory)/state", "--record", "\(directory)/session.scenario",
        ])
        #expect(result.code == 2)
        #expect(
            result.stderr.contains(
                "--record: \(directory)/state holds earlier sessions, which a recording cannot carry"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/session.scenario"))
    }

    /// A file that is not an earlier recording is not `run`'s to write over (found in session 24).
    @Test func aRecordingNeverWritesOverAnotherFile() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/notes.txt"
        try "precious\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["run", "--ephemeral", "--record", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--record: \(path) exists and is not its output as paywall-sim wrote it"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
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

    /// Every file of the folder by its path inside it, with its bytes.
    private func files(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            var isFolder = false
            _ = FileManager.default.fileExists(atPath: "\(directory)/\(path)", isDirectory: &isFolder)
            files[path] = isFolder ? nil : try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(path)"))
        }
        return files
    }

    private func removeDatabase(_ name: String, in directory: String) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)\(suffix)")
        }
    }

    @Test func aReplacedStoreFileBesideALedgerWithPurchasesIsRefused() throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fresh = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        _ = try World(config: TestSupport.demoConfig(), options: WorldOptions(stateDirectory: fresh))
        removeDatabase("appstore.sqlite", in: directory)
        try FileManager.default.copyItem(atPath: "\(fresh)/appstore.sqlite", toPath: "\(directory)/appstore.sqlite")
        // Unstamped, as a file from before the folder's stamp (`StateKinship`): it is behind what the ledger heard.
        try Database(path: "\(directory)/appstore.sqlite").execute("PRAGMA application_id = 0")
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)/appstore.sqlite: behind backend.sqlite"), "\(result.stderr)")
    }

    /// Both databases gone beside the phones' files and the clock: refused, and nothing made (session 24: the folder
    /// was taken as new, and its phones held tokens and levels the new records never issued).
    @Test func bothDatabasesGoneBesideThePhonesIsRefusedAndNothingIsMade() throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        removeDatabase("appstore.sqlite", in: directory)
        removeDatabase("backend.sqlite", in: directory)
        let before = try files(directory)
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("appstore.sqlite and backend.sqlite are missing beside clock and devices/"))
        #expect(try files(directory) == before)
    }

    /// A database of 0 bytes is one emptied, not a new one: SQLite would take it as new, and the run would
    /// build a fresh schema over it, every purchase it held gone without a word.
    @Test(arguments: ["appstore.sqlite", "backend.sqlite"])
    func anEmptiedDatabaseIsRefusedByRunAndCheckAndLeftAsItWas(file: String) throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        removeDatabase(file, in: directory)
        #expect(FileManager.default.createFile(atPath: "\(directory)/\(file)", contents: Data()))
        let before = try files(directory)
        let message = "\(directory)/\(file): empty (0 bytes), the records it held are gone"
        let run = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(run.code == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        let check = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(check.code == 2)
        #expect(check.stderr.contains(message), "\(check.stderr)")
        #expect(try files(directory) == before)
    }

    /// One database without the other lost half of what the folder knew: `run` refuses before it makes a new
    /// one, and `check --ledger` cannot compare the ledger with Apple's records, so it refuses too.
    @Test(arguments: [
        ("appstore.sqlite", "the App Store's records of the ledger's purchases are gone"),
        ("backend.sqlite", "the ledger of who owns the App Store's purchases is gone"),
    ])
    func aDatabaseMissingBesideTheOtherIsRefusedAndNothingIsMade(file: String, reason: String) throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        removeDatabase(file, in: directory)
        let before = try files(directory)
        let run = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(run.code == 2)
        #expect(run.stderr.contains("\(directory)/\(file): missing beside "), "\(run.stderr)")
        #expect(run.stderr.contains(reason), "\(run.stderr)")
        #expect(try files(directory) == before)
        let check = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(check.code == 2, "\(check.stdout)")
        #expect(!check.stdout.contains("the ledger holds"))
        #expect(try files(directory) == before)
    }

    /// A name of the folder that is a file where a folder belongs, or the other way round, is said in words,
    /// never as Foundation's error.
    @Test(arguments: [
        ("devices", false, "is a file, the state folder keeps its phones in a folder of that name"),
        ("clock", true, "is a folder, the state folder keeps the instant the last run stopped at in a file"),
        ("keys", true, "is a folder, the state folder keeps its secrets in a file of that name"),
    ])
    func aFileWhereAFolderBelongsIsNamedInWords(name: String, asFolder: Bool, words: String) throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        if asFolder {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(name)", withIntermediateDirectories: false)
        } else {
            #expect(FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data("x".utf8)))
        }
        let before = try files(directory)
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)/\(name): \(words)"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error"), "\(result.stderr)")
        #expect(try files(directory) == before)
    }

    @Test func aPhoneWhoseFolderIsAFileIsNamedInWords() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/devices", withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: "\(directory)/devices/iphone", contents: Data("x".utf8)))
        let config = try TestSupport.demoConfig()
        do {
            _ = try World(config: config, options: WorldOptions(stateDirectory: directory))
            Issue.record("a world was built on a phone folder that is a file")
        } catch {
            #expect(
                error.description
                    == "\(directory)/devices/iphone: is a file, the state folder keeps a phone's files in a folder of "
                    + "that name; move it away or start a new folder")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["devices"])
    }

    /// A folder holds one app's state: another app's run answered every receipt 401 token_other_app and a paid
    /// purchase was never confirmed (session 25). Another app is refused, naming the file, and writes nothing (an older
    /// folder without `app`: `StateFilesLostTests`).
    @Test func aFolderOfOneAppIsRefusedToAnother() throws {
        let directory = try folderWithHistory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fitTrack = try TestSupport.demoConfig("fit-track")
        #expect(
            try String(contentsOfFile: "\(directory)/app", encoding: .utf8) == "com.paywallsim.dailynews daily-news\n")
        do {
            _ = try World(config: fitTrack, options: WorldOptions(stateDirectory: directory))
            Issue.record("fit-track opened daily-news's state folder")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "\(directory)/app: this folder holds the state of daily-news (com.paywallsim.dailynews) and "),
                "\(error.description)")
        }
    }

    /// `s` on a walk wrote its report over any file of that name, a ledger too (session 25).
    @Test func aWalkReportNeverWritesOverAnotherFile() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/notes.md"
        try "precious\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary([
            "run", "--walk", "\(TestSupport.packageRoot)/scenarios/purchase.scenario", "--report", path,
        ])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--report: \(path) exists and is not its output as paywall-sim wrote it"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
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
