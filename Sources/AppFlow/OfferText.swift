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
        // Only an offer with a trial asks (most have none: this runs for every line of every paywall built).
        let unplacedTrial = product.freeTrialPeriod != nil && !placesTrial(template) ? trialTerms(product) : ""
        let intro = winBackTerms ?? (unplacedTrial.isEmpty ? introTerms(product) : unplacedTrial)
        if !intro.isEmpty, !template.contains("{intro}"), let price = introPlace(in: template) {
            template.insert(contentsOf: "{intro}", at: price)
        }
        let period = words?.period ?? product.subscriptionPeriod?.description ?? "purchase"
        let trial = words?.trial ?? product.freeTrialPeriod?.lengthDescription ?? ""
        let parts = Parts(
            template: template, intro: intro, title: product.localizedTitle,
            description: product.localizedDescription, price: product.localizedPrice,
            perPeriod: words?.perPeriod ?? "per \(period)", period: period,
            freeTrial: words?.freeTrial ?? (trial.isEmpty ? "" : "\(trial) free"), trial: trial)
        return OfferLines.shared.line(for: parts)
    }

    /// Where terms the owner's text has no place for go: before the price, or before the period that leads it
    /// ("{perPeriod}{price}", Japanese order): the terms carry their own period, and the renewal its own ("毎月$0.99
    /// （3か月）、その後毎月$4.99", as Apple's sheet, not "毎月毎月$0.99 …その後$4.99").
    static func introPlace(in template: String) -> String.Index? {
        for led in ["{perPeriod}{price}", "{perPeriod} {price}"] {
            if let range = template.firstRange(of: led) { return range.lowerBound }
        }
        return template.firstRange(of: "{price}")?.lowerBound
    }

    /// Everything a line is made of. Equal byte for byte (not as Swift compares strings, which takes
    /// canonically equivalent text as equal): equal parts make the same line.
    struct Parts: Hashable {
        let template, intro, title, description, price, perPeriod, period, freeTrial, trial: String

        /// Field by field, the likeliest to differ first, each by its length before its bytes: the kept lines are
        /// looked up each time a paywall is built, and a dictionary compares the parts with every line its probe
        /// meets. Made into two arrays of the nine fields for each comparison, they cost 4 k instructions each.
        static func == (left: Parts, right: Parts) -> Bool {
            same(left.price, right.price) && same(left.title, right.title) && same(left.template, right.template)
                && same(left.intro, right.intro) && same(left.perPeriod, right.perPeriod)
                && same(left.period, right.period) && same(left.freeTrial, right.freeTrial)
                && same(left.trial, right.trial) && same(left.description, right.description)
        }

        /// Equal byte for byte: at once when both share one buffer (a line looked up again from the same product).
        private static func same(_ left: String, _ right: String) -> Bool {
            guard left.utf8.count == right.utf8.count else { return false }
            return left.utf8.withContiguousStorageIfAvailable { a in
                right.utf8.withContiguousStorageIfAvailable { b in
                    a.baseAddress == b.baseAddress || a.elementsEqual(b)
                }
            }.flatMap { $0 } ?? left.utf8.elementsEqual(right.utf8)
        }

        /// The price's and the title's bytes, and the lengths of the template, the terms and the period: what tells
        /// a catalog's lines apart, a fraction of the bytes (all nine fields' bytes, and an array of them, were
        /// close to half a lookup's cost). `==` still compares every field.
        func hash(into hasher: inout Hasher) {
            Self.put(price, into: &hasher)
            Self.put(title, into: &hasher)
            hasher.combine(template.utf8.count)
            hasher.combine(intro.utf8.count)
            hasher.combine(perPeriod.utf8.count)
        }

        /// A field's length, then its bytes.
        private static func put(_ field: String, into hasher: inout Hasher) {
            hasher.combine(field.utf8.count)
            if field.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) })
                == nil
            {
                for byte in field.utf8 { hasher.combine(byte) }
            }
        }

        /// The placeholders filled in turn (a word may itself hold a later placeholder, as before), as `replacing` fills them.
        var line: String {
            template
                .replacingPlainly("{intro}", with: intro)
                .replacingPlainly("{title}", with: title)
                .replacingPlainly("{description}", with: description)
                .replacingPlainly("{price}", with: price)
                .replacingPlainly("{perPeriod}", with: perPeriod)
                .replacingPlainly("{period}", with: period)
                .replacingPlainly("{freeTrial}", with: freeTrial)
                .replacingPlainly("{trial}", with: trial)
        }
    }

    /// Whether the owner's text has a place for the trial, read byte by byte (the placeholders are ASCII): the
    /// standard library's substring search was 3 % of a fuzz run, the paywall being built after most steps.
    static func placesTrial(_ template: String) -> Bool {
        var template = template
        return template.withUTF8 { bytes in
            for index in bytes.indices where bytes[index] == UInt8(ascii: "{") {
                let rest = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
                if rest.starts(with: "trial}".utf8) || rest.starts(with: "freeTrial}".utf8) { return true }
            }
            return false
        }
    }

    /// A free trial in the words of Apple's sheet, up to "then ": for an owner's text with no place for it.
    static func trialTerms(_ product: StoreProduct) -> String {
        if let terms = product.words?.trialTerms { return terms }
        return product.freeTrialPeriod.map { "Free for \($0.lengthDescription), then " } ?? ""
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
