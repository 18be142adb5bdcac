import Database
import FoundationEssentials
import SimKernel

/// A change of product within a subscription group, as Apple classifies it from the group's levels
/// (level 1 is the highest service) and the two durations.
public enum PlanChange: String, Sendable, CaseIterable {
    /// A higher level: takes effect now; the rest of the old period is refunded pro rata.
    case upgrade
    /// A lower level: takes effect at the next renewal.
    case downgrade
    /// The same level: now when the durations match, else at the next renewal.
    case crossgrade

    /// Whether Apple applies the change at once rather than at the next renewal.
    public static func isImmediate(_ change: PlanChange, samePeriod: Bool) -> Bool {
        switch change {
        case .upgrade: true
        case .downgrade: false
        case .crossgrade: samePeriod
        }
    }
}

extension AppStore {
    /// What moving from `current` to `target` is within their group; nil when either is unknown or
    /// they are not in the same group.
    public func planChange(from current: String, to target: String) -> PlanChange? {
        guard let old = catalog.spec(for: current), let new = catalog.spec(for: target),
            old.subscriptionGroup != nil, old.subscriptionGroup == new.subscriptionGroup
        else { return nil }
        switch (new.groupLevel, old.groupLevel) {
        case (let newLevel?, let oldLevel?) where newLevel < oldLevel: return .upgrade
        case (let newLevel?, let oldLevel?) where newLevel > oldLevel: return .downgrade
        default: return .crossgrade
        }
    }

    /// Whether a change from the plan `current` to `product` takes effect now, and so charges now: an upgrade, or a
    /// crossgrade of the same length.
    func changesNow(from current: String, to product: Product) -> Bool {
        let kind = planChange(from: current, to: product.productIdentifier) ?? .crossgrade
        return PlanChange.isImmediate(
            kind, samePeriod: product.subscriptionPeriod == self.product(current)?.subscriptionPeriod)
    }

    /// "Manage my subscription" on Apple's sheet, or the Transaction Manager: the subscription of
    /// `originalTransactionId` changes to `productIdentifier`, with Apple's timing (`change`). The
    /// class of change, or nil when nothing changed (an unknown product, another group, a lapsed plan).
    /// A change that takes effect now charges on `deviceId` (the phone whose sheet made it) and reaches
    /// that phone's observer as a purchased transaction, as StoreKit delivers a change made in Settings.
    @discardableResult
    public func changePlan(originalTransactionId: String, to productIdentifier: String, deviceId: String)
        throws(DatabaseError) -> PlanChange?
    {
        guard let subscription = try ledger.subscription(originalTransactionId), subscription.state.isEntitled,
            let product = product(productIdentifier),
            let kind = planChange(from: subscription.productId, to: productIdentifier)
        else {
            log("plan change to \(productIdentifier) refused for \(originalTransactionId)")
            return nil
        }
        let record = try change(subscription, to: product, appAccountToken: nil, deviceId: deviceId)
        if record.transactionIdentifier != subscription.latestTransactionId, let queue = queues[deviceId]?.queue {
            // The phone's receipt lists the new transaction before its observer hears of it, as after any
            // charge: the app sends that receipt, and an older one would show the backend the old plan.
            if let issued = issueReceipt(deviceId: deviceId, appleId: queue.appleId) { queue.receipt.save(issued) }
            queue.paymentCount += 1
            queue.deliver(queue.purchased(queue.paymentCount, record), after: delay(.productsRequest))
        }
        return kind
    }

    /// The part of what `record` charged that its unused time is worth at `now`: what Apple refunds on an upgrade.
    /// An offer's period refunds what the offer charged (a paid introductory, promotional or win-back price; nothing
    /// for a free trial), not the plan's price. A record kept before prices were falls back on `product`'s.
    func proratedRefund(_ record: TransactionRecord, product: Product?) -> Decimal {
        guard let paid = record.price ?? (record.offerType == nil ? product?.price : nil),
            let expires = record.expiresDate, expires > scheduler.now, expires > record.purchaseDate
        else { return 0 }
        let unused = Decimal((expires - scheduler.now).milliseconds)
        let whole = Decimal((expires - record.purchaseDate).milliseconds)
        return (paid * unused / whole).roundedPlain(places: 2)
    }
}
