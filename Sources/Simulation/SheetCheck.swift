import AppFlow
import SimKernel
import StoreSim
import Subscriptions
import WhiteLabel

/// Invariant 13: while Apple's sheet asks to pay for the offer the reader chose on the paywall, it
/// says what the paywall said: the same price, the same period, and a free trial exactly when the
/// paywall promised one. The sheet's terms are the store's (`isEligibleForIntroductoryOffer`), so the
/// store's own product and eligibility are compared, not words.
extension World {
    func sheetViolations() -> [InvariantViolation] {
        if let sheet = device.queue.sheet, sheet.kind == .priceConsent { return consentSheetViolations(sheet) }
        let state = appState
        guard let sheet = device.queue.sheet, sheet.kind == .payment, let offerId = state.purchase?.offerId,
            let offer = state.offers?.first(where: { $0.id == offerId })
        else { return [] }
        // The product itself first: a sheet for another product than the offer chosen asks for the wrong payment.
        guard sheet.productIdentifier == offer.productId else {
            return [
                InvariantViolation(
                    .sheetsTellTheTruth,
                    "the reader chose \(offer.id) (\(offer.productId)), Apple's sheet asks to pay for "
                        + "\(sheet.productIdentifier) (\(sheet.productTitle))")
            ]
        }
        // The product as the store sells it now, a raised price included (the catalog's, unraised, hid a paywall that
        // kept "$4.99" over a raise its sheet showed as $5.99, session 26).
        guard let product = device.queue.product(offer.productId), sheet.productTitle == product.localizedTitle,
            // A sheet shown before the storefront or language changed, or before a raise, is compared with nothing
            // shown since.
            (sheet.regularPrice ?? sheet.localizedPrice) == product.localizedPrice,
            // A paywall whose products answer came before the raise could not know of it.
            !raisedSinceLastAnswer(offer.productId)
        else { return [] }
        var differences: [String] = []
        if (sheet.regularPrice ?? sheet.localizedPrice) != offer.product.localizedPrice {
            differences.append(
                "price \(offer.product.localizedPrice) on the paywall, \(sheet.localizedPrice) on the sheet")
        }
        // The headline is what is charged now: a paid offer's price, promotional or introductory (a win-back sheet
        // headed with the regular price, session 27; a paid introductory offer's, session 28).
        if let discount = device.queue.sheetOffer, discount.paymentMode != .freeTrial,
            sheet.localizedPrice != discount.localizedPrice
        {
            differences.append(
                "the sheet heads with \(sheet.localizedPrice), but charges \(discount.localizedPrice) now")
        }
        if product.subscriptionPeriod != offer.product.subscriptionPeriod {
            differences.append(
                "period \(Self.text(offer.product.subscriptionPeriod)) on the paywall, \(Self.text(product.subscriptionPeriod)) on the sheet"
            )
        }
        // The trial's whole length (one week × 2 is "Free for 2 weeks"), as the store gives it to this Apple ID.
        let intro = product.introductoryOffer
        let given =
            intro?.paymentMode == .freeTrial && store.isEligibleForIntroductoryOffer(product, appleId: appleId)
            ? intro?.wholeLength : nil
        let promised = offer.product.freeTrialPeriod
        if promised != nil || given != nil, offer.product.winBackOffer == nil,
            let trial = trialDifference(promised: promised, given: given, offer: offer, product: product, sheet: sheet),
            !eligibilityChangedSinceHandedOver(offer.productId)
        {
            differences.append(trial)
        }
        guard !differences.isEmpty else { return [] }
        return [
            InvariantViolation(
                .sheetsTellTheTruth,
                "\(offer.id) (\(offer.productId)): " + differences.joined(separator: "; "))
        ]
    }

    /// Apple's price-consent sheet says "otherwise it ends at the end of the period" only where Apple would end it
    /// then: not while an offer's periods are still due, which renew at the offer's price without consent, nor "when
    /// your offer ends" without one (session 28).
    private func consentSheetViolations(_ sheet: PaymentSheet) -> [InvariantViolation] {
        guard let product = device.queue.product(sheet.productIdentifier),
            let asked = store.subscriptions(appleId: appleId).first(where: {
                $0.priceIncreaseStatus == 0 && $0.isRunning && $0.autoRenew
                    && $0.autoRenewProductId == sheet.productIdentifier
            })
        else { return [] }
        let words = StoreWords(locale: product.priceLocale).consent
        let offerDue = store.nextOfferType(asked) != nil
        guard sheet.terms == (offerDue ? words.terms : words.termsAfterOffer) else { return [] }
        return [
            InvariantViolation(
                .sheetsTellTheTruth,
                offerDue
                    ? "Apple's price-consent sheet says \(asked.originalTransactionId) ends at the period's end without "
                        + "consent, but its next renewal is an offer's period, which Apple renews without it"
                    : "Apple's price-consent sheet says \(asked.originalTransactionId) ends with its offer without "
                        + "consent, but no offer's period is due")
        ]
    }

