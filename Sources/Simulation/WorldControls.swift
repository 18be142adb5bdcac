import AppFlow
import FoundationEssentials
import SimKernel
import StoreSim

/// What the control pane, scenarios and tests do to the world from outside the phone: the parent,
/// Apple's support, the reader's Settings app, and time. Each is written on the timeline.
extension World {
    /// The app receipt disappears from the phone (as after a reinstall): the app must ask Apple for a fresh one.
    public func removeReceipt() {
        device.storage.save(nil)
        timeline.log(.control, "receipt removed from \(device.name)")
    }

    /// Turns payments on or off on the phone (Screen Time restrictions).
    public var canMakePayments: Bool {
        get { device.queue.canMakePayments }
        set {
            device.queue.canMakePayments = newValue
            timeline.log(.control, "payments \(newValue ? "allowed" : "restricted") on \(device.name)")
            // The app reads `canMakePayments` again: "Purchases are off" comes off (session 28).
            if newValue { device.dispatch(.paymentsAllowed) }
        }
    }

    /// Ask to Buy for the reader's Apple ID: payments wait for a parent.
    public var askToBuy: Bool {
        get { store.needsAskToBuy(options.appleId) }
        set {
            store.setAskToBuy(newValue, appleId: options.appleId)
            timeline.log(.control, "Ask to Buy \(newValue ? "on" : "off")")
        }
    }

    /// The parent approves the oldest waiting request; false when none waits.
    @discardableResult
    public func approveAskToBuy() -> Bool {
        // Looked for first: with none waiting, the timeline says only that, not an approval that never happened.
        guard !store.pendingAskToBuy.isEmpty else { return noRequestWaits() }
        timeline.log(.control, "parent approves")
        return store.approveAskToBuy()
    }

    @discardableResult
    public func declineAskToBuy() -> Bool {
        guard !store.pendingAskToBuy.isEmpty else { return noRequestWaits() }
        timeline.log(.control, "parent declines")
        return store.declineAskToBuy()
    }

    private func noRequestWaits() -> Bool {
        timeline.log(.control, "no request waits for a parent" + (lapseNote().map { ": \($0)" } ?? ""))
        return false
    }

    /// The reader does outside the app what the oldest interrupted purchase asked: StoreKit reported it
    /// failed, and now a new purchased transaction reaches the observer. False when none waits.
    @discardableResult
    public func resolveInterruptedPurchase() -> Bool {
        guard !store.interruptedPurchases.isEmpty else {
            timeline.log(.control, "no interrupted purchase waits")
            return false
        }
        timeline.log(.control, "interrupted purchase resolved outside the app")
        return store.resolveInterruptedPurchase()
    }

    /// Apple refunds the reader's latest transaction; false when there is none to refund.
    @discardableResult
    public func refundLatest() -> Bool {
        guard let latest = store.latestUnrevokedTransaction(appleId: options.appleId) else {
            timeline.log(.control, "refund: no transaction to refund")
            return false
        }
        timeline.log(.control, "refund \(latest.transactionIdentifier)")
        return attempt("refund \(latest.transactionIdentifier)") {
            try store.refund(transactionId: latest.transactionIdentifier)
        } ?? false
    }

    /// The reader's payment method fails (true) or works again (false); `grace` turns Apple's billing grace period on
    /// or off. Unsaid, it is what the `.storekit` file or the config's store settings set (the step turned a grace
    /// period on over a file's `_billingGracePeriodEnabled: false`, session 30, h11), and on where neither says.
    public func setBillingIssue(_ failing: Bool, grace: Bool? = nil) {
        let grace = grace ?? defaultGracePeriod
        store.billingGracePeriodEnabled = grace
        timeline.log(.control, failing ? "billing issue\(grace ? " with grace period" : "")" : "billing fixed")
        _ = attempt("set the billing issue") { try store.setBillingIssue(failing, appleId: options.appleId) }
    }

    /// The grace period `store billing-issue` gives: the file's or config's, on where neither says.
    public var defaultGracePeriod: Bool { configuredGracePeriod ?? true }

    /// Whether a renewal that fails now enters Apple's billing grace period (the control pane's "Billing issue").
    public var billingGracePeriod: Bool { store.billingGracePeriodEnabled }

