import SimKernel
import StoreSim
import Testing

@Suite struct StorePaymentStateTests {
    @Test func askToBuyDefersUntilAParentApprovesThenThePurchaseGoesThrough() throws {
        let harness = try StoreHarness()
        harness.store.setAskToBuy(true, appleId: harness.appleId)
        harness.buy()
        #expect(harness.states == [.purchasing, .deferred])
        #expect(harness.charges == 0)
        #expect(harness.store.pendingAskToBuy.count == 1)
        // The parent answers three hours later, while the app does something else.
        harness.scheduler.advance(by: .hours(3))
        #expect(harness.store.approveAskToBuy())
        harness.scheduler.runUntilIdle()
        #expect(harness.states == [.purchasing, .deferred, .purchased])
        #expect(harness.transactions.last?.paymentNumber == 1)
        #expect(harness.charges == 1)
        #expect(harness.store.pendingAskToBuy.isEmpty)
        #expect(harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY"])
    }

    @Test func aDeclinedAskToBuyFailsAndChargesNothing() throws {
        let harness = try StoreHarness()
        harness.store.askToBuyEnabled = true
        harness.buy()
        #expect(harness.store.declineAskToBuy())
        harness.scheduler.runUntilIdle()
        #expect(harness.states == [.purchasing, .deferred, .failed])
        #expect(harness.transactions.last?.error == .paymentNotAllowed)
        #expect(harness.charges == 0)
        #expect(harness.notifications.isEmpty)
        #expect(!harness.store.approveAskToBuy(), "nothing waits any more")
    }

    @Test func askToBuyIsPerAppleId() throws {
        let harness = try StoreHarness()
        harness.store.setAskToBuy(true, appleId: "child@icloud.test")
        harness.buy()
        #expect(harness.states == [.purchasing, .purchased])
    }

    @Test func anInterruptedPurchaseFailsThenCompletesOnceResolved() throws {
        let harness = try StoreHarness()
        harness.store.interruptedPurchasesEnabled = true
        harness.buy()
        #expect(harness.states == [.purchasing, .failed])
        #expect(harness.charges == 0)
        harness.store.interruptedPurchasesEnabled = false
        #expect(harness.store.resolveInterruptedPurchase())
        harness.scheduler.runUntilIdle()
        #expect(harness.states == [.purchasing, .failed, .purchased])
        #expect(harness.transactions.last?.transactionIdentifier != nil)
        #expect(harness.charges == 1)
    }

    @Test func restoringDeliversEachPurchaseAsRestoredWithoutChargingAgain() throws {
        let harness = try StoreHarness()
        harness.buy(StoreHarness.yearly)
        let newPhone = harness.store.paymentQueue(deviceId: "phone-2", appleId: harness.appleId, receipt: ReceiptBox())
        var restored: [PaymentTransaction] = []
        newPhone.startObserving { restored.append($0) }
        var finished: [StoreError?] = []
        newPhone.restoreCompletedTransactions { finished.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(restored.map(\.state) == [.restored])
        #expect(restored.first?.originalTransactionIdentifier == harness.original)
        #expect(finished == [nil])
        #expect(newPhone.appReceipt != nil)
        #expect(harness.charges == 1)
    }

    @Test func restoringAnAppleIdThatNeverBoughtSucceedsWithNothing() throws {
        let harness = try StoreHarness()
        var finished: [StoreError?] = []
        harness.queue.restoreCompletedTransactions { finished.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(finished == [nil])
        #expect(harness.transactions.isEmpty)
    }

    @Test(arguments: [
        ("payment error:paymentInvalid", TransactionState.failed, StoreError.paymentInvalid),
        ("payment error", .failed, .unknown),
        ("payment timeout", .failed, .cloudServiceNetworkConnectionFailed),
        ("payment cancelled", .failed, .paymentCancelled),
    ])
    func aPaymentFaultFailsWithItsStoreKitCode(plan: String, state: TransactionState, error: StoreError) throws {
        let harness = try StoreHarness()
        try harness.store.inject(plan)
        harness.buy()
        #expect(harness.states == [.purchasing, state])
        #expect(harness.transactions.last?.error == error)
        #expect(harness.charges == 0)
        #expect(harness.timeline.entries.contains { $0.source == .store && $0.text.hasPrefix("fault: payment") })
    }

    @Test func deferredAndInterruptedFaultsHoldThePayment() throws {
        let harness = try StoreHarness()
        try harness.store.inject("payment deferred; payment interrupted")
        harness.buy()
        harness.buy()
        #expect(harness.states == [.purchasing, .deferred, .purchasing, .failed])
        #expect(harness.store.pendingAskToBuy.count == 1)
        #expect(harness.store.interruptedPurchases.count == 1)
    }
}