    /// Whether the price of `productId` was raised here after the store priced the phone's newest products answer
    /// listing it (made before, it may arrive after), and the app has not become active since the raise (back in the
    /// foreground, the paywall on screen asks the store again).
    private func raisedSinceLastAnswer(_ productId: String) -> Bool {
        let phone = device.queue.deviceId
        let storefront = store.storefront.countryCode
        var priced: SimInstant?
        var raised: SimInstant?
        var active: SimInstant?
        var failedSince: SimInstant?
        for recorded in timeline.events.reversed() where priced == nil || raised == nil {
            switch recorded.event {
            // A products request that failed (a fault) leaves the paywall with the offers it had.
            case .faultFired(.store, "products-request") where failedSince == nil: failedSince = recorded.time
            case .productsReturned(phone, let ids, _, let pricedAt) where ids.contains(productId) && priced == nil:
                priced = pricedAt
            case .becameActive(phone, _) where active == nil: active = recorded.time
            case .priceRaised(productId, storefront, _) where raised == nil: raised = recorded.time
            default: continue
            }
        }
        // In one instant, a price that differs was made before the raise.
        guard let raised, let priced, priced <= raised else { return false }
        return (active.map { $0 < raised } ?? true) || (failedSince.map { $0 >= raised } ?? false)
    }

    /// What the paywall and the sheet say differently of the free trial, if anything. The line the reader read, whatever
    /// the owner's text, states the sheet's trial in the store's words ("2 weeks"), and promises none the sheet will not
    /// give. A trial the store gives now that the sheet, shown earlier, does not say (the Apple ID's subscription ended
    /// while the sheet was up) is not judged: the sheet's words are what the reader reads. Built only as needed: this
    /// runs after every step a sheet is up.
    private func trialDifference(
        promised: CalendarPeriod?, given: CalendarPeriod?, offer: Offer, product: Product, sheet: PaymentSheet
    ) -> String? {
        let words = StoreWords(locale: product.priceLocale)
        let sheetSays =
            given != nil
            && product.introductoryOffer.map {
                sheet.terms.hasPrefix(
                    words.offerTerms(
                        mode: .freeTrial, price: "", period: $0.subscriptionPeriod, count: $0.numberOfPeriods))
            } ?? false
        if promised != given {
            guard promised != nil || sheetSays else { return nil }
            return "free trial \(Self.text(promised)) on the paywall, \(Self.text(given)) on the sheet"
        }
        guard let given, sheetSays else { return nil }
        let line = OfferText.line(for: offer, paywall: appState.paywallText)
        guard !line.contains(words.length(given)) else { return nil }
        return "the sheet gives \(Self.text(given)) free; the paywall's line does not say so: \(line)"
    }

    /// Whether the Apple ID's standing in the product's group changed after this phone handed Apple the payment:
    /// charged there (a parent's approval of a request from another phone) or its subscription there ended
    /// (revoked, refunded, expired). Apple's eligibility moved under a paywall that was right when the reader
    /// chose, and no update reaches this phone before the sheet.
    private func eligibilityChangedSinceHandedOver(_ productId: String) -> Bool {
        let deviceId = device.queue.deviceId
        let handedOver = timeline.events.last { recorded in
            guard case .paymentAdded(let product, let device, _) = recorded.event else { return false }
            return product == productId && device == deviceId
        }
        guard let handedOver, let group = store.catalog.spec(for: productId)?.subscriptionGroup else { return false }
        let since = handedOver.time
        // Ended in grace or billing retry, the paid-through date had passed already: only the end says when (Expire
        // Subscription in grace while the sheet was coming, long fuzz seed 1267).
        let ended = Set(
            timeline.events.reversed().prefix { $0.time >= since }.compactMap { recorded -> String? in
                switch recorded.event {
                case .subscriptionExpired(let original), .endedForPrice(let original, _, _, _): original
                default: nil
                }
            })
        if !ended.isEmpty,
            store.subscriptions(appleId: appleId).contains(where: {
                $0.groupId == group && ended.contains($0.originalTransactionId)
            })
        {
            return true
        }
        return store.transactions(appleId: appleId).contains { record in
            store.catalog.spec(for: record.productIdentifier)?.subscriptionGroup == group
                && (record.purchaseDate >= since || record.revocationDate.map { $0 >= since } ?? false
                    || record.expiresDate.map { $0 >= since && $0 <= scheduler.now } ?? false)
        }
    }

    private var app: AppPart { config.app }

    private static func text(_ period: CalendarPeriod?) -> String { period.map(\.lengthDescription) ?? "none" }
}