    /// The billing grace period the `.storekit` file sets (it wins, as `applyStoreKitSettings` applies it), else the
    /// config's store settings; nil when neither says.
    private var configuredGracePeriod: Bool? {
        if let settings = config.store.storekitSettings { return settings.billingGracePeriodEnabled }
        return config.store.settings?.billingGracePeriod
    }

    /// App Store Connect raises the price of every plan the reader subscribes to, with consent required.
    /// Lifts the App Store's planned faults for `target` (the control pane's "Next purchase: ok").
    public func clearStoreFaults(_ target: StoreFaultTarget) {
        timeline.log(.control, "planned \(target.rawValue) faults cleared")
        store.clearFaults(target)
    }

    /// "Price increase": App Store Connect raises the price of every product the Apple ID was charged for, by about a
    /// fifth (to the next .99, or the next whole price where prices have no cents), and Apple asks its subscribers: the
    /// consent sheet reads old → new, and an agreed renewal charges the new price.
    public func raisePrices() {
        let products = Set(store.transactions(appleId: options.appleId).map(\.productIdentifier))
        // Looked for first, as a refund with nothing to refund says so: "price increase for " named nothing (hand-05).
        guard !products.isEmpty else {
            timeline.log(.control, "price increase: no subscription bought on \(options.appleId) to raise")
            return
        }
        timeline.log(.control, "price increase for \(products.sorted().joined(separator: ", "))")
        for product in products.sorted() {
            guard let price = store.currentPrice(product) else {
                _ = attempt("ask consent to a price increase of \(product)") {
                    try store.requestPriceIncreaseConsent(productIdentifier: product)
                }
                continue
            }
            _ = attempt("raise the price of \(product)") {
                try store.raisePrice(productIdentifier: product, to: Self.raised(price))
            }
        }
    }

    /// About a fifth more: 4.99 → 5.99, 39.99 → 47.99, 600 → 720. Worked through the price's text: Foundation's
    /// `NSDecimalRound` would load Foundation and ICU into every process (10 MiB more for `fuzz`).
    public static func raised(_ price: Decimal) -> Decimal {
        guard let value = Double(price.description), value > 0 else { return price }
        let whole = value.rounded() == value
        let up = Int((value * 1.2 - 1e-9).rounded(.up))
        if whole { return Decimal(up) }
        let cents = up * 100 - 1
        let fraction = cents % 100
        return Decimal(string: "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)") ?? price
    }

    /// What the App Store does with the next purchase (its planned `payment` fault); a new choice
    /// replaces the old one, so one outcome is planned at a time.
    public var nextPurchase: NextPurchase {
        get { store.plannedFaults.first { $0.target == "payment" }.map(NextPurchase.init) ?? .ok }
        set {
            if store.plannedFaults.contains(where: { $0.target == "payment" }) { store.clearFaults(.payment) }
            guard let rule = newValue.fault else { return }
            _ = attempt("plan the next purchase as \(newValue.rawValue)") {
                try store.inject(FaultPlan(rules: [rule]))
            }
        }
    }

    /// Whether the reader's payment method fails (`setBillingIssue`).
    public var hasBillingIssue: Bool { store.hasBillingIssue(appleId: options.appleId) }

    /// Moves the virtual clock forward, running renewals and notifications on the way. It stops at
    /// `SimInstant.latest`; false (and a line on the timeline) when the move would pass it.
    @discardableResult
    public func travel(by duration: SimDuration) -> Bool {
        guard duration <= SimInstant.latest - scheduler.now else {
            timeline.log(.control, "time travel +\(duration) refused: the clock stops at \(SimInstant.latest)")
            return false
        }
        // Where it lands, as "+1 month, to 2026-04-02" says (session 28: "+1d" said nothing of it).
        timeline.log(.control, "time travel +\(duration), to \(scheduler.now + duration)")
        scheduler.advance(by: duration)
        saveClock()
        return true
    }

    /// Moves the clock by calendar months, as renewals count them (Jan 31 + 1 month is Feb 28), and
    /// says so in months: the timeline and a recording name the same step.
    @discardableResult
    public func travel(months: Int) -> Bool {
        let now = scheduler.now
        let target = CalendarPeriod(unit: .month, value: months).added(to: now)
        guard target <= SimInstant.latest else {
            timeline.log(.control, "time travel +\(months) months refused: the clock stops at \(SimInstant.latest)")
            return false
        }
        timeline.log(.control, "time travel +\(months) month\(months == 1 ? "" : "s"), to \(target.dateDescription)")
        scheduler.advance(by: target - now)
        saveClock()
        return true
    }

