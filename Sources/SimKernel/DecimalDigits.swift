/// A decimal number's plain digits rounded without Foundation's `Decimal` arithmetic: one rounding for the store's
/// shown prices (`PriceFormat`) and a `.storekit` file's price as a storefront sells it (`StorefrontPrice`), so what is
/// shown and what is charged round alike.
public enum DecimalDigits {
    /// `text` (a Decimal's plain digits, perhaps signed) rounded half to even to `fractionDigits`, as ICU rounds
    /// currency, or half away from zero (`halfEven` false), as `NSDecimalRound`'s `.plain` does. `whole` is "0" when
    /// no whole digit is left; `negative` is false for a number rounded to zero.
    public static func rounded(_ text: String, fractionDigits: Int, halfEven: Bool = true) -> (
        negative: Bool, whole: String, fraction: String
    ) {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var digits = Array(parts[0].isEmpty ? "0" : String(parts[0])).compactMap(\.wholeNumberValue)
        let fraction = parts.count > 1 ? Array(parts[1]).compactMap(\.wholeNumberValue) : []
        digits += (fraction + Array(repeating: 0, count: fractionDigits)).prefix(fractionDigits)
        let dropped = Array(fraction.dropFirst(fractionDigits))
        let first = dropped.first ?? 0
        let rest = dropped.dropFirst().contains { $0 != 0 }
        let roundsUp = first > 5 || (first == 5 && (!halfEven || rest || (digits.last ?? 0) % 2 == 1))
        if roundsUp { increment(&digits) }
        let wholeDigits = digits.dropLast(fractionDigits)
        var whole = wholeDigits.map(String.init).joined()
        if whole.isEmpty { whole = "0" }
        let zero = digits.allSatisfy { $0 == 0 }
        return (negative && !zero, whole, digits.suffix(fractionDigits).map(String.init).joined())
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
