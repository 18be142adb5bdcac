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
        let config = try TestSupport.demoConfig()
        let scheduler = Scheduler()
        let path = directory + "/appstore.sqlite"
        let store = try AppStore(
            store: config.store, bundleId: config.app.bundleId, scheduler: scheduler,
            timeline: Timeline(clock: { scheduler.now }), random: SeededGenerator(seed: 1), latency: .none,
            databasePath: path)
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
}
