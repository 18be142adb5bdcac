import FoundationEssentials
import SimKernel
import WhiteLabel

/// A price written as ICU's currency format (`NumberFormatter`, `.currency`) writes it, from a small table: the
/// decimal and grouping separators, where the symbol goes and each currency's symbol, per locale. ICU and the
/// rest of Foundation cost the process about 10 MB of memory for this one job. `PriceFormatTests` holds the
/// table to NumberFormatter's output, byte for byte, for every locale here × every storefront's currency.
struct PriceFormat {
    /// Where the symbol goes: before the digits (a symbol ending in a letter then takes a no-break space, as
    /// ICU's currency spacing does), before them with a no-break space, or after them with one.
    enum Position { case before, beforeSpaced, after }

    let decimal: String
    let grouping: String
    /// Spanish, Italian and European Portuguese leave a four-digit amount ungrouped: 1234,50 but 12.345,00.
    let minimumGroupingDigits: Int
    let position: Position
    let symbols: [String: String]

    /// The locale's format: its own entry, else its language's, else ICU's root locale.
    static func forLocale(_ identifier: String) -> PriceFormat {
        let normalized = identifier.replacingPlainly("-", with: "_")
        if let format = table[normalized] { return format }
        let language = String(normalized.prefix { $0 != "_" })
        return table[language] ?? root
    }

    func string(_ amount: Decimal, currencyCode: String) -> String {
        let fractionDigits = currencyCode == "JPY" ? 0 : 2
        let (negative, whole, fraction) = DecimalDigits.rounded("\(amount)", fractionDigits: fractionDigits)
        var number = group(whole)
        if fractionDigits > 0 { number += decimal + fraction }
        let symbol = symbols[currencyCode] ?? currencyCode
        let sign = negative ? "-" : ""
        switch position {
        case .before:
            let endsInLetter = symbol.unicodeScalars.last?.properties.isAlphabetic ?? false
            return sign + symbol + (endsInLetter ? Self.noBreakSpace : "") + number
        case .beforeSpaced: return sign + symbol + Self.noBreakSpace + number
        case .after: return sign + number + Self.noBreakSpace + symbol
        }
    }

    private func group(_ whole: String) -> String {
        let digits = Array(whole)
        guard digits.count >= 3 + minimumGroupingDigits else { return whole }
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += grouping }
            out.append(digit)
        }
        return out
    }

    static let noBreakSpace = "\u{A0}"
}

extension Decimal {
    /// Rounded to `places` decimals, half away from zero: `NSDecimalRound(…, .plain)` without Foundation.
    func roundedPlain(places: Int) -> Decimal {
        let (negative, whole, fraction) = DecimalDigits.rounded("\(self)", fractionDigits: places, halfEven: false)
        return Decimal(string: (negative ? "-" : "") + whole + (places > 0 ? "." + fraction : "")) ?? self
    }
}

/// The locales the store formats prices for.
public enum PriceLocales {
    /// Whether the store formats prices for `identifier` (a locale such as `es_ES`), by its own entry or its language's
    /// as `PriceFormat.forLocale` does (es_AR as es: es_US was refused while es_ES was served, session 27): a phone set to
    /// it is one the store serves, its titles in English where the catalog has no translation (session 23).
    public static func isKnown(_ identifier: String) -> Bool {
        let normalized = identifier.replacingPlainly("-", with: "_")
        return PriceFormat.table[normalized] != nil || PriceFormat.table[language(of: normalized)] != nil
    }

    /// Why the store cannot serve `locale` for a catalog translated into `translated`, nil when it can: it is a locale
    /// (`english` or `en_us` is refused first, as a file's translations are, session 38), and the locale or another of
    /// its language is translated, or its language is one the store formats prices in (`check --locale`, and a
    /// scenario's `locale` line, which `play` ran without a word, in English: session 28).
    public static func problem(_ locale: String, translated: Set<String>) -> String? {
        if let problem = LocaleIdentifier.problem(locale) { return problem }
        let language = language(of: locale)
        guard !translated.contains(where: { $0 == locale || Self.language(of: $0) == language }), !isKnown(locale)
        else { return nil }
        return "no product is translated for \"\(locale)\" or its language, and the store has no prices in "
            + "\"\(language)\" (translated: \(translated.sorted().joined(separator: ", ")); the store's languages: "
            + "\(languages.joined(separator: ", ")))"
    }

    /// The languages the store formats prices in, sorted: any locale of one of them is served.
    public static var languages: [String] { PriceFormat.table.keys.filter { !$0.contains("_") }.sorted() }

    /// Why the store cannot answer a phone set to `locale`, nil when it can: in the locale's or its language's titles,
    /// or in English titles with the language's prices and words. One rule for a config's `store.locale`, `--locale`
    /// and a scenario's `locale` (session 28: es_ES was refused in a config, taken from the command line).
    public static func problem(_ locale: String, products: [StoreProductSpec]) -> String? {
        if locale.isEmpty { return "must not be empty" }
        return problem(locale, translated: Set(products.flatMap(\.localizations.keys)))
    }

    /// `es` of `es_US` (or `es-US`).
    public static func language(of identifier: String) -> String {
        String(identifier.prefix { $0 != "_" && $0 != "-" })
    }
}
