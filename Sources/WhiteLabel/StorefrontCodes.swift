/// The App Store storefronts the simulator sells in (ISO 3166-1 alpha-3) and their currencies: StoreSim's
/// `Storefront.known`, here so a config naming one is checked where it is read, with its field path (session 28:
/// `store.storefronts: ["BEL"]` was refused as `store.products[0].prices.BEL`, a field the config did not have).
public enum StorefrontCodes {
    public static let currencies: [(code: String, currency: String)] = [
        ("USA", "USD"), ("CAN", "CAD"), ("GBR", "GBP"), ("FRA", "EUR"), ("DEU", "EUR"), ("ESP", "EUR"),
        ("ITA", "EUR"), ("JPN", "JPY"), ("AUS", "AUD"), ("BRA", "BRL"), ("CHE", "CHF"),
    ]

    public static let known: [String] = currencies.map(\.code)

    /// The storefront's currency and how many decimals its prices have (the yen none).
    public static func currency(of storefront: String) -> (code: String, decimals: Int)? {
        currencies.first { $0.code == storefront }.map { ($0.currency, $0.currency == "JPY" ? 0 : 2) }
    }

    /// "USA, CAN, …", for a message naming the storefronts there are.
    public static var list: String { known.joined(separator: ", ") }
}
