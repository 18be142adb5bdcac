import Database
import SimKernel

/// What the reader does in "Manage subscription", what a parent or Apple's support does, and what
/// the tester does in Xcode's Transaction Manager: each changes the subscription and tells the backend.
extension AppStore {
    /// Auto-renew on or off ("Cancel subscription" in Settings): the subscription still runs to the
    /// end of the period, then expires (EXPIRED/VOLUNTARY) unless turned back on.
    public func setAutoRenew(_ enabled: Bool, originalTransactionId: String) throws(DatabaseError) {
        guard var subscription = try ledger.subscription(originalTransactionId), subscription.autoRenew != enabled,
            subscription.state != .expired, subscription.state != .revoked
        else { return }
        subscription.autoRenew = enabled
        subscription.expirationIntent = enabled ? nil : 1
        try ledger.save(subscription)
        log("auto-renew \(enabled ? "on" : "off") for \(originalTransactionId)")
        try notifyLatest(.didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled, subscription)
        // Cancelled in billing retry: no paid period is left to run out, and Apple stops retrying.
        if !enabled, subscription.state == .billingRetry { try expire(subscription, subtype: .voluntary, intent: 1) }
    }

    /// Xcode's Expire Subscription (`SKTestSession.expireSubscription`, "expire immediately"): the subscription ends now,
    /// not at its period's end (it travelled the clock there, session 28). Its latest transaction's expiry is cut to now
    /// (a period already over, in grace, keeps its own) and the backend gets EXPIRED/VOLUNTARY, expiration intent 1:
    /// the subscriber's side ended it, as a cancellation does; Xcode's own test environment posts nothing to a server.
    /// Nothing is refunded. False when it was not entitled.
    @discardableResult
    public func expireNow(originalTransactionId: String) throws(DatabaseError) -> Bool {
        guard var subscription = try ledger.subscription(originalTransactionId), subscription.state.isEntitled else {
            return false
        }
        // The cut expiry and the subscription's end in one commit, as a refund's revocation and its end are.
        var failure: DatabaseError?
        let lost = committing {
            do throws(DatabaseError) {
                let now = scheduler.now
                if let latest = try ledger.transaction(subscription.latestTransactionId),
                    let expires = latest.expiresDate, expires > now
                {
                    try ledger.cutExpiry(latest.transactionIdentifier, to: now)
                }
                subscription.expiresDate = min(subscription.expiresDate, now)
                log("expire \(originalTransactionId) now, \(now)")
                try expire(subscription, subtype: .voluntary, intent: 1)
                try expireShares(of: originalTransactionId, purchaser: subscription.appleId)
            } catch {
                failure = error
            }
        }
        if let failure = lost ?? failure { throw failure }
        return true
    }

    /// The Apple ID's payment method fails (or works again). Renewals fail while it fails; fixing it
    /// recovers every subscription in billing retry or grace with a renewal (DID_RENEW/BILLING_RECOVERY).
    /// Kept in `appstore.sqlite` with the grace period it was set with, for the next run (`AppleIdSettings`).
    public func setBillingIssue(_ failing: Bool, appleId: String) throws(DatabaseError) {
        try ledger.saveBillingIssue(failing, gracePeriod: billingGracePeriodEnabled, appleId: appleId)
        if failing {
            billingIssueAppleIds.insert(appleId)
            log("billing issue for \(appleId): renewals will fail")
            return
        }
        billingIssueAppleIds.remove(appleId)
        log("billing issue resolved for \(appleId)")
        for subscription in try ledger.subscriptions(appleId: appleId)
        where subscription.state == .billingRetry || subscription.state == .gracePeriod {
            // Cancelled during its grace: the subscriber said no to the next charge.
            guard subscription.autoRenew else { continue }
            guard let product = product(subscription.autoRenewProductId) else {
                // The plan it renews as is not sold in this storefront (the Apple ID moved while Apple retried): the
                // retried renewal charges nothing and Apple ends it as at a period's end (EXPIRED/PRODUCT_NOT_FOR_SALE).
                // It sat in retry until the retry ended, its sheet saying it renews once paid (session 40).
                try expire(subscription, subtype: .productNotForSale, intent: 4)
                continue
            }
            // Recovered in grace, the paid-through date holds; recovered later, a new period starts now and the
            // renewal date moves to the day of the recovery.
            let inGrace = subscription.state == .gracePeriod
            try renew(
                subscription, product: product, start: inGrace ? subscription.expiresDate : scheduler.now,
                subtype: .billingRecovery, startsAnniversary: !inGrace)
            if deliversRecoveries { try deliverRecovery(of: subscription.originalTransactionId, appleId: appleId) }
        }
    }

