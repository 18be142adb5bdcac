import FoundationEssentials
import StoreSim
import WhiteLabel

/// The reader's plan changes and App Store Connect's price increases, as Xcode's Transaction Manager
/// and the "Manage my subscription" sheet make them. The store applies Apple's timing; the backend
/// hears of each from a server notification, so levels change only by its word.
extension World {
    /// The reader's entitled subscription in the group of `productIdentifier`, if any.
    func runningSubscription(inGroupOf productIdentifier: String) -> SubscriptionRecord? {
        guard let group = store.catalog.spec(for: productIdentifier)?.subscriptionGroup else { return nil }
        return store.subscriptions(appleId: appleId).first { $0.groupId == group && $0.state.isEntitled }
    }

    /// What moving the reader's running subscription to `productIdentifier` would be; nil when the
    /// reader has no running subscription in its group or it is the plan they already have.
    public func planChange(to productIdentifier: String) -> PlanChange? {
        guard let running = runningSubscription(inGroupOf: productIdentifier),
            running.productId != productIdentifier
        else { return nil }
        return store.planChange(from: running.productId, to: productIdentifier)
    }

    /// The reader switches plan in "Manage my subscription": the change Apple made, or nil (and a line
    /// on the timeline) when there was nothing to change.
    @discardableResult
    public func changePlan(to productIdentifier: String) -> PlanChange? {
        guard let running = runningSubscription(inGroupOf: productIdentifier), planChange(to: productIdentifier) != nil
        else {
            timeline.log(.control, "change plan to \(productIdentifier): no other running plan in its group")
            return nil
        }
        timeline.log(.control, "change plan \(running.productId) → \(productIdentifier)")
        let original = running.originalTransactionId
        return attempt("change \(original) to \(productIdentifier)") {
            try store.changePlan(
                originalTransactionId: original, to: productIdentifier, deviceId: Self.deviceId(deviceName, appleId))
        } ?? nil
    }

    /// Why `price` is no price in the storefront's currency (1200.5 in the yen), or nil.
    public func minorUnitsRefusal(_ price: Decimal) -> String? {
        AppStore.minorUnitsRefusal(price, in: store.storefront)
    }

    /// App Store Connect raises the price of `productIdentifier` to `price` with consent; false (and a
    /// line on the timeline) when the store refused it.
    @discardableResult
    public func raisePrice(of productIdentifier: String, to price: Decimal) -> Bool {
        timeline.log(.control, "price increase for \(productIdentifier) to \(price)")
        return attempt("raise the price of \(productIdentifier)") {
            try store.raisePrice(productIdentifier: productIdentifier, to: price)
        } ?? false
    }
}

/// What the fuzzer's Transaction Manager draws from, read without reaching into the store.
extension World {
    /// The phone's Apple ID's subscriptions Apple entitles now.
    public var entitledSubscriptions: [SubscriptionRecord] {
        store.subscriptions(appleId: appleId).filter { $0.state.isEntitled }
    }

    /// Every product the App Store sells in this world.
    public var productSpecs: [StoreProductSpec] { store.catalog.specs }

    /// A product's price now in the reader's storefront, a raise included.
    public func currentPrice(_ productIdentifier: String) -> Decimal? { store.currentPrice(productIdentifier) }

    /// The ids of the phone's Apple ID's transactions, oldest first.
    public var transactionIds: [String] { store.transactions(appleId: appleId).map(\.transactionIdentifier) }
}
