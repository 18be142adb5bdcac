import FoundationEssentials

/// A `.storekit` subscription's promotional offers (`adHocOffers`), win-back offers (`winbackOffers`) and offer
/// codes (`codeOffers`), imported with the same checks as its introductory offer, each named by its field.
extension StoreKitImporter {
    mutating func addOffers(
        of subscription: StoreKitFileSubscription, to spec: inout StoreProductSpec, at location: String
    )
        throws(ConfigError)
    {
        var promotional: [PromotionalOfferSpec] = []
        let lists = [
            ("adHocOffers", subscription.adHocOffers ?? []), ("winbackOffers", subscription.winbackOffers ?? []),
        ]
        for (field, offers) in lists {
            for (index, offer) in offers.enumerated() {
                let at = "\(location).\(field)[\(index)]"
                let terms = try introductoryOffer(offer, at: at)
                // The app names the offer it applies by this identifier; Xcode's editor always writes one.
                guard let id = offer.offerID ?? (field == "winbackOffers" ? offer.referenceName : nil), !id.isEmpty
                else { throw fail("\(at).offerID", "is missing: the app applies a promotional offer by its ID") }
                if promotional.contains(where: { $0.id == id }) {
                    throw fail("\(at).offerID", "\"\(id)\" is listed twice for \(subscription.productID)")
                }
                var spec = PromotionalOfferSpec(
                    id: id, paymentMode: terms.paymentMode, period: terms.period, periodCount: terms.periodCount,
                    prices: terms.prices)
                if field == "winbackOffers" { spec.winBack = true }
                promotional.append(spec)
            }
        }
        var codes: [OfferCodeSpec] = []
        for (index, offer) in (subscription.codeOffers ?? []).enumerated() {
            let at = "\(location).codeOffers[\(index)]"
            let terms = try introductoryOffer(offer, at: at)
            guard let code = offer.referenceName, !code.trimmingSpaces().isEmpty else {
                throw fail("\(at).referenceName", "is missing: a reader redeems an offer code by it")
            }
            // Named by the file's own field: the config's check named `store.products[2].offerCodes[0]`, a field of
            // no `.storekit` file (session 37).
            if let other = codeOwners.updateValue(subscription.productID, forKey: code.lowercased()) {
                throw fail("\(at).referenceName", "the code \"\(code)\" is also an offer code of \(other)")
            }
            var eligibility: [OfferCodeSpec.Eligibility] = []
            for (position, name) in (offer.eligibility ?? []).enumerated() {
                guard let who = OfferCodeSpec.Eligibility(rawValue: name) else {
                    throw fail("\(at).eligibility[\(position)]", "\"\(name)\" is not new, expired or existing")
                }
                eligibility.append(who)
            }
            if eligibility.isEmpty {
                throw fail("\(at).eligibility", "must name who may redeem it: new, expired, existing")
            }
            codes.append(
                OfferCodeSpec(
                    code: code, paymentMode: terms.paymentMode, period: terms.period, periodCount: terms.periodCount,
                    prices: terms.prices, eligibility: eligibility))
        }
        spec.promotionalOffers = promotional.isEmpty ? nil : promotional
        spec.offerCodes = codes.isEmpty ? nil : codes
    }
}