    /// A recovery reaches the observer of the Apple ID's app that runs, as StoreKit 1 delivers a renewal: the app learns
    /// other renewals when the levels' end comes (the server's `until`), but a subscription that gave no access left the
    /// phone no end to wait for, and a reader who paid again stayed locked out, shown ads and sold the plan they paid
    /// for until the app happened to ask (session 34). Within the grace period too: the levels' end was the grace's, and
    /// until then the profile said "Apple is retrying" and to update a payment method that had just paid
    /// (found-by-hand/524). Not with the app quit: its next launch asks the server. Each family member's share the
    /// recovery renewed reaches the member's running app the same way: the member stayed locked out as the purchaser
    /// had (session 35). A share renewed by it has the purchaser's dates: a recovery in grace is dated at the period's
    /// end it recovered, not now.
    private func deliverRecovery(of originalTransactionId: String, appleId: String) throws(DatabaseError) {
        guard let renewed = try ledger.subscription(originalTransactionId),
            let record = try ledger.transaction(renewed.latestTransactionId)
        else { return }
        var renewals = [(appleId, record)]
        if try ledger.mayHaveFamily(appleId) {
            for share in try ledger.familyShares(of: originalTransactionId) where share.ended == nil {
                guard let latest = try ledger.transactions(originalTransactionId: share.originalTransactionId).last,
                    latest.transactionReason == "RENEWAL", latest.purchaseDate == record.purchaseDate,
                    latest.expiresDate == record.expiresDate
                else { continue }
                renewals.append((share.memberAppleId, latest))
            }
        }
        // In the phones' order, not the dictionary's: only a running app observes, but the timeline stays the seed's.
        for (_, kept) in queues.sorted(by: { $0.key < $1.key }) {
            guard let queue = kept.queue, let (_, renewal) = renewals.first(where: { $0.0 == queue.appleId }) else {
                continue
            }
            queue.deliverRenewal(renewal)
        }
    }

    /// Apple refunds a transaction (always approved at once, as in Xcode): it is revoked from now,
    /// a subscription ends with it, and the backend gets REFUND. Without an identifier, the Apple ID's
    /// latest transaction is refunded. `reason` 0 other (e.g. accidental), 1 an issue with the app.
    /// Apple refunds what was paid, once: a transaction an upgrade replaced had its unused part refunded then, and is
    /// not refunded again (it was, in full: money back twice, session 27). A free trial's, as in Xcode's Transaction
    /// Manager, is revoked with no money moved, and said so.
    @discardableResult
    public func refund(transactionId: String, reason: Int = 0) throws(DatabaseError) -> Bool {
        if let record = try ledger.transaction(transactionId), let why = Self.notRefundable(record) {
            log("\(transactionId) \(why)")
            return false
        }
        return try revoke(transactionId, reason: reason, as: .refund)
    }

    /// Why Apple would not refund `record`, an own purchase not yet refunded; nil when it would.
    public static func notRefundable(_ record: TransactionRecord) -> String? {
        guard record.revocationDate == nil, !record.isFamilyShared else { return nil }
        guard record.isUpgraded else { return nil }
        return "was replaced by an upgrade and its unused part refunded then: nothing more to refund"
    }

    /// Family Sharing access withdrawn (the purchaser stopped sharing or left the family): the family
    /// member's access ends now and the backend gets REVOKE. Apple revokes nothing else: an Apple ID's own purchase
    /// ends early only with its money back, so there it is a refund (access gone and the money kept, session 25).
    @discardableResult
    public func revokeFamilySharing(transactionId: String) throws(DatabaseError) -> Bool {
        guard let record = try ledger.transaction(transactionId), record.isFamilyShared else {
            log("\(transactionId) is not a Family Sharing purchase: Apple takes back its own purchase by a refund")
            return try refund(transactionId: transactionId)
        }
        // The share ends with it: left live, it counted as shared and came back at the purchaser's next renewal
        // (long fuzz seed 1023).
        let revoked = try revoke(transactionId, reason: 0, as: .revoke)
        if revoked {
            try ledger.endShare(record.originalTransactionIdentifier, at: scheduler.now)
            // The member's phone hears it as when the purchaser stops sharing: its receipt, then its running app.
            shareChanged(for: record.appleId, revoked: record.productIdentifier)
        }
        return revoked
    }

