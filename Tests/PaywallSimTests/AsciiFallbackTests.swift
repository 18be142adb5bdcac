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

    /// Every character a shipped theme's logo uses has an ASCII stand-in: midnight's ☾ and playground's ✦ read "?"
    /// under LANG=C, newsprint's ▤ "#" (session 30).
    @Test(arguments: ["newsprint", "playground", "midnight"])
    func aThemesLogoReadsInAscii(name: String) throws {
        let logo = try TerminalFixture.theme(name).logo
        let ascii = logo.map { AsciiFallback.cell(String($0)) }.joined()
        #expect(!ascii.contains("?"), "\(name): \(ascii)")
        #expect(ascii.count == logo.count)
    }

    /// A symbol no table names (a theme's own) is a mark, not a question mark.
    @Test func anUnnamedSymbolIsAMark() {
        #expect(AsciiFallback.cell("♫") == "*")
        #expect(AsciiFallback.cell("☾") == "C")
    }
}
