import Database
import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// A disk that cannot take the App Store's records (h3 03): the renewal it refused was on the timeline although the
/// file never held it, and `run` went on as if nothing were lost. Now the event's writes are rolled back whole, its
/// lines are taken back, and the store names the file the disk refused, for `run` to end on.
@Suite struct StoreDiskFullTests {
    @Test func aRenewalTheDiskRefusesIsNeitherKeptNorSaid() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/appstore.sqlite"
        let fixture = try StoreFixture(databasePath: path)
        let (store, scheduler, timeline) = (fixture.store, fixture.scheduler, fixture.timeline)
        let queue = store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: ReceiptBox())
        queue.startObserving { _ in }
        queue.add(productIdentifier: StoreHarness.monthly)
        scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        scheduler.runUntilIdle()
        #expect(store.errors == [])

        // The disk fills: a renewal's transaction needs pages the file may no longer grow by (SQLite's
        // max_page_count on the store's own connection answers SQLITE_FULL, as a full disk does).
        let saboteur = try Database(path: path)
        try saboteur.execute(
            """
            CREATE TABLE filler (bytes BLOB);
            CREATE TRIGGER fill AFTER INSERT ON transactions BEGIN INSERT INTO filler VALUES (zeroblob(65536)); END;
            """)
        let pages = try store.ledger.database.query("PRAGMA page_count").first?.first?.int ?? 0
        try store.ledger.database.execute("PRAGMA max_page_count = \(pages + 8)")
        scheduler.advance(by: .days(32))

        #expect(!timeline.entries.contains { $0.text.hasPrefix("renewed") }, "\(timeline.text)")
        #expect(store.storageFailure == StorageFailure(path: path, reason: "No space left on device"))
        #expect(store.errors.contains { $0.contains("cannot write down the period end") }, "\(store.errors)")
        let reader = try Database(path: path, readOnly: true)
        #expect(try reader.query("SELECT COUNT(*) FROM transactions").first?.first?.int == 1)
        #expect(try reader.query("SELECT COUNT(*) FROM filler").first?.first?.int == 0)
    }

    /// A disk that takes no byte when a folder is opened (`ulimit -f 0` stands in for a full one): the refused launch
    /// left empty `-wal` and `-shm` files it had made, and the lock file emptied, truncated before its pid could not
    /// be written (h3 06, session 29). The folder is left byte for byte.
    @Test func aLaunchRefusedForAFullDiskLeavesTheFolderAsItWas() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", directory])
        try #require(made.code == 0, "\(made.stderr)")
        let before = try StateFolderTests.files(directory)
        let (code, text) = try Self.bash(
            "ulimit -f 0; exec \"$0\" bench lifecycle --count 1 --state \"$1\"", TestSupport.binaryPath, directory)
        #expect(code == 2, "\(text)")
        #expect(text.contains("\(directory)/appstore.sqlite: cannot be opened (File too large)"), "\(text)")
        #expect(try StateFolderTests.files(directory) == before)
    }

    /// A launch refused after the App Store's records opened, when the ledger's cannot be (a disk with ~60 KiB free
    /// took the store's `-shm` and not the ledger's; here a ledger from a newer build): the store's scheduled renewals
    /// held it, its connection stayed open, and its `-wal` and `-shm` stayed behind (session 32). The folder is left
    /// byte for byte, by `bench lifecycle` (a world) and `bench ledger` (a store and a backend) alike.
    @Test(arguments: ["lifecycle", "ledger"]) func aLaunchRefusedAfterTheStoreOpenedLeavesNoSideFiles(bench: String)
        throws
    {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try TestSupport.runBinary(["bench", "lifecycle", "--count", "2", "--state", directory])
        try #require(made.code == 0, "\(made.stderr)")
        try Database(path: "\(directory)/backend.sqlite").execute("PRAGMA user_version = 999")
        let before = try StateFolderTests.files(directory)
        try #require(!before.keys.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(before.keys)")

        let refused = try TestSupport.runBinary(["bench", bench, "--count", "1", "--state", directory])
        #expect(refused.code == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("schema version 999 is newer than this build knows"), "\(refused.stderr)")
        #expect(try StateFolderTests.files(directory) == before)
    }

    /// `script` run by bash with `arguments` as $0, $1…: its exit code and standard error.
    private static func bash(_ script: String, _ arguments: String...) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script] + arguments
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Past a file-size limit (`ulimit -f`) a write fails with EFBIG: the reason read "disk I/O error", SQLite keeping
    /// the errno with the file and giving it to no caller (h3 07, session 29). It is named as the system names it.
    @Test func aFileSizeLimitIsNamedAsFileTooLarge() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // bash's `ulimit -f` counts KiB: 60 stops the first write of the App Store's WAL past 60 KiB, at launch.
        let (code, text) = try Self.bash(
            "ulimit -f 60; exec \"$0\" bench lifecycle --count 300 --state \"$1\"", TestSupport.binaryPath,
            "\(directory)/state")
        #expect(code == 2, "\(text)")
        #expect(text.contains("(File too large)"), "\(text)")
        #expect(!text.contains("disk I/O error"), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "\(text)")
    }
}
