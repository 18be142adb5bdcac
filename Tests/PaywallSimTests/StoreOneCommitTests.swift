import Database
import Foundation
import SimKernel
import StoreSim
import Testing

/// A confirmed payment's release and its charge are one commit: another reader of `appstore.sqlite` (a
/// `check --ledger`, or the next process after a kill) sees the payment held or charged, never neither.
@Suite struct StoreOneCommitTests {
    /// A receipt slot that, when the store saves the receipt of a charge (inside the charge's event), reads
    /// what the file holds through a second, read-only connection.
    private final class PeekingReceipt: ReceiptSlot {
        let path: String
        var seen: [(held: Int64, charged: Int64)] = []
        var receipt: String?
        init(path: String) { self.path = path }
        func load() -> String? { receipt }
        func save(_ receipt: String?) {
            self.receipt = receipt
            do {
                let reader = try Database(path: path, readOnly: true)
                let held = try reader.query("SELECT COUNT(*) FROM held_payments").first?.first?.int ?? -1
                let charged = try reader.query("SELECT COUNT(*) FROM transactions").first?.first?.int ?? -1
                seen.append((held, charged))
            } catch {
                Issue.record("the second connection could not read the file: \(error)")
            }
        }
    }

    @Test func aReaderSeesTheConfirmedPaymentHeldUntilItsChargeIsWrittenWithItsRelease() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (store, scheduler, path) = try Self.store(in: directory)
        let receipt = PeekingReceipt(path: path)
        let queue = store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: receipt)
        var states: [TransactionState] = []
        queue.startObserving { states.append($0.state) }
        queue.add(productIdentifier: StoreHarness.monthly)
        scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        scheduler.runUntilIdle()

        #expect(states == [.purchasing, .purchased])
        // While the charge's event ran, the file still held the payment and not yet its transaction.
        #expect(receipt.seen.count == 1)
        #expect(receipt.seen.first?.held == 1)
        #expect(receipt.seen.first?.charged == 0)
        // Then both at once: released and charged.
        let reader = try Database(path: path, readOnly: true)
        #expect(try reader.query("SELECT COUNT(*) FROM held_payments").first?.first?.int == 0)
        #expect(try reader.query("SELECT COUNT(*) FROM transactions").first?.first?.int == 1)
        #expect(store.errors == [])
    }

    /// A charge whose commit is lost (a full disk, here a deferred foreign key the test plants through a trigger)
    /// told the observer "purchased" and notified the server of a transaction the file never held: the folder was
    /// refused as "emptied or replaced" from then on (session 27). Now the payment stays held, nothing of the charge
    /// is told, and the App Store charges it once it can write again.
    @Test func aChargeWhoseCommitIsLostStaysHeldAndIsChargedOnceItCanBeWritten() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (store, scheduler, path) = try Self.store(in: directory)
        var notified = 0
        store.notificationEndpoint = { _ in
            notified += 1
            return HTTPResponse(status: 200)
        }
        let receipt = ReceiptBox()
        let queue = store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: receipt)
        var states: [TransactionState] = []
        queue.startObserving { states.append($0.state) }
        queue.add(productIdentifier: StoreHarness.monthly)
        scheduler.runUntilIdle()
        let saboteur = try Database(path: path)
        try saboteur.execute(
            """
            CREATE TABLE lost_parent (id INTEGER PRIMARY KEY);
            CREATE TABLE lost_child (parent INTEGER REFERENCES lost_parent(id) DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER lose_the_commit AFTER INSERT ON transactions BEGIN INSERT INTO lost_child VALUES (1); END;
            """)
        queue.answerSheet(confirm: true)
        scheduler.runUntilIdle()

        #expect(states == [.purchasing])
        #expect(notified == 0)
        #expect(receipt.receipt == nil)
        #expect(store.errors.count == 1)
        #expect(store.errors.first?.contains("cannot write down the payment") == true, "\(store.errors)")
        let reader = try Database(path: path, readOnly: true)
        #expect(try reader.query("SELECT COUNT(*) FROM held_payments").first?.first?.int == 1)
        #expect(try reader.query("SELECT COUNT(*) FROM transactions").first?.first?.int == 0)

        try saboteur.execute("DROP TRIGGER lose_the_commit")
        scheduler.advance(by: PaymentQueue.firstChargeRetry)
        scheduler.runUntilIdle()
        #expect(states == [.purchasing, .purchased])
        #expect(notified == 1)
        #expect(receipt.receipt != nil)
        #expect(try reader.query("SELECT COUNT(*) FROM held_payments").first?.first?.int == 0)
        #expect(try reader.query("SELECT COUNT(*) FROM transactions").first?.first?.int == 1)
        // The notification's id was numbered from a block the file holds reserved: the lost commit's reservation was
        // taken back with it, and a serial past the file's read as news the store never numbered (session 29).
        #expect(try reader.query("SELECT value FROM serials WHERE name = 'notification'").first?.first?.int == 64)
    }

    /// The demo app's App Store on a file in `directory`, on its own clock.
    private static func store(in directory: String) throws -> (AppStore, Scheduler, String) {
        let path = directory + "/appstore.sqlite"
        let fixture = try StoreFixture(databasePath: path)
        return (fixture.store, fixture.scheduler, path)
    }
}
