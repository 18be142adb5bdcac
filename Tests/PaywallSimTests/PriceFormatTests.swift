import Foundation
import Testing

@testable import StoreSim

/// The price table against ICU: every locale it holds × every storefront's currency × amounts from zero to
/// millions, including halves that round to even, must read exactly as NumberFormatter writes them.
@Suite struct PriceFormatTests {
    static let amounts = [
        "0", "0.5", "0.99", "1", "4.99", "9.995", "0.125", "0.135", "2.5", "3.5", "12.3", "99.99", "999.999", "1000",
        "1234.5", "9999.99", "12345.678", "123456", "1234567.89",
    ]

    private func icu(_ amount: Decimal, locale: String, currency: String) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: locale)
        formatter.currencyCode = currency
        return formatter.string(from: amount as NSDecimalNumber) ?? ""
    }

    @Test func everyLocaleAndStorefrontReadsAsICUWritesIt() throws {
        let currencies = Set(Storefront.known.map(\.currencyCode)).sorted()
        var checked = 0
        for locale in PriceFormat.table.keys.sorted() {
            for currency in currencies {
                for text in Self.amounts {
                    let amount = try #require(Decimal(string: text))
                    let ours = PriceFormat.forLocale(locale).string(amount, currencyCode: currency)
                    #expect(ours == icu(amount, locale: locale, currency: currency), "\(locale) \(currency) \(text)")
                    checked += 1
                }
            }
        }
        #expect(checked == PriceFormat.table.count * currencies.count * Self.amounts.count)
    }

    @Test func aRegionMissingFromTheTableUsesItsLanguage() {
        let amount = Decimal(string: "4.99")!
        #expect(PriceFormat.forLocale("fr_BE").string(amount, currencyCode: "EUR") == "4,99\u{A0}€")
        #expect(PriceFormat.forLocale("de-DE").string(amount, currencyCode: "EUR") == "4,99\u{A0}€")
    }

    @Test func theCatalogShowsTheTablesPrice() {
        let formatter = PriceFormatter(locale: "ja_JP", currencyCode: "JPY")
        #expect(
            formatter.string(Decimal(string: "1234.5")!)
                == icu(Decimal(string: "1234.5")!, locale: "ja_JP", currency: "JPY"))
    }
}