    private func revoke(_ transactionId: String, reason: Int, as type: NotificationType) throws(DatabaseError) -> Bool {
        guard var record = try ledger.transaction(transactionId), record.revocationDate == nil else { return false }
        // The revocation and its subscription's end in one commit: a kill between the two left a revoked
        // latest transaction under a subscription still active, which a restore then read as ended while
        // the store counted it paid (`CrashSafetyTests`).
        var failure: DatabaseError?
        let lost = committing {
            do throws(DatabaseError) {
                try ledger.revoke(transactionId, at: scheduler.now, reason: reason)
                record.revocationDate = scheduler.now
                record.revocationReason = reason
                var subscription = try ledger.subscription(record.originalTransactionIdentifier)
                if var revoked = subscription, revoked.latestTransactionId == transactionId {
                    revoked.state = .revoked
                    revoked.autoRenew = false
                    try ledger.save(revoked)
                    scheduleNext(revoked)
                    subscription = revoked
                }
                // A free trial's refund takes access back and moves no money: said, not "refunded" as if paid.
                let free = type == .refund && record.price == 0 ? " (it cost nothing: no money moved)" : ""
                log("\(type == .refund ? "refunded" : "family sharing revoked"): transaction \(transactionId)\(free)")
                notify(type, nil, record, subscription, ownership: type == .revoke ? FamilySharing.familyShared : nil)
            } catch {
                failure = error
            }
        }
        if let failure = lost ?? failure { throw failure }
        return true
    }

    /// App Store Connect raises the price of `productIdentifier` with consent required: every
    /// subscriber is asked (PRICE_INCREASE/PENDING) and, without consent by the period end, expires.
    public func requestPriceIncreaseConsent(productIdentifier: String) throws(DatabaseError) {
        // Xcode's "Request Price Increase Consent" is the raise as far as the subscriber can tell: it asks consent
        // with or without a new price set in App Store Connect.
        log(
            "consent to a raised price of \(productIdentifier) requested",
            event: .priceRaised(
                productId: productIdentifier, storefront: storefront.countryCode,
                unraised: catalog.spec(for: productIdentifier).flatMap {
                    Catalog.product($0, storefront: storefront, locale: locale)
                }.map { StorePrice($0.price, in: storefront.countryCode) }))
        // A subscription in billing retry too: Apple may still renew it, and only at a price agreed to.
        // Not of a subscriber who agreed here to the price it sells at now (Xcode's request, with no new price, asked
        // again one who had, and the subscription ended for the price it agreed to, long fuzz seed 967).
        let price = currentPrice(productIdentifier)
        for subscription in try ledger.allSubscriptions()
        where subscription.autoRenewProductId == productIdentifier && subscription.isRunning
            && !(price.map { consented(subscription, to: $0) } ?? false)
        {
            var asked = subscription
            asked.priceIncreaseStatus = 0
            try ledger.save(asked)
            log("price increase consent requested for \(subscription.originalTransactionId)")
            try notifyLatest(.priceIncrease, .pending, asked)
        }
    }

