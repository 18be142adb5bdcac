import SimKernel
import Testing
import WhiteLabel

@testable import StoreSim

/// `String.replacingPlainly` (the store's words' and the owner's placeholders, matched on bytes for speed) answers
/// what `replacing(_:with:)` answers for every text, a placeholder beside a combining mark, a CR LF or another script
/// included: it falls back to `replacing` where a byte match may not be whole characters.
@Suite struct StoreWordsFillingTests {
    @Test func fillingAPlaceholderIsWhatReplacingDoes() {
        let templates = [
            "", "{price}", "{price}{price}", "{pri", "price}", "{{price}}", "{price} per {per}", "été {price} 😀",
            "e\u{301}{price}", "{price}e\u{301}", "{price}\u{301}", "日本{price}円", "no placeholder at all",
            "{length} free, then {price}", "{per}{length}{price}", "\r{price}\n", "a-b", "-\u{301}", "\r\n-\r\n",
            "🇫{price}🇷", "\u{200D}{length}\u{200D}", "\u{600}{price}",
        ]
        let values = ["", "$4.99", "4,99 €", "{price}", "e\u{301}", "😀", "\u{301}", "\n", "\r"]
        for template in templates {
            for target in ["{price}", "{length}", "-", "\n", "\r", "e\u{301}", "{"] {
                for value in values {
                    #expect(
                        template.replacingPlainly(target, with: value) == template.replacing(target, with: value),
                        "\(template.debugDescription) \(target.debugDescription) \(value.debugDescription)")
                }
            }
        }
    }

    @Test func theSheetsTermsInEveryLanguageAreFilled() {
        for locale in ["en_US", "fr_FR", "de_DE", "es_ES", "it_IT", "ja_JP", "pt_BR", "nl_NL"] {
            let words = StoreWords(locale: locale)
            for mode in [ProductDiscount.PaymentMode.freeTrial, .payUpFront, .payAsYouGo] {
                let offer = words.offerTerms(
                    mode: mode, price: "$0.99", period: CalendarPeriod(unit: .week, value: 1), count: 2)
                #expect(!offer.contains("{"), "\(locale) \(mode)")
            }
            for period in [CalendarPeriod(unit: .month, value: 1), CalendarPeriod(unit: .month, value: 3)] {
                let terms = words.sheetTerms(price: "$4.99", period: period, offer: "")
                #expect(terms.contains("$4.99"))
                #expect(!terms.contains("{"))
            }
            #expect(!words.sheetTerms(price: "$4.99", period: nil, offer: "").contains("{"))
        }
    }
}
