import Database
import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// A disk that cannot take the App Store's records (h3 03): the renewal it refused was on the timeline although the
/// file never held it, and `run` went on as if nothing were lost. Now the event's writes are rolled back whole, its
/// lines are taken back, and the store names the file the disk refused, for `run` to end on.
@Suite struct StoreDiskFullTests {
    private final class PlainReceipt: ReceiptSlot {
        var receipt: String?
        func load() -> String? { receipt }
        func save(_ receipt: String?) { self.receipt = receipt }
    }

    @Test func aRenewalTheDiskRefusesIsNeitherKeptNorSaid() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig()
        let scheduler = Scheduler()
        let timeline = Timeline(clock: { scheduler.now })
        let path = directory + "/appstore.sqlite"
        let store = try AppStore(
            store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
            random: SeededGenerator(seed: 1), latency: .none, databasePath: path)
        let queue = store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: PlainReceipt())
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
}
