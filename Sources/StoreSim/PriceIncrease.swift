import Database
import FoundationEssentials
import SimKernel
import WhiteLabel

/// A price App Store Connect raised in one storefront: new subscribers pay `newPrice` at once,
/// subscribers pay it from the first renewal after they consent.
public struct PriceIncrease: Equatable, Sendable {
    public let productIdentifier: String
    public let storefront: String
    public let oldPrice: Decimal
    public let newPrice: Decimal
}

extension AppStore {
    /// Raises the price of `productIdentifier` in the store's storefront to `newPrice` and asks every
    /// subscriber for consent (PRICE_INCREASE/PENDING). False when the product is not sold here or the
    /// price does not go up (Apple asks for consent only for an increase).
    @discardableResult
    public func raisePrice(productIdentifier: String, to newPrice: Decimal) throws(DatabaseError) -> Bool {
        guard let current = product(productIdentifier), current.subscriptionPeriod != nil, newPrice > current.price
        else {
            log("price increase of \(productIdentifier) to \(newPrice) refused: not a subscription sold here at less")
            return false
        }
        // App Store Connect prices a storefront in its currency's minor units: 1200.5 in the yen would be shown ¥1,200
        // (or ¥1,201) and charged 1200.5 (session 34's note).
        if let refusal = Self.minorUnitsRefusal(newPrice, in: storefront) {
            log("price increase of \(productIdentifier) to \(newPrice) refused: \(refusal)")
            return false
        }
        let key = "\(productIdentifier)|\(storefront.countryCode)"
        // From the price sold until now: a subscriber who agreed to the last raise and renewed at it pays that (the
        // sheet said "$4.99 → $6.99" to one paying $5.99, session 24). One who never agreed to it ends at its period's
        // end unless they agree now, to the newest price, as this says.
        let old = current.price
        let increase = PriceIncrease(
            productIdentifier: productIdentifier, storefront: storefront.countryCode, oldPrice: old, newPrice: newPrice)
        try ledger.save(increase)
        priceIncreases[key] = increase
        productsAnswers = [:]
        log("price of \(productIdentifier) raised: \(priceChangeText(productIdentifier) ?? "\(newPrice)")")
        try requestPriceIncreaseConsent(productIdentifier: productIdentifier)
        return true
    }

    /// The Apple ID moved to another storefront: a raise asked of a subscription in the old one is not this one's, where
    /// it renews at this storefront's price (a raise in the USA asked "Price increase … £3.99" in Britain and ended the
    /// subscription there, session 25); and a raise here is asked of one that does not pay it yet (back in the USA,
    /// the raise dropped in Britain renewed unasked, long fuzz seed 966).
    public func storefrontMoved() {
        for (_, held) in queues.sorted(by: { $0.key < $1.key }) { held.queue?.storefrontChanged() }
        let subscriptions = logged("read the subscriptions after a storefront move") { try ledger.allSubscriptions() }
        for subscription in subscriptions ?? [] where subscription.isRunning {
            // Back where the subscriber agreed to the price now asked: agreed still (long fuzz seed 967).
            if let now = currentPrice(subscription.autoRenewProductId), consented(subscription, to: now) {
                guard subscription.priceIncreaseStatus == 0 else { continue }
                setConsent(
                    1, of: subscription,
                    "\(subscription.originalTransactionId) agreed to \(storefront.countryCode)'s price before",
                    told: .priceIncrease, .accepted)
                continue
            }
            if let increase = priceIncreases["\(subscription.autoRenewProductId)|\(storefront.countryCode)"] {
                // Not agreed here (just above): asked, whether nothing waited or a consent given in another storefront
                // did (agreed to in Britain, it renewed at the raised USA price unasked, long fuzz seed 1030). With
                // auto-renew off too, as a raise asks (`requestPriceIncreaseConsent`): turned on again here, it renewed
                // at the raised price unasked (long fuzz seed 1312).
                guard subscription.priceIncreaseStatus != 0 else { continue }
                // What it pays for the plan it renews as: a yearly plan's price says nothing of the monthly plan it
                // changes to at its renewal (long fuzz seed 1062).
                let latest =
                    logged("read what \(subscription.originalTransactionId) pays") {
                        try ledger.transaction(subscription.latestTransactionId)
                    } ?? nil
                let paid =
                    latest?.productIdentifier == subscription.autoRenewProductId
                    ? latest?.price(in: storefront.currencyCode) : nil
                guard (paid.map { $0 < increase.newPrice }) ?? true else { continue }
                setConsent(
                    0, of: subscription,
                    "price increase consent requested for \(subscription.originalTransactionId): raised here",
                    told: .priceIncrease, .pending)
                continue
            }
            // A consent given is kept: back where it was asked, it is not asked again (long fuzz seed 967).
            guard subscription.priceIncreaseStatus == 0 else { continue }
            // Its renewal changed: the server hears it (no consent waits any more), as of any renewal change.
            setConsent(
                nil, of: subscription,
                "\(subscription.originalTransactionId) renews at \(storefront.countryCode)'s price: the raise asked "
                    + "elsewhere no longer applies",
                told: .didChangeRenewalPref, nil)
        }
    }

