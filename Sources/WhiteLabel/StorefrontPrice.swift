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
        let fraction = parts.count > 1 ? Array(parts[1]) : []
        guard fraction.count > places else { return price }
        var digits = (Array(parts[0]) + fraction.prefix(places)).compactMap(\.wholeNumberValue)
        let dropped = fraction.dropFirst(places).compactMap(\.wholeNumberValue)
        let first = dropped.first ?? 0
        let rest = dropped.dropFirst().contains { $0 != 0 }
        if first > 5 || (first == 5 && (rest || (digits.last ?? 0) % 2 == 1)) { increment(&digits) }
        let paid = (Array(parts[0]) + fraction).contains { $0 != "0" && $0 != "." }
        if paid && digits.allSatisfy({ $0 == 0 }) {
            digits = Array(repeating: 0, count: max(digits.count, places + 1))
            digits[digits.count - 1] = 1
        }
        let whole = digits.dropLast(places).map(String.init).joined().drop { $0 == "0" }
        let text = whole.isEmpty ? "0" : String(whole)
        return places == 0 ? text : text + "." + digits.suffix(places).map(String.init).joined()
    }

    private static func increment(_ digits: inout [Int]) {
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] < 9 {
                digits[index] += 1
                return
            }
            digits[index] = 0
            index -= 1
        }
        digits.insert(1, at: 0)
    }
}
