import SimKernel

/// A subscription the owner configured: our identifier and the App Store's product identifier.
public struct ConfiguredOffer: Equatable, Sendable {
    public let id: String
    public let productId: String

    public init(id: String, productId: String) {
        self.id = id
        self.productId = productId
    }
}

/// An offer the paywall may show: configured by the owner and returned by the store,
/// with the store's localized metadata.
public struct Offer: Equatable, Sendable {
    public let id: String
    public let product: StoreProduct

    public init(id: String, product: StoreProduct) {
        self.id = id
        self.product = product
    }

    public var productId: String { product.productIdentifier }
}

/// A configured subscription the paywall leaves out, and the likely reason.
public struct LeftOutOffer: Equatable, Sendable {
    public let id: String
    public let productId: String
    /// The App Store named it among the identifiers it does not sell in its storefront (StoreKit's invalid
    /// identifiers), rather than leaving it out of its answer: Apple renews no subscription to it there.
    public let notSold: Bool

    public var reason: String {
        notSold
            ? "the App Store does not sell it here (unknown, not ready, or not in this storefront)"
            : "the App Store did not answer for it"
    }
}

/// The paywall's offers: configured ∩ returned, in the owner's order.
public struct OfferCatalog: Equatable, Sendable {
    public let offers: [Offer]
    public let leftOut: [LeftOutOffer]

    public static let empty = OfferCatalog(offers: [], leftOut: [])

    /// Keeps each configured subscription the store returned, in the owner's order; the store's order never matters.
    public static func reconcile(configured: [ConfiguredOffer], returned: [StoreProduct], invalid: [String])
        -> OfferCatalog
    {
        var offers: [Offer] = []
        var leftOut: [LeftOutOffer] = []
        for subscription in configured {
            if let product = returned.first(where: { $0.productIdentifier == subscription.productId }) {
                offers.append(Offer(id: subscription.id, product: product))
            } else {
                leftOut.append(
                    LeftOutOffer(
                        id: subscription.id, productId: subscription.productId,
                        notSold: invalid.contains(subscription.productId)))
            }
        }
        return OfferCatalog(offers: offers, leftOut: leftOut)
    }

    public func offer(_ id: String) -> Offer? { offers.first { $0.id == id } }

    /// The configured products this answer says the storefront does not sell; none for a catalog no answer made.
    public var notSold: Set<String> { Set(leftOut.filter(\.notSold).map(\.productId)) }
}