    /// A storefront move's change of `subscription`'s consent state, written, said (`line`) and told to the server.
    private func setConsent(
        _ status: Int?, of subscription: SubscriptionRecord, _ line: String, told type: NotificationType,
        _ subtype: NotificationSubtype?
    ) {
        var changed = subscription
        changed.priceIncreaseStatus = status
        _ = logged("change the price consent of \(subscription.originalTransactionId) after a storefront move") {
            try ledger.save(changed)
            log(line)
            try notifyLatest(type, subtype, changed)
        }
    }

    /// Whether the subscriber of `subscription` agreed, in this storefront, to its plan at `price` or more.
    func consented(_ subscription: SubscriptionRecord, to price: Decimal) -> Bool {
        let key = "\(subscription.originalTransactionId)|\(storefront.countryCode)|\(subscription.autoRenewProductId)"
        return consentsGiven[key].map { $0 >= price } ?? false
    }

    /// Keeps a consent to `subscription`'s plan at the price this storefront sells it for now.
    func recordConsent(_ subscription: SubscriptionRecord) {
        guard let price = currentPrice(subscription.autoRenewProductId) else { return }
        recordConsent(subscription, at: StorePrice(price, in: storefront.countryCode))
    }

    /// Keeps a consent to `subscription`'s plan at `price`, in the storefront it was given in.
    func recordConsent(_ subscription: SubscriptionRecord, at price: StorePrice) {
        let key = "\(subscription.originalTransactionId)|\(price.storefront)|\(subscription.autoRenewProductId)"
        consentsGiven[key] = price.amount
        _ = logged("keep the consent of \(subscription.originalTransactionId)") {
            try ledger.saveConsent(
                originalTransactionId: subscription.originalTransactionId, storefront: price.storefront,
                productId: subscription.autoRenewProductId, price: price.amount)
        }
    }

    /// What `productIdentifier` sells for in the store's storefront now, a raised price included.
    public func currentPrice(_ productIdentifier: String) -> Decimal? {
        product(productIdentifier)?.price
    }

    /// "$9.99 → $12.99 per month": what Apple's consent sheet says, nil without an increase here.
    public func priceChangeText(_ productIdentifier: String) -> String? {
        guard let increase = priceIncreases["\(productIdentifier)|\(storefront.countryCode)"],
            let text = catalog.spec(for: productIdentifier)?.subscriptionPeriod,
            let period = CalendarPeriod(iso8601: text)
        else { return nil }
        let formatter = PriceFormatter(locale: locale, currencyCode: storefront.currencyCode)
        let per = StoreWords(locale: locale).perPeriod(period)
        return "\(formatter.string(increase.oldPrice)) → \(formatter.string(increase.newPrice)) \(per)"
    }

    /// The prices raised before this run (a reopened state folder).
    func resumePriceIncreases() {
        for increase in logged("read the raised prices", { try ledger.priceIncreases() }) ?? [] {
            priceIncreases["\(increase.productIdentifier)|\(increase.storefront)"] = increase
        }
    }

    /// The products as sold now: a raised price replaces the catalog's.
    func applyingPriceIncreases(_ answer: ProductsResponse) -> ProductsResponse {
        guard !priceIncreases.isEmpty else { return answer }
        var raised = answer
        raised.products = answer.products.map { product in
            guard let increase = priceIncreases["\(product.productIdentifier)|\(storefront.countryCode)"] else {
                return product
            }
            let formatter = PriceFormatter(locale: product.priceLocale, currencyCode: product.currencyCode)
            var raisedProduct = Product(
                productIdentifier: product.productIdentifier, localizedTitle: product.localizedTitle,
                localizedDescription: product.localizedDescription, price: increase.newPrice,
                priceLocale: product.priceLocale, currencyCode: product.currencyCode,
                localizedPrice: formatter.string(increase.newPrice), subscriptionPeriod: product.subscriptionPeriod,
                subscriptionGroupIdentifier: product.subscriptionGroupIdentifier,
                introductoryOffer: product.introductoryOffer)
            // Its promotional and win-back offers stay: a raise left them out, and the lapsed reader's "Welcome
            // back" offer vanished from the paywall with it (session 24).
            raisedProduct.discounts = product.discounts
            return raisedProduct
        }
        return raised
    }
}

extension AppStore {
    /// Why `price` cannot be a price in `storefront`'s currency (more decimals than its minor units), or nil.
    public static func minorUnitsRefusal(_ price: Decimal, in storefront: Storefront) -> String? {
        guard let places = StorefrontCodes.currency(of: storefront.countryCode)?.decimals else { return nil }
        let decimals = "\(price)".split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        guard decimals > places else { return nil }
        let unit = places == 0 ? "whole units" : "\(places) decimals"
        return "\(storefront.currencyCode) prices have \(unit) in \(storefront.countryCode)"
    }
}
