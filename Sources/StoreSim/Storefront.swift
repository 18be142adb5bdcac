import WhiteLabel

/// An App Store storefront (ISO 3166-1 alpha-3, as StoreKit's `Storefront.countryCode`) and its currency.
public struct Storefront: Hashable, Sendable {
    public let countryCode: String
    public let currencyCode: String

    /// The storefronts the simulator knows; an unknown code is a configuration error.
    public static let known: [Storefront] = StorefrontCodes.currencies.map {
        Storefront(countryCode: $0.code, currencyCode: $0.currency)
    }

    public static func named(_ code: String) -> Storefront? {
        known.first { $0.countryCode == code }
    }
}
