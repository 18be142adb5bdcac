import SimKernel

/// Apple's "Manage subscriptions" sheet (StoreKit's `showManageSubscriptions`): the subscriptions this Apple ID
/// pays for in the app, as the App Store holds them, whichever account the app gave them to. A phone whose Apple
/// ID did not buy the reader's subscription has nothing of it here to cancel or change.
public struct ManageSheet: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public let originalTransactionId: String
        public let productId: String
        /// The product's title in the store's storefront and language; its identifier where it is not sold there.
        public let productTitle: String
        public let expiresDate: SimInstant
        public let willAutoRenew: Bool
        /// Apple could not renew it and keeps access until then, the grace period's end; nil otherwise.
        public let gracePeriodExpiresDate: SimInstant?
        /// Past its grace (or with none), Apple retries the payment: no access, but a charge once billing recovers.
        public var inBillingRetry = false
        /// A price increase waits for the subscriber's consent: without it, the period's end is the subscription's.
        public let waitsForPriceConsent: Bool
        /// The product it renews into at the period's end, when a plan change is set for then, and its title.
        public let renewsInto: String?
        public let renewsIntoTitle: String?
        /// The plans of its group the store sells here, itself included, at the store's price now (a raised one too):
        /// what the sheet offers to switch to, in Apple's words, not the app's (its paywall may be older news).
        public var plans: [Plan] = []
        /// Auto-renew is on, but the plan it renews as is not sold in this storefront: Apple ends it then
        /// (EXPIRED/PRODUCT_NOT_FOR_SALE), so "Next renewal" would promise what will not come.
        public var renewalNotSold = false
        /// Its period now is a free trial whose end is the first charge: Apple's sheet says when the trial ends and
        /// what is charged then, where "Next renewal" hid both (session 41, helper E).
        public var inFreeTrial = false
    }

    /// A plan of a subscription's group as Apple's sheet offers it.
    public struct Plan: Equatable, Sendable {
        public let productId: String
        public let title: String
        public let localizedPrice: String
        /// The price with its period in the store's words ("$59.99 per year"); the price alone for a plan without one.
        public var terms: String
        /// Chosen, it takes effect now (an upgrade, or a crossgrade of the same length), else at the next renewal:
        /// "Switch to Coach ($59.99)" said neither the period nor when (session 28).
        public var startsNow: Bool
    }

    public let appleId: String
    /// Active, in grace or in billing retry, by original transaction id: what the sheet's buttons act on.
    public let entries: [Entry]
    /// The family members' purchases shared with the Apple ID that give access now: listed, with nothing to press (the
    /// member who bought one manages it). The sheet said "This Apple ID pays for no subscription" alone (session 31).
    public var sharedByFamily: [Entry] = []
}

extension SubscriptionRecord {
    /// On Apple's manage sheet, and acted on by its buttons: what the subscriber has or may still be charged for (a
    /// subscription in billing retry is charged when the payment method works again, so it can be cancelled).
    public var isRunning: Bool { state.isEntitled || state == .billingRetry }
}

extension PaymentQueue {
    /// Every subscription of this queue's Apple ID as the App Store holds it, whatever its state: what the sheet is
    /// judged against.
    public var subscriptionsHeld: [SubscriptionRecord] { store.subscriptions(appleId: appleId) }

    /// The subscription group App Store Connect puts `productIdentifier` in; nil for a product not in one.
    public func subscriptionGroup(of productIdentifier: String) -> String? {
        store.catalog.spec(for: productIdentifier)?.subscriptionGroup
    }

    /// A product's title where this storefront does not sell it: the catalog's in the store's language, else English,
    /// else any (a sheet read "Plan: com.podcastclub.listener.yearly" after a move to France). A product the catalog no
    /// longer holds (the owner's file dropped it since it was bought) is "Subscription" in the store's words, never
    /// its identifier (session 39).
    private func catalogTitle(_ productId: String) -> String {
        let localizations = store.catalog.spec(for: productId)?.localizations ?? [:]
        return
            (localizations[store.locale] ?? localizations["en_US"]
            ?? localizations.sorted { $0.key < $1.key }.first?.value)?.title
            ?? StoreWords(locale: store.locale).unnamedPlan
    }

    /// The sheet as it reads now.
    public func manageSheet() -> ManageSheet {
        let running = store.subscriptions(appleId: appleId).filter(\.isRunning)
        let products = store.products(for: running.flatMap { [$0.productId, $0.autoRenewProductId] }).products
        let entries = running.map { subscription in
            let switches = subscription.autoRenewProductId != subscription.productId
            var entry = ManageSheet.Entry(
                originalTransactionId: subscription.originalTransactionId, productId: subscription.productId,
                productTitle: products.first { $0.productIdentifier == subscription.productId }?.localizedTitle
                    ?? catalogTitle(subscription.productId),
                expiresDate: subscription.expiresDate, willAutoRenew: subscription.autoRenew,
                gracePeriodExpiresDate: subscription.state == .gracePeriod
                    ? subscription.gracePeriodExpiresDate ?? subscription.expiresDate : nil,
                // An offer's period next renews without consent: the raise is asked of the renewal after it.
                waitsForPriceConsent: subscription.priceIncreaseStatus == 0 && store.nextOfferType(subscription) == nil,
                renewsInto: switches ? subscription.autoRenewProductId : nil,
                renewsIntoTitle: switches
                    ? products.first { $0.productIdentifier == subscription.autoRenewProductId }?.localizedTitle
                        ?? catalogTitle(subscription.autoRenewProductId) : nil)
            entry.inBillingRetry = subscription.state == .billingRetry
            entry.inFreeTrial = store.inFreeTrial(subscription)
            entry.renewalNotSold =
                subscription.autoRenew && !products.contains { $0.productIdentifier == subscription.autoRenewProductId }
            let group = store.catalog.specs.filter { $0.subscriptionGroup == subscription.groupId }.map(\.productId)
            let sold = store.products(for: group).products
            // In the catalog's order, as App Store Connect ranks a group's plans.
            let words = StoreWords(locale: store.locale)
            entry.plans = group.compactMap { id in
                sold.first { $0.productIdentifier == id }.map { product in
                    ManageSheet.Plan(
                        productId: id, title: product.localizedTitle, localizedPrice: product.localizedPrice,
                        terms: product.subscriptionPeriod.map { words.price(product.localizedPrice, per: $0) }
                            ?? product.localizedPrice,
                        startsNow: store.changesNow(from: subscription.productId, to: product))
                }
            }
            return entry
        }
        var sheet = ManageSheet(appleId: appleId, entries: entries)
        sheet.sharedByFamily = familySharesListed()
        return sheet
    }

