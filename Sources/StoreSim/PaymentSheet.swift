/// Apple's payment sheet as the reader sees it: who pays, for what, how much, on which terms.
public struct PaymentSheet: Equatable, Sendable {
    /// What the sheet asks: to pay, or to agree to a higher price for a running subscription.
    public enum Kind: Equatable, Sendable {
        case payment
        case priceConsent
    }

    public var kind: Kind = .payment
    public let appleId: String
    public let productTitle: String
    /// The product asked for (the reader sees its title): what invariant 13 holds to the offer chosen.
    public var productIdentifier = ""
    /// The headline: what is charged now, an offer's price when the sheet applies a promotional or win-back offer.
    public let localizedPrice: String
    /// The plan's regular price when the headline is an offer's (nil: the headline is the regular price).
    public var regularPrice: String? = nil
    /// "Free for 1 week, then $39.99 per year. Renews automatically until cancelled."
    public let terms: String
    /// The buttons of a payment sheet in the device's language ("S’abonner", "Annuler").
    public var confirmLabel = "Subscribe"
    public var cancelLabel = "Cancel"
    /// Who pays, in the device's language: "Identifiant Apple : …" (nil: "Apple ID: …").
    public var appleIdLine: String? = nil
}
