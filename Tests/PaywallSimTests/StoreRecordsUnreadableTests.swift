import Foundation
import Signing
import SimKernel
import Testing

@testable import StoreSim

/// A store that cannot read its own records says so and fails the request: a receipt issued without
/// them would tell the app "nothing to restore" while the Apple ID pays.
@Suite struct StoreRecordsUnreadableTests {
    private func boughtThenUnreadable() throws -> (StoreHarness, receipt: String?) {
        let harness = try StoreHarness()
        harness.buy()
        let receipt = harness.queue.appReceipt
        #expect(receipt != nil)
        try harness.store.ledger.database.execute("ALTER TABLE transactions RENAME TO transactions_gone")
        harness.store.ledger.transactionsChanged()  // the kept rows dropped, as after a commit that failed
        return (harness, receipt)
    }

    @Test func aRestoreFailsAndThePhoneKeepsItsReceipt() throws {
        let (harness, receipt) = try boughtThenUnreadable()
        var finished: [StoreError?] = []
        harness.queue.restoreCompletedTransactions { finished.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(finished == [.unknown])
        #expect(harness.queue.appReceipt == receipt, "the receipt that lists the purchase is kept")
        #expect(harness.store.errors.contains { $0.hasPrefix("error: cannot read the transactions to restore") })
    }

    @Test func aReceiptRefreshFailsAndThePhoneKeepsItsReceipt() throws {
        let (harness, receipt) = try boughtThenUnreadable()
        var refreshed: [Bool] = []
        harness.queue.refreshReceipt { refreshed.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(refreshed == [false])
        #expect(harness.queue.appReceipt == receipt)
        #expect(harness.store.errors.contains { $0.hasPrefix("error: cannot issue a receipt for a@icloud.test") })
    }

    /// Without its serial a notification is still named as no other: the backend drops a repeated UUID as a
    /// duplicate, and two runs on one folder draw the same seeded bytes.
    @Test func aNotificationNumberedWithoutItsSerialIsNamedAsNoOtherAcrossRuns() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig()
        var uuids: [String] = []
        for _ in 0..<2 {
            let scheduler = Scheduler()
            let store = try AppStore(
                store: config.store, bundleId: config.app.bundleId, scheduler: scheduler,
                timeline: Timeline(clock: { scheduler.now }), random: SeededGenerator(seed: 1), latency: .none,
                databasePath: directory + "/appstore.sqlite", keys: try Keyring.folder(directory, legacy: false))
            try store.ledger.database.execute("DROP TABLE IF EXISTS serials")
            uuids.append(store.nextUUID())
            #expect(store.errors.contains { $0.hasPrefix("error: cannot number a notification") })
        }
        #expect(uuids[0] != uuids[1])
    }
}
