/// An App Store storefront (ISO 3166-1 alpha-3, as StoreKit's `Storefront.countryCode`) and its currency.
public struct Storefront: Hashable, Sendable {
    public let countryCode: String
    public let currencyCode: String

    /// The storefronts the simulator knows; an unknown code is a configuration error.
    public static let known: [Storefront] = [
        Storefront(countryCode: "USA", currencyCode: "USD"),
        Storefront(countryCode: "CAN", currencyCode: "CAD"),
        Storefront(countryCode: "GBR", currencyCode: "GBP"),
        Storefront(countryCode: "FRA", currencyCode: "EUR"),
        Storefront(countryCode: "DEU", currencyCode: "EUR"),
        Storefront(countryCode: "ESP", currencyCode: "EUR"),
        Storefront(countryCode: "ITA", currencyCode: "EUR"),
        Storefront(countryCode: "JPN", currencyCode: "JPY"),
        Storefront(countryCode: "AUS", currencyCode: "AUD"),
        Storefront(countryCode: "BRA", currencyCode: "BRL"),
        Storefront(countryCode: "CHE", currencyCode: "CHF"),
    ]

    public static func named(_ code: String) -> Storefront? {
        known.first { $0.countryCode == code }
    }
}