    /// Moves the clock just past the reader's next renewal, if a subscription will renew. In a grace period the
    /// renewal date has passed and Apple's next move is the grace period's end: it goes there and says so (it said
    /// it went to the renewal date already past, and nothing moved: session 27).
    @discardableResult
    public func travelToNextRenewal() -> Bool {
        let now = scheduler.now
        let ahead = store.entitledSubscriptions(appleId: options.appleId).compactMap { subscription in
            let due =
                subscription.state == .gracePeriod
                ? (subscription.gracePeriodExpiresDate ?? subscription.expiresDate) : subscription.expiresDate
            return due >= now ? (due, subscription.state == .gracePeriod) : nil
        }
        guard let (next, inGrace) = ahead.min(by: { $0.0 < $1.0 }) else {
            timeline.log(.control, "time travel: no renewal ahead")
            return false
        }
        let goal = inGrace ? "the end of the grace period" : "the next renewal"
        guard next < SimInstant.latest else {
            timeline.log(.control, "time travel to \(goal) refused: the clock stops at \(SimInstant.latest)")
            return false
        }
        timeline.log(.control, "time travel to \(goal), \(next)")
        scheduler.run(until: next + .seconds(1))
        saveClock()
        return true
    }

    /// The app goes to the background and comes back: it reloads access and shows a pending price consent.
    public func returnToForeground() {
        timeline.log(.control, "app to background and back", event: device.activation)
        device.dispatch(.becameActive)
    }
}

/// Controls scenarios need beyond the control pane's: Apple ending a subscription, and who the reader is to Apple.
extension World {
    /// The Apple ID the phone on screen is signed in with: the world's (the family's purchaser), or a family
    /// member's on their own phone. The invariants read the charges of this one.
    public var appleId: String { phoneAppleIds[deviceName] ?? options.appleId }

    /// The Apple ID of the world's reader, who pays: every phone but a family member's is signed in with it.
    public var purchaserAppleId: String { options.appleId }

    /// Why request `id` of the reader's Apple ID can no longer be answered, when it lapsed; without an id, its last
    /// request's, since a parent with nothing to answer may be answering that one.
    public func lapseNote(_ id: String? = nil) -> String? { store.lapseNote(id, appleId: options.appleId) }

    /// A refusal's "actual" when no request waits for a parent.
    var noneWaits: String { lapseNote().map { "none waits: \($0)" } ?? "none waits" }

    /// Payments of the reader's Apple ID held back for a parent or an action outside the app.
    public var pendingPayments: [PendingPayment] {
        (store.pendingAskToBuy + store.interruptedPurchases).filter { $0.appleId == options.appleId }
    }

    /// Every entitled subscription ends now, as Xcode's Expire Subscription ends one (EXPIRED/VOLUNTARY); the clock
    /// does not move (it went to the last period's end, session 28). False when nothing was entitled.
    @discardableResult
    public func expireSubscriptions() -> Bool {
        let ids = Set(store.transactions(appleId: options.appleId).map(\.originalTransactionIdentifier))
        let entitled = ids.sorted().compactMap { store.subscription(originalTransactionId: $0) }
            .filter { $0.state.isEntitled }
        guard !entitled.isEmpty else {
            timeline.log(.control, "expire: no subscription to expire")
            return false
        }
        timeline.log(.control, "expire every subscription now")
        for subscription in entitled {
            let original = subscription.originalTransactionId
            _ = attempt("expire \(original)") { try store.expireNow(originalTransactionId: original) }
        }
        return true
    }

    /// Apple takes back the reader's latest transaction: REVOKE of a Family Sharing purchase, a refund of an own one;
    /// false when there is none.
    @discardableResult
    public func revokeLatest() -> Bool {
        // The phone's Apple ID's: on a family member's phone, its share (a tester's `store revoke` there refunded the
        // purchaser, session 25); elsewhere its own latest purchase.
        let share = store.familySharedTransactions(appleId: appleId).last { $0.revocationDate == nil }
        guard let latest = share ?? store.latestUnrevokedTransaction(appleId: appleId) else {
            timeline.log(.control, "revoke: no transaction to revoke")
            return false
        }
        timeline.log(.control, "revoke \(latest.transactionIdentifier)")
        let id = latest.transactionIdentifier
        return attempt("revoke \(id)") { try store.revokeFamilySharing(transactionId: id) } ?? false
    }
}
