import SimKernel
import StoreSim
import Testing

@Suite struct StoreLifecycleTests {
    @Test func aMonthlySubscriptionRenewsAtEachPeriodEndAsNewChargesOfOneSubscription() throws {
        let harness = try StoreHarness()
        harness.buy()
        harness.scheduler.run(until: SimInstant.worldStart + .days(95))
        #expect(harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_RENEW", "DID_RENEW"])
        #expect(harness.charges == 4)
        let infos = harness.notifications.compactMap(harness.transactionInfo)
        #expect(Set(infos.map(\.originalTransactionId)).count == 1)
        #expect(Set(infos.map(\.transactionId)).count == 4)
        #expect(infos.last?.transactionReason == "RENEWAL")
        // The receipt on the phone is from the purchase day; verifyReceipt still answers the latest expiry.
        let latest = harness.verifiedTransactions().compactMap(\.expiresDate).max()
        #expect(latest == CalendarPeriod(unit: .month, value: 4).added(to: .worldStart))
        let original = try #require(harness.original)
        let status = try #require(harness.store.subscriptionStatuses(originalTransactionId: original))
        #expect(status.data.map(\.subscriptionGroupIdentifier) == ["premium"])
        #expect(status.data.first?.lastTransactions.map(\.status) == [1])
    }

    @Test func turningAutoRenewOffExpiresAtThePeriodEnd() throws {
        let harness = try StoreHarness()
        harness.buy()
        let original = try #require(harness.original)
        harness.advance(days: 10)
        try harness.store.setAutoRenew(false, originalTransactionId: original)
        harness.scheduler.run(until: SimInstant.worldStart + .days(90))
        #expect(
            harness.notificationNames == [
                "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
            ])
        #expect(harness.charges == 1)
        #expect(harness.store.subscription(originalTransactionId: original)?.state == .expired)
        #expect(harness.renewalInfo(harness.notifications[2])?.expirationIntent == 1)
    }

    @Test(arguments: [false, true])
    func aBillingIssueEntersRetryAndRecovers(grace: Bool) throws {
        let harness = try StoreHarness()
        harness.store.billingGracePeriodEnabled = grace
        harness.buy()
        let original = try #require(harness.original)
        try harness.store.setBillingIssue(true, appleId: harness.appleId)
        harness.advance(days: 32)
        let failed = try #require(harness.notifications.last)
        #expect(failed.notificationType == .didFailToRenew)
        #expect(failed.subtype == (grace ? .gracePeriod : nil))
        #expect(failed.data.status == (grace ? 4 : 3))
        #expect(harness.renewalInfo(failed)?.isInBillingRetryPeriod == true)
        try harness.store.setBillingIssue(false, appleId: harness.appleId)
        harness.scheduler.runUntilIdle()
        #expect(harness.notificationNames.last == "DID_RENEW/BILLING_RECOVERY")
        #expect(harness.store.subscription(originalTransactionId: original)?.state == .active)
        #expect(harness.charges == 2)
    }

    @Test(arguments: [
        (false, ["SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW", "EXPIRED/BILLING_RETRY"]),
        (
            true,
            [
                "SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
                "EXPIRED/BILLING_RETRY",
            ]
        ),
    ])
    func anUnresolvedBillingIssueEndsTheSubscription(grace: Bool, expected: [String]) throws {
        let harness = try StoreHarness()
        harness.store.billingGracePeriodEnabled = grace
        harness.store.billingRetryOnRenewal = true
        harness.buy()
        harness.scheduler.run(until: SimInstant.worldStart + .days(120))
        #expect(harness.notificationNames == expected)
        #expect(harness.charges == 1)
    }

    @Test func aRefundRevokesAtOnceAndVerifyReceiptSaysSo() throws {
        let harness = try StoreHarness()
        harness.buy()
        let transaction = try #require(harness.transactions.last?.transactionIdentifier)
        harness.advance(days: 3)
        #expect(try harness.store.refund(transactionId: transaction, reason: 1))
        harness.scheduler.run(until: SimInstant.worldStart + .days(60))
        #expect(harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "REFUND"])
        let info = try #require(harness.transactionInfo(harness.notifications[1]))
        #expect(info.revocationDate == (SimInstant.worldStart + .days(3)).milliseconds)
        #expect(info.revocationReason == 1)
        #expect(harness.verifiedTransactions().first?.revocationDate == SimInstant.worldStart + .days(3))
        let status = harness.store.subscriptionStatuses(originalTransactionId: transaction)
        #expect(status?.data.first?.lastTransactions.first?.status == 5)
    }

    /// Apple revokes only a family member's share: asked to revoke an Apple ID's own purchase, it refunds it, so
    /// access is never taken with the money kept (a member's REVOKE is `FamilySharingTests`').
    @Test func anOwnPurchaseAskedToBeRevokedIsRefunded() throws {
        let harness = try StoreHarness()
        harness.buy()
        let transaction = try #require(harness.transactions.last?.transactionIdentifier)
        #expect(try harness.store.revokeFamilySharing(transactionId: transaction))
        harness.scheduler.runUntilIdle()
        #expect(harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "REFUND"])
        #expect(harness.transactionInfo(harness.notifications[1])?.inAppOwnershipType == "PURCHASED")
    }

    @Test(arguments: [
        (true, ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "DID_RENEW"]),
        (
            false,
            [
                "SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
                "EXPIRED/PRICE_INCREASE",
            ]
        ),
    ])
    func aPriceIncreaseNeedsConsent(consent: Bool, expected: [String]) throws {
        let harness = try StoreHarness()
        harness.buy()
        let original = try #require(harness.original)
        try harness.store.requestPriceIncreaseConsent(productIdentifier: StoreHarness.monthly)
        harness.scheduler.runUntilIdle()
        try harness.store.answerPriceIncrease(consent: consent, originalTransactionId: original)
        harness.scheduler.run(until: SimInstant.worldStart + .days(40))
        #expect(harness.notificationNames == expected)
    }

    @Test func noAnswerToAPriceIncreaseExpiresTheSubscription() throws {
        let harness = try StoreHarness()
        harness.buy()
        try harness.store.requestPriceIncreaseConsent(productIdentifier: StoreHarness.monthly)
        harness.scheduler.run(until: SimInstant.worldStart + .days(40))
        #expect(
            harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "EXPIRED/PRICE_INCREASE"])
    }

    @Test func anUpgradeTakesEffectAtOnceInANewPeriod() throws {
        let harness = try StoreHarness(store: try StoreHarness.leveledStore())
        harness.buy("silver.monthly")
        harness.advance(days: 10)
        harness.buy("gold.monthly")
        #expect(harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE"])
        #expect(harness.charges == 2)
        let info = try #require(harness.transactionInfo(harness.notifications[1]))
        #expect(info.productId == "gold.monthly")
        #expect(info.purchaseDate == (SimInstant.worldStart + .days(10)).milliseconds)
        #expect(info.originalTransactionId == harness.transactionInfo(harness.notifications[0])?.originalTransactionId)
    }

    @Test func aDowngradeWaitsForTheNextRenewal() throws {
        let harness = try StoreHarness(store: try StoreHarness.leveledStore())
        harness.buy("gold.monthly")
        harness.advance(days: 10)
        harness.buy("silver.monthly")
        #expect(harness.charges == 1)
        harness.scheduler.run(until: SimInstant.worldStart + .days(35))
        #expect(
            harness.notificationNames == ["SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_RENEW"])
        #expect(harness.transactionInfo(harness.notifications[2])?.productId == "silver.monthly")
    }

    @Test func resubscribingAfterExpiryIsAResubscribe() throws {
        let harness = try StoreHarness()
        harness.buy()
        try harness.store.setAutoRenew(false, originalTransactionId: #require(harness.original))
        harness.scheduler.run(until: SimInstant.worldStart + .days(40))
        harness.buy()
        #expect(harness.notificationNames.last == "SUBSCRIBED/RESUBSCRIBE")
        #expect(harness.charges == 2)
    }

    @Test func theSameSeedGivesTheSameNotificationStream() throws {
        func stream(seed: UInt64) throws -> [NotificationPayload] {
            let harness = try StoreHarness(seed: seed, latency: .flaky)
            harness.buy(StoreHarness.yearly)
            try harness.store.setBillingIssue(true, appleId: harness.appleId)
            harness.scheduler.run(until: SimInstant.worldStart + .days(20))
            try harness.store.setBillingIssue(false, appleId: harness.appleId)
            harness.scheduler.run(until: SimInstant.worldStart + .days(800))
            return harness.notifications
        }
        // ES256 signatures differ run to run (libcrypto draws ECDSA's nonce); everything they sign must not.
        func signedContent(_ payload: NotificationPayload) -> NotificationPayload {
            func unsigned(_ jws: String?) -> String? {
                jws.map { $0.split(separator: ".").prefix(2).joined(separator: ".") }
            }
            var payload = payload
            payload.data.signedTransactionInfo = unsigned(payload.data.signedTransactionInfo)
            payload.data.signedRenewalInfo = unsigned(payload.data.signedRenewalInfo)
            return payload
        }
        let first = try stream(seed: 42)
        #expect(first.count > 3)
        #expect(try stream(seed: 42).map(signedContent) == first.map(signedContent))
        #expect(try stream(seed: 43).map(\.notificationUUID) != first.map(\.notificationUUID))
    }
}

