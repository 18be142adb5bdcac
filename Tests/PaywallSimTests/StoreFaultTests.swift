import SimKernel
import StoreSim
import Testing

@Suite struct StoreFaultPlanTests {
    @Test(arguments: [
        ("payment error", FaultRule(target: "payment", fault: "error", frequency: .times(1))),
        (
            "payment error:paymentInvalid times 3",
            FaultRule(target: "payment", fault: "error", argument: "paymentInvalid", frequency: .times(3))
        ),
        ("notification dropped always", FaultRule(target: "notification", fault: "dropped", frequency: .always)),
        (
            "products-request partial chance 0.5",
            FaultRule(target: "products-request", fault: "partial", frequency: .chance(0.5))
        ),
        (
            "notification delayed:2h chance 25%",
            FaultRule(target: "notification", fault: "delayed", argument: "2h", frequency: .chance(0.25))
        ),
    ])
    func rulesParse(text: String, rule: FaultRule) throws {
        #expect(try FaultPlan.parse(text).rules == [rule])
    }

    @Test(arguments: [
        "", "payment", "payment error times", "payment error times 0", "payment error chance 2",
        "payment error sometimes",
    ])
    func malformedRulesAreRefused(text: String) {
        #expect(throws: FaultPlanError.self) { try FaultPlan.parse(text) }
    }

    @Test(arguments: ["wallet error", "payment dropped", "notification delayed:soon", "payment error:notACode"])
    func theStoreRefusesFaultsItDoesNotKnow(text: String) throws {
        let harness = try StoreHarness()
        #expect(throws: FaultPlanError.self) { try harness.store.inject(text) }
    }

    @Test func aTimesRuleFiresOnTheNextNCallsOnly() throws {
        let harness = try StoreHarness()
        try harness.store.inject("payment error times 2")
        harness.buy()
        harness.buy()
        harness.buy()
        #expect(harness.states == [.purchasing, .failed, .purchasing, .failed, .purchasing, .purchased])
    }

    @Test func aFailedProductsRequestReturnsNothing() throws {
        let harness = try StoreHarness()
        try harness.store.inject("products-request error")
        var responses: [ProductsResponse] = []
        harness.queue.requestProducts([StoreHarness.monthly]) { responses.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(responses.first?.products.isEmpty == true)
        #expect(responses.first?.error == .cloudServiceNetworkConnectionFailed)
    }

    @Test func aTimedOutProductsRequestAnswersAMinuteLater() throws {
        let harness = try StoreHarness()
        try harness.store.inject("products-request timeout")
        var answeredAt: SimInstant?
        harness.queue.requestProducts([StoreHarness.monthly]) { _ in answeredAt = harness.scheduler.now }
        harness.scheduler.runUntilIdle()
        #expect(answeredAt == SimInstant.worldStart + .seconds(60))
    }

    @Test func aPartialAnswerNamesTheMissingProductsInvalid() throws {
        let harness = try StoreHarness()
        try harness.store.inject("products-request partial")
        var response: ProductsResponse?
        harness.queue.requestProducts([StoreHarness.monthly, StoreHarness.yearly]) { response = $0 }
        harness.scheduler.runUntilIdle()
        #expect(response?.products.count == 1)
        #expect(response?.invalidProductIdentifiers.count == 1)
    }

    @Test func aMissingReceiptAndAFailedRefresh() throws {
        let harness = try StoreHarness()
        harness.buy()
        try harness.store.inject("receipt missing; receipt-refresh error")
        #expect(harness.queue.appReceipt == nil)
        #expect(harness.queue.appReceipt != nil, "the fault was for the next read only")
        var refreshed: [Bool] = []
        harness.queue.refreshReceipt { refreshed.append($0) }
        harness.queue.refreshReceipt { refreshed.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(refreshed.contains(false) && refreshed.contains(true))
    }

    /// The reader cancels Apple's sign-in for a refresh: told apart from a failure, and the phone keeps its receipt.
    @Test func aRefreshTheReaderCancelsIsNoFailureAndChangesNothing() throws {
        let harness = try StoreHarness()
        harness.buy()
        let held = harness.queue.heldReceipt
        try harness.store.inject("receipt-refresh cancelled times 1")
        var ends: [ReceiptRefreshEnd] = []
        harness.queue.requestReceiptRefresh { ends.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(held != nil && harness.queue.heldReceipt == held)
        harness.queue.requestReceiptRefresh { ends.append($0) }
        harness.scheduler.runUntilIdle()
        #expect(ends == [.cancelled, .ended])
        #expect(harness.timeline.entries.contains { $0.text.contains("receipt refresh cancelled") })

        let restore = try StoreHarness()
        restore.buy()
        try restore.store.inject("receipt-refresh cancelled times 1")
        var answer: StoreError??
        restore.queue.restoreCompletedTransactions { answer = .some($0) }
        restore.scheduler.runUntilIdle()
        #expect(answer == .some(.paymentCancelled))
    }

    @Test func droppedDuplicatedDelayedAndReorderedNotifications() throws {
        let dropped = try StoreHarness()
        try dropped.store.inject("notification dropped")
        dropped.buy()
        #expect(dropped.notifications.isEmpty)

        let duplicated = try StoreHarness()
        try duplicated.store.inject("notification duplicated")
        duplicated.buy()
        #expect(duplicated.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/INITIAL_BUY"])
        #expect(Set(duplicated.notifications.map(\.notificationUUID)).count == 1, "a duplicate keeps its UUID")

        let delayed = try StoreHarness()
        try delayed.store.inject("notification delayed:2h")
        delayed.buy()
        #expect(delayed.notificationNames == ["SUBSCRIBED/INITIAL_BUY"])
        let delivered = delayed.timeline.entries.first { $0.text.hasPrefix("notification SUBSCRIBED") }
        #expect(delivered?.time == SimInstant.worldStart + .hours(2))

        let reordered = try StoreHarness()
        try reordered.store.inject("notification reordered")
        reordered.buy()
        #expect(reordered.notifications.isEmpty)
        let original = try #require(reordered.original)
        try reordered.store.setAutoRenew(false, originalTransactionId: original)
        reordered.scheduler.runUntilIdle()
        #expect(
            reordered.notificationNames == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "SUBSCRIBED/INITIAL_BUY"])
        #expect(reordered.timeline.entries.filter { $0.text.hasPrefix("fault: notification") }.count == 1)
    }

    @Test func chanceFaultsFollowTheSeed() throws {
        func run(seed: UInt64) throws -> [TransactionState] {
            let harness = try StoreHarness(seed: seed)
            try harness.store.inject("payment error chance 0.5")
            for _ in 0..<12 { harness.buy() }
            return harness.states
        }
        #expect(try run(seed: 7) == run(seed: 7))
        #expect(try run(seed: 7).contains(.failed))
        #expect(try run(seed: 7).contains(.purchased))
    }
}
