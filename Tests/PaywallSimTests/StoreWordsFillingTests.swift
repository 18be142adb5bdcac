import SimKernel
import Testing

@testable import StoreSim

/// `String.filling` (the store's words' placeholders) answers what `replacing(_:with:)` answers, for every
/// text but one whose placeholder is followed by a combining mark (`replacing` compares characters, and
/// no template of the store's words has one).
@Suite struct StoreWordsFillingTests {
    @Test func fillingAPlaceholderIsWhatReplacingDoes() {
        let templates = [
            "", "{price}", "{price}{price}", "{pri", "price}", "{{price}}", "{price} per {per}", "été {price} 😀",
            "e\u{301}{price}", "{price}e\u{301}", "日本{price}円", "no placeholder at all",
            "{length} free, then {price}", "{per}{length}{price}",
        ]
        let values = ["", "$4.99", "4,99 €", "{price}", "e\u{301}", "😀", "\u{301}"]
        for template in templates {
            for value in values {
                #expect(template.filling("{price}", with: value) == template.replacing("{price}", with: value))
                #expect(template.filling("{length}", with: value) == template.replacing("{length}", with: value))
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
