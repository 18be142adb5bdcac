import Database
import SimKernel
import WhiteLabel

/// An offer applied to a new subscription: a promotional (or win-back) offer with a verified signature, or an
/// offer code the reader redeemed. `offerType` is Apple's: 2 promotional, 3 offer code.
struct AppliedOffer: Equatable, Sendable {
    let discount: ProductDiscount
    let offerType: Int
    /// What the subscription keeps to bill the offer's later periods: the offer's id, or `code:` and the code.
    let key: String
}

extension AppStore {
    /// Apple's win-back rule: the Apple ID subscribed in the product's group before, and nothing there runs
    /// now (not active, not in grace, not in billing retry). A ledger that cannot be read proves nothing: no.
    public func isEligibleForWinBack(_ product: Product, appleId: String) -> Bool {
        guard let group = product.subscriptionGroupIdentifier,
            let all = logged("check win-back eligibility", { try ledger.subscriptions(appleId: appleId) })
        else { return false }
        let inGroup = all.filter { $0.groupId == group }
        return !inGroup.isEmpty && !inGroup.contains { $0.state.isEntitled || $0.state == .billingRetry }
    }

    /// A running subscriber's offer starts at the next renewal, as Apple applies a promotional offer or an offer
    /// code to an active subscription: its periods are billed at the offer's price from then on. An offer of another
    /// product of the group (a yearly plan's code redeemed by a monthly subscriber) renews into that product then.
    func applyAtNextRenewal(
        _ applied: AppliedOffer, to originalTransactionId: String, renewingTo product: Product? = nil
    ) throws(DatabaseError) {
        guard var subscription = try ledger.subscription(originalTransactionId) else { return }
        var asksConsent = false
        if let product, product.productIdentifier != subscription.autoRenewProductId {
            // Chosen at the price it sells at now, a raise made before included, as on Apple's sheet: a plan a code
            // renews into after a raise kept no consent, and a move away and back asked it and ended the plan (long
            // fuzz seed 1275).
            asksConsent = agreeToPrice(of: product, &subscription)
            subscription.autoRenewProductId = product.productIdentifier
            log(
                "\(originalTransactionId) renews into \(product.productIdentifier) for the offer",
                event: chosen(subscription, product))
        }
        subscription.offerId = applied.key
        subscription.introPeriodsLeft =
            applied.discount.paymentMode == .payAsYouGo ? applied.discount.numberOfPeriods : 1
        try ledger.save(subscription)
        if asksConsent { try askConsent(subscription) }
        log(
            "\(originalTransactionId): \(subscription.autoRenewProductId)\(Self.charged(applied)) applies from the "
                + "renewal on \(subscription.expiresDate)")
    }

    /// The offer a subscription keeps billing at (`SubscriptionRecord.offerId`), as this storefront sells it.
    func subscriptionOffer(_ key: String, of product: Product) -> ProductDiscount? {
        if key.hasPrefix("code:") {
            return offerCode(String(key.dropFirst(5)), of: product)?.discount
        }
        return product.discounts.first { $0.identifier == key }
    }

    /// The offer a payment was confirmed with, as Apple charges it now: priced as `product`, the product charged, sells
    /// it, and a win-back offer only while the Apple ID's subscription in the group is still lapsed. Nil, logged, when it
    /// no longer applies: Apple fails the payment (`ineligibleForOffer`) rather than charge a price the reader never
    /// confirmed. A request approved by a parent after the reader resubscribed is such a one: charged in full it would
    /// be a price nobody agreed to, and with the offer a second win-back for a subscriber, its periods started again.
    func offerAtCharge(_ key: String, of product: Product, appleId: String) -> AppliedOffer? {
        guard let discount = subscriptionOffer(key, of: product) else {
            log("offer \(key) is not sold any more; the payment fails, nothing charged")
            return nil
        }
        if discount.isWinBack, !isEligibleForWinBack(product, appleId: appleId) {
            log("win-back offer \(key): \(appleId) is not lapsed any more; the payment fails, nothing charged")
            return nil
        }
        return AppliedOffer(discount: discount, offerType: key.hasPrefix("code:") ? 3 : 2, key: key)
    }

    /// An offer code of `product` (its code compared without case) and its terms in this storefront.
    func offerCode(_ code: String, of product: Product) -> (spec: OfferCodeSpec, discount: ProductDiscount)? {
        guard
            let spec = catalog.spec(for: product.productIdentifier)?.offerCodes?.first(where: {
                $0.code.lowercased() == code.lowercased()
            })
        else { return nil }
        let terms = IntroductoryOfferSpec(
            paymentMode: spec.paymentMode, period: spec.period, periodCount: spec.periodCount, prices: spec.prices)
        guard let discount = Catalog.discount(terms, storefront: storefront, locale: locale) else { return nil }
        return (spec, discount)
    }

    /// The periods billed at an offer's price after its first transaction (pay as you go only).
    static func offerPeriodsLeft(_ offer: ProductDiscount) -> Int {
        offer.paymentMode == .payAsYouGo ? offer.numberOfPeriods - 1 : 0
    }

    /// " at $2.49 (promotional offer come-back)": what the timeline adds when an offer set the price.
    static func charged(_ applied: AppliedOffer?) -> String {
        guard let applied else { return "" }
        let kind =
            applied.offerType == 3 ? "offer code \(applied.key.dropFirst(5))" : "promotional offer \(applied.key)"
        return " at \(applied.discount.localizedPrice) (\(kind))"
    }
}