@Suite struct StoreIntroductoryOfferTests {
    @Test func aNewSubscriberGetsTheFreeTrialAndSeesItOnTheSheet() throws {
        let harness = try StoreHarness()
        harness.buy(StoreHarness.yearly)
        #expect(harness.sheets.first?.terms.hasPrefix("Free for 1 week, then $39.99 per year.") == true)
        let records = harness.store.transactions(appleId: harness.appleId)
        #expect(records.first?.offerType == 1)
        #expect(records.first?.expiresDate == SimInstant.worldStart + .days(7))
        // After the trial the first paid year starts.
        harness.scheduler.run(until: SimInstant.worldStart + .days(8))
        #expect(harness.store.transactions(appleId: harness.appleId).last?.offerType == nil)
    }

    @Test func anyPastIntroInTheGroupEndsEligibility() throws {
        let harness = try StoreHarness()
        harness.buy(StoreHarness.yearly)
        let original = try #require(harness.original)
        try harness.store.setAutoRenew(false, originalTransactionId: original)
        harness.scheduler.run(until: SimInstant.worldStart + .days(30))
        #expect(harness.store.subscription(originalTransactionId: original)?.state == .expired)
        harness.buy(StoreHarness.yearly)
        #expect(harness.sheets.last?.terms.hasPrefix("$39.99 per year.") == true)
        #expect(harness.store.transactions(appleId: harness.appleId).last?.offerType == nil)
    }

    @Test func anActiveSubscriberInTheGroupIsNotEligible() throws {
        let harness = try StoreHarness()
        harness.buy(StoreHarness.monthly)
        let yearly = try #require(
            harness.store.catalog.products(
                for: [StoreHarness.yearly], storefront: harness.store.storefront, locale: "en_US"
            ).products.first)
        #expect(!harness.store.isEligibleForIntroductoryOffer(yearly, appleId: harness.appleId))
        #expect(harness.store.isEligibleForIntroductoryOffer(yearly, appleId: "new@icloud.test"))
    }
}
