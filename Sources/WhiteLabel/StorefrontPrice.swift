import SimKernel

/// A `.storekit` file's price number as a storefront sells it. Xcode prices a product once, and the simulator sells
/// that number in every storefront (4.99 is $4.99 and 4,99 €); a currency with fewer minor units than the number has
/// cannot charge it: 0.49 in the yen was shown "¥0" (ICU rounds it away) and charged 0.49, a paid introductory
/// offer told as free (session 34). The storefront's price is the number in the currency's minor units, rounded
/// half to even as the price is shown, so what the paywall and Apple's sheet show is what is charged; a paid price
/// never rounds to nothing: it is the currency's smallest unit (0.49 is ¥1, 4.99 is ¥5, 4.999 is $5.00).
public enum StorefrontPrice {
    /// `price` (digits with at most one ".", as the file's importer checked) as `storefront` charges it; an unknown
    /// storefront's, or one with the decimals the currency has, unchanged.
    public static func of(_ price: String, in storefront: String) -> String {
        guard let places = StorefrontCodes.currency(of: storefront)?.decimals else { return price }
        let parts = price.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count > 1, parts[1].count > places else { return price }
        var (_, whole, rounded) = DecimalDigits.rounded(price, fractionDigits: places)
        let paid = price.contains { $0 != "0" && $0 != "." }
        if paid && (whole + rounded).allSatisfy({ $0 == "0" }) {
            // The currency's smallest unit: a paid price is never charged, or shown, as nothing.
            if places == 0 { whole = "1" } else { rounded = String(repeating: "0", count: places - 1) + "1" }
        }
        let trimmed = whole.drop { $0 == "0" }
        whole = trimmed.isEmpty ? "0" : String(trimmed)
        return places == 0 ? whole : whole + "." + rounded
    }
}
