import Subscriptions
import WhiteLabel

/// The owner's offer line with the store's words placed into it.
public enum OfferText {
    /// A lapsed reader's win-back offer (the store gives it only to them) takes the introductory offer's place.
    public static func line(for offer: Offer, paywall: PaywallText) -> String {
        let product = offer.product
        let words = product.words
        let winBackTerms = product.winBackOffer?.terms
        var template = product.freeTrialPeriod != nil ? paywall.offerWithTrial ?? paywall.offer : paywall.offer
        if winBackTerms != nil { template = paywall.winBack ?? paywall.offer }
        let intro = winBackTerms ?? introTerms(product)
        if !intro.isEmpty, !template.contains("{intro}"), let price = template.firstRange(of: "{price}") {
            template.insert(contentsOf: "{intro}", at: price.lowerBound)
        }
        let period = words?.period ?? product.subscriptionPeriod?.description ?? "purchase"
        let trial = words?.trial ?? product.freeTrialPeriod?.lengthDescription ?? ""
        return
            template
            .replacing("{intro}", with: intro)
            .replacing("{title}", with: product.localizedTitle)
            .replacing("{description}", with: product.localizedDescription)
            .replacing("{price}", with: product.localizedPrice)
            .replacing("{perPeriod}", with: words?.perPeriod ?? "per \(period)")
            .replacing("{period}", with: period)
            .replacing("{freeTrial}", with: words?.freeTrial ?? (trial.isEmpty ? "" : "\(trial) free"))
            .replacing("{trial}", with: trial)
    }

    /// A paid introductory offer in the words of Apple's sheet (`PaymentQueue.terms`), up to "then ":
    /// the paywall and the sheet must name the same price and periods.
    public static func introTerms(_ product: StoreProduct) -> String {
        guard let offer = product.paidIntroductoryOffer else { return "" }
        if let terms = product.words?.introTerms { return terms }
        switch offer.mode {
        case .payAsYouGo:
            let periods =
                offer.numberOfPeriods == 1 ? "" : " for \(offer.numberOfPeriods) \(offer.period.unit.rawValue)s"
            return "\(offer.localizedPrice) per \(offer.period)\(periods), then "
        case .payUpFront:
            return "\(offer.localizedPrice) for \(offer.period.lengthDescription), then "
        }
    }
}