    /// The Apple ID's family shares that give access now, the latest transaction of each, as the sheet lists them.
    private func familySharesListed() -> [ManageSheet.Entry] {
        var latest: [String: TransactionRecord] = [:]
        for record in store.familySharedTransactions(appleId: appleId) {
            let id = record.originalTransactionIdentifier
            if latest[id].map({ $0.purchaseDate <= record.purchaseDate }) ?? true { latest[id] = record }
        }
        let now = store.scheduler.now
        return latest.values.filter { $0.revocationDate == nil && ($0.expiresDate.map { $0 > now } ?? false) }
            .sorted { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
            .compactMap { record in
                guard let expires = record.expiresDate else { return nil }
                let id = record.productIdentifier
                return ManageSheet.Entry(
                    originalTransactionId: record.originalTransactionIdentifier, productId: id,
                    productTitle: store.products(for: [id]).products.first?.localizedTitle ?? catalogTitle(id),
                    expiresDate: expires,
                    willAutoRenew: store.shareRenews(record.originalTransactionIdentifier) ?? false,
                    gracePeriodExpiresDate: nil, waitsForPriceConsent: false, renewsInto: nil, renewsIntoTitle: nil)
            }
    }

    /// "Cancel subscription" or "Renew automatically": auto-renew of this Apple ID's running subscription on
    /// `productId`, each subscription with its own buttons as on Apple's Subscriptions page (one press ended both
    /// groups' subscriptions, session 27); nil for every running one.
    public func setAutoRenew(_ enabled: Bool, productId: String? = nil) {
        let subscriptions = store.logged("read the subscriptions to turn auto-renew \(enabled ? "on" : "off")") {
            try store.ledger.subscriptions(appleId: appleId)
        }
        let running = (subscriptions ?? []).filter { $0.isRunning && (productId == nil || $0.productId == productId) }
        if running.isEmpty { store.log("auto-renew \(enabled ? "on" : "off"): \(appleId) has no running subscription") }
        for subscription in running {
            _ = store.logged("turn auto-renew \(enabled ? "on" : "off") for \(subscription.originalTransactionId)") {
                try store.setAutoRenew(enabled, originalTransactionId: subscription.originalTransactionId)
            }
        }
    }

    /// "Switch to …": the running subscription in `productIdentifier`'s group changes to it, with Apple's timing
    /// (`AppStore.changePlan`). Where Ask to Buy is on for this Apple ID, a switch that charges at once waits for a
    /// parent as a purchase does (approved, it is charged as a purchase of that plan, which is the same change), unless
    /// a request of the group already waits; the title of the plan waiting is returned then, nil otherwise.
    @discardableResult
    public func changePlan(to productIdentifier: String) -> String? {
        let group = subscriptionGroup(of: productIdentifier)
        let subscriptions = store.subscriptions(appleId: appleId)
        guard let running = subscriptions.first(where: { $0.groupId == group && $0.state.isEntitled }) else {
            store.log("plan change to \(productIdentifier): no running subscription in its group")
            return nil
        }
        if let product = store.product(productIdentifier), running.productId != productIdentifier,
            store.changesNow(from: running.productId, to: product)
        {
            store.timeline.record(.sheetSwitchCharges(productId: productIdentifier, deviceId: deviceId))
            if store.needsAskToBuy(appleId) {
                // One request of a group waits for a parent at a time, as a purchase's second one is refused
                // (found-by-hand/92, 93): the sheet, opened again, held a second request of the same switch, and the
                // parent was asked twice (found-by-hand/517).
                if let waiting = store.pendingAskToBuy.first(where: {
                    $0.appleId == appleId && $0.product.subscriptionGroupIdentifier == group
                }) {
                    store.log(
                        "switch to \(productIdentifier) on the manage sheet: \(waiting.identifier) of "
                            + "\(waiting.product.productIdentifier) already waits for a parent; no second request")
                    return waiting.product.localizedTitle
                }
                // Numbered 0: the app's queue never added it, so a decline tells the app nothing.
                let held = store.hold(
                    PendingPayment(
                        identifier: "", kind: .askToBuy, appleId: appleId, deviceId: deviceId, product: product,
                        paymentNumber: 0, requestDate: store.scheduler.now))
                store.log("switch to \(productIdentifier) on the manage sheet asks a parent: \(held.identifier)")
                return product.localizedTitle
            }
        }
        _ = store.logged("change \(running.originalTransactionId) to \(productIdentifier)") {
            try store.changePlan(
                originalTransactionId: running.originalTransactionId, to: productIdentifier, deviceId: deviceId)
        }
        return nil
    }
}
