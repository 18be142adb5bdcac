import SimKernel

extension AppStore {
    /// The faults still planned, in the order they were added: the control pane shows what the next call will do.
    public var plannedFaults: [FaultRule] { faultPlan.rules }

    /// Whether the Apple ID's payment method currently fails.
    public func hasBillingIssue(appleId: String) -> Bool {
        billingIssueAppleIds.contains(appleId)
    }
}

extension AppStore {
    /// Every subscription the store keeps for `appleId`, by original transaction id; empty (and a line
    /// on the timeline) when its ledger cannot be read.
    public func subscriptions(appleId: String) -> [SubscriptionRecord] {
        logged("read the subscriptions of \(appleId)") { try ledger.subscriptions(appleId: appleId) } ?? []
    }
}

extension AppStore {
    /// The subscriptions `appleId` bought that are active or in grace (`SubscriptionState.isEntitled`), by
    /// original transaction id: read by index, so a long history costs nothing; empty (and a line on the
    /// timeline) when the ledger cannot be read. A family member's share is not among them.
    public func entitledSubscriptions(appleId: String) -> [SubscriptionRecord] {
        logged("read the entitled subscriptions of \(appleId)") { try ledger.entitledSubscriptions(appleId: appleId) }
            ?? []
    }
}

extension AppStore {
    /// The newest transaction charged to `appleId` that is not refunded or revoked, read from the newest
    /// (nothing older is copied); nil when there is none, or (and a line on the timeline) when the
    /// ledger cannot be read.
    public func latestUnrevokedTransaction(appleId: String) -> TransactionRecord? {
        logged("read the transactions of \(appleId)") {
            try ledger.transactions(appleId: appleId).last { !$0.isFamilyShared && $0.revocationDate == nil }
        } ?? nil
    }
}

extension AppStore {
    /// The latest instant the store's records hold, of any Apple ID, a payment confirmed and held included: where a
    /// reopened world's clock carries on from at the earliest. Nil when there is none, or (and a line on the timeline)
    /// when the records cannot be read.
    public func latestRecorded() -> SimInstant? {
        logged("read the store's latest record") { try ledger.latestRecorded() } ?? nil
    }
}

extension AppStore {
    /// A version of the store's records: two equal readings, nothing written in between (nil: unknown,
    /// read again). The invariant monitor keeps what it reads after every step while this holds.
    public var recordsVersion: UInt32? { ledger.database.ownDataVersion() }
}

extension AppStore {
    /// Whether `subscription`'s period now is a free trial that ends in a charge: its latest transaction an offer's
    /// period that cost nothing, with no offer's period due next. False (and a line on the timeline) when the ledger
    /// cannot be read: the sheet then says what it says of any renewal.
    public func inFreeTrial(_ subscription: SubscriptionRecord) -> Bool {
        guard nextOfferType(subscription) == nil,
            let latest = logged(
                "read the latest transaction of \(subscription.originalTransactionId)",
                { try ledger.transaction(subscription.latestTransactionId) }) ?? nil
        else { return false }
        return latest.isTrialPeriod
    }
}
