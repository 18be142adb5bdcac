/// The table behind `PriceFormat`, copied from the ICU data Foundation ships on Linux (Swift 6.3). A locale missing
/// here uses its language's entry, else the root locale's: add a row (and its test) before relying on one.
extension PriceFormat {
    static let table: [String: PriceFormat] = [
        "en_US": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "A$", "BRL": "R$",
                "CHF": "CHF",
            ]),
        "en_GB": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "US$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JP\u{A5}", "AUD": "A$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "en_CA": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "US$", "CAD": "$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JP\u{A5}", "AUD": "A$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "en_AU": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "USD", "CAD": "CAD", "GBP": "GBP", "EUR": "EUR", "JPY": "JPY", "AUD": "$", "BRL": "BRL",
                "CHF": "CHF",
            ]),
        "fr_FR": PriceFormat(
            decimal: ",", grouping: "\u{202F}", minimumGroupingDigits: 1, position: .after,
            symbols: [
                "USD": "$US", "CAD": "$CA", "GBP": "\u{A3}GB", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "$AU",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "fr_CA": PriceFormat(
            decimal: ",", grouping: "\u{A0}", minimumGroupingDigits: 1, position: .after,
            symbols: [
                "USD": "$\u{A0}US", "CAD": "$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "$\u{A0}AU",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "fr_CH": PriceFormat(
            decimal: ",", grouping: "\u{202F}", minimumGroupingDigits: 1, position: .beforeSpaced,
            symbols: [
                "USD": "$US", "CAD": "$CA", "GBP": "\u{A3}GB", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "$AU",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "de_DE": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 1, position: .after,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "AU$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "de_CH": PriceFormat(
            decimal: ".", grouping: "\u{2019}", minimumGroupingDigits: 1, position: .beforeSpaced,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "EUR", "JPY": "\u{A5}", "AUD": "AU$", "BRL": "R$",
                "CHF": "CHF",
            ]),
        "de_AT": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 1, position: .beforeSpaced,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "AU$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "es_ES": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 2, position: .after,
            symbols: [
                "USD": "US$", "CAD": "CAD", "GBP": "GBP", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "AUD", "BRL": "BRL",
                "CHF": "CHF",
            ]),
        "es_MX": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "USD", "CAD": "CAD", "GBP": "GBP", "EUR": "EUR", "JPY": "JPY", "AUD": "AUD", "BRL": "BRL",
                "CHF": "CHF",
            ]),
        // US Spanish writes prices as US English does, not as Spain does ("4,99 US$" on a US phone, session 28).
        "es_US": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "AUD",
                "BRL": "BRL", "CHF": "CHF",
            ]),
        "it_IT": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 2, position: .after,
            symbols: [
                "USD": "USD", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "A$", "BRL": "BRL",
                "CHF": "CHF",
            ]),
        "ja_JP": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "A$", "BRL": "R$",
                "CHF": "CHF",
            ]),
        "pt_BR": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 1, position: .beforeSpaced,
            symbols: [
                "USD": "US$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JP\u{A5}", "AUD": "AU$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "pt_PT": PriceFormat(
            decimal: ",", grouping: "\u{A0}", minimumGroupingDigits: 2, position: .after,
            symbols: [
                "USD": "US$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JP\u{A5}", "AUD": "AU$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "en": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "A$", "BRL": "R$",
                "CHF": "CHF",
            ]),
        "fr": PriceFormat(
            decimal: ",", grouping: "\u{202F}", minimumGroupingDigits: 1, position: .after,
            symbols: [
                "USD": "$US", "CAD": "$CA", "GBP": "\u{A3}GB", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "$AU",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "de": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 1, position: .after,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "AU$",
                "BRL": "R$", "CHF": "CHF",
            ]),
        "es": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 2, position: .after,
            symbols: [
                "USD": "US$", "CAD": "CAD", "GBP": "GBP", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "AUD", "BRL": "BRL",
                "CHF": "CHF",
            ]),
        "it": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 2, position: .after,
            symbols: [
                "USD": "USD", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JPY", "AUD": "A$", "BRL": "BRL",
                "CHF": "CHF",
            ]),
        "ja": PriceFormat(
            decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .before,
            symbols: [
                "USD": "$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "\u{A5}", "AUD": "A$", "BRL": "R$",
                "CHF": "CHF",
            ]),
        "pt": PriceFormat(
            decimal: ",", grouping: ".", minimumGroupingDigits: 1, position: .beforeSpaced,
            symbols: [
                "USD": "US$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JP\u{A5}", "AUD": "AU$",
                "BRL": "R$", "CHF": "CHF",
            ]),
    ]

    /// ICU's root locale: what an identifier with no known language gets.
    static let root = PriceFormat(
        decimal: ".", grouping: ",", minimumGroupingDigits: 1, position: .beforeSpaced,
        symbols: [
            "USD": "US$", "CAD": "CA$", "GBP": "\u{A3}", "EUR": "\u{20AC}", "JPY": "JP\u{A5}", "AUD": "A$", "BRL": "R$",
            "CHF": "CHF",
        ])
}
