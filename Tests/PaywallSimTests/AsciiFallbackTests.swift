import Testing

@testable import TerminalUI

/// Under LANG=C a price keeps its currency and its spaces, one column each: a French price read "4,99??" and
/// "Restaurer l?achat" (session 25).
@Suite struct AsciiFallbackTests {
    @Test(arguments: [
        ("4,99\u{202F}€ par mois", "4,99 E par mois"), ("£3.99", "L3.99"), ("Restaurer l’achat", "Restaurer l'achat"),
        ("¥500", "Y500"),
    ])
    func aPriceReadsInAscii(text: String, ascii: String) {
        #expect(text.map { AsciiFallback.cell(String($0)) }.joined() == ascii)
    }
}