    /// The subscriber answers the price increase: consent renews at the new price (PRICE_INCREASE/
    /// ACCEPTED); declining turns auto-renew off, so the subscription expires (EXPIRED/PRICE_INCREASE).
    /// `shown`: the price the consent sheet showed, the one agreed to; nil: the price now. `plan`: the product the sheet
    /// asked of; nil: the one it renews as.
    public func answerPriceIncrease(
        consent: Bool, originalTransactionId: String, shown: StorePrice? = nil, plan: String? = nil
    ) throws(DatabaseError) {
        guard var subscription = try ledger.subscription(originalTransactionId),
            subscription.priceIncreaseStatus == 0, subscription.isRunning
        else {
            return log("price increase answer for \(originalTransactionId): nothing waits for consent any more")
        }
        if consent, let plan, plan != subscription.autoRenewProductId {
            // Agreed to the raise of a plan it no longer renews as (a parent approved a switch while the sheet was up):
            // nothing agreed of the plan it renews as, whose raise still waits and is asked. Kept as the next plan's,
            // the yearly price agreed on the sheet let the monthly plan's raise pass as agreed (long fuzz seed 1265).
            return log(
                "price increase agreed to for \(plan), but \(originalTransactionId) renews as "
                    + "\(subscription.autoRenewProductId) now: asked again")
        }
        let now = currentPrice(subscription.autoRenewProductId).map { StorePrice($0, in: storefront.countryCode) }
        if consent, let shown, shown != now {
            // Agreed to the price the sheet showed, not to one raised, or sold elsewhere, since it was drawn (Agree on
            // "$4.99 → $5.99" renewed at $6.99, raised while the sheet was up, session 26): kept for where it was
            // given; the newer price still waits, and is asked.
            recordConsent(subscription, at: shown)
            log(
                "price increase agreed to at \(shown) for \(originalTransactionId), but it is "
                    + "\(now.map(\.description) ?? "not sold here") now: asked again",
                event: .renewalProductChosen(
                    originalTransactionId: originalTransactionId, productId: subscription.autoRenewProductId,
                    price: shown))
            return
        }
        if consent {
            subscription.priceIncreaseStatus = 1
            try ledger.save(subscription)
            recordConsent(subscription)
            log(
                "price increase accepted for \(originalTransactionId)",
                event: currentPrice(subscription.autoRenewProductId).map {
                    .renewalProductChosen(
                        originalTransactionId: originalTransactionId, productId: subscription.autoRenewProductId,
                        price: StorePrice($0, in: storefront.countryCode))
                })
            try notifyLatest(.priceIncrease, .accepted, subscription)
        } else {
            subscription.autoRenew = false
            subscription.expirationIntent = 3
            try ledger.save(subscription)
            log("price increase declined for \(originalTransactionId)")
            try notifyLatest(.didChangeRenewalStatus, .autoRenewDisabled, subscription)
        }
    }

    /// Whether the store recorded the transaction `identifier`; nil when its ledger cannot be read.
    public func knowsTransaction(_ identifier: String) -> Bool? {
        logged("read transaction \(identifier)") { try ledger.transaction(identifier) != nil }
    }

    /// The App Store's record of one subscription, by its original transaction id.
    public func subscription(originalTransactionId: String) -> SubscriptionRecord? {
        logged("read subscription \(originalTransactionId)") { try ledger.subscription(originalTransactionId) } ?? nil
    }

    /// Every transaction charged to `appleId`, renewals and refunds included; what the family shares with
    /// it is not charged to it (`familySharedTransactions`).
    public func transactions(appleId: String) -> [TransactionRecord] {
        logged("read the transactions of \(appleId)") {
            try ledger.transactions(appleId: appleId).filter { !$0.isFamilyShared }
        } ?? []
    }

    /// Whether an earlier period of `record`'s subscription cost the Apple ID money: the first charge after a free
    /// trial is not charged "again" (session 44's walk, hand-04). A record kept before prices were counts as paid.
    public func paidBefore(_ record: TransactionRecord) -> Bool {
        let earlier =
            logged("read the transactions of \(record.originalTransactionIdentifier)") {
                try ledger.transactions(originalTransactionId: record.originalTransactionIdentifier)
            } ?? []
        return earlier.contains { other in
            other.transactionIdentifier != record.transactionIdentifier && other.purchaseDate <= record.purchaseDate
                && !other.isFamilyShared && other.price != 0
        }
    }

    /// `transactions(appleId:)` of each of `appleIds` in turn. The answer is kept while the ledger's lists are
    /// unchanged (`ChargedKept`); one missing a list it could not read is not kept, so the next call tries again.
    public func chargedTransactions(of appleIds: [String]) -> [TransactionRecord] {
        if let kept = ledger.keptCharged(appleIds) { return kept }
        var complete = true
        let records = appleIds.flatMap { appleId -> [TransactionRecord] in
            let read = logged("read the transactions of \(appleId)") {
                try ledger.transactions(appleId: appleId).filter { !$0.isFamilyShared }
            }
            if read == nil { complete = false }
            return read ?? []
        }
        if complete { ledger.keepCharged(records, of: appleIds) }
        return records
    }
}
