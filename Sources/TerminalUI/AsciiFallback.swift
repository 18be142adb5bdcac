@_spi(_Unicode) import Swift

/// A cell's text for a terminal whose locale cannot show UTF-8 (LANG=C): one ASCII character per cell, so
/// the frame keeps its columns. Borders become the ASCII border style's `+ - |`.
enum AsciiFallback {
    private static let table: [String: String] = [
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+",
        "╔": "+", "╗": "+", "╚": "+", "╝": "+", "─": "-", "═": "-", "│": "|", "║": "|",
        "↑": "^", "↓": "v", "→": ">", "←": "<", "▲": "^", "▼": "v", "▶": ">",
        "…": ".", "·": ".", "•": "*", "●": "*", "▤": "#", "—": "-", "–": "-", "✓": "v", "✗": "x", "×": "x",
        // A price's currency and the spaces and quotes around it keep one column each (a French price read "4,99??").
        "€": "E", "£": "L", "¥": "Y", "₹": "R", "\u{00A0}": " ", "\u{202F}": " ", "’": "'", "‘": "'", "“": "\"",
        "”": "\"", "«": "<", "»": ">",
        // The themes' logos: midnight's moon and playground's stars read "?" (session 30).
        "☾": "C", "☽": "C", "✦": "*", "✧": "*", "★": "*", "☆": "*",
    ]

    static func cell(_ text: String) -> String {
        // The right half of a wide character prints nothing in UTF-8; here the left half became one column.
        if text.isEmpty { return " " }
        if text.utf8.count == 1 { return text }
        if let known = table[text] { return known }
        return folded(text) ?? symbol(text) ?? "?"
    }

    /// A symbol with no stand-in of its own (a theme's logo may use any: `☾ midnight`) is a mark, `*`, not a
    /// question: "?" reads as text that could not be shown. Letters and digits of other scripts stay "?".
    static func symbol(_ text: String) -> String? {
        guard let scalar = text.unicodeScalars.first else { return nil }
        switch scalar.properties.generalCategory {
        case .otherSymbol, .mathSymbol: return "*"
        default: return nil
        }
    }

    /// One ASCII character for a letter with marks (é → e) or a full-width form (Ａ → A), as Foundation's
    /// `folding(options: [.diacriticInsensitive, .widthInsensitive])` gave it; nil for anything else. The
    /// canonical decomposition is the standard library's own (`_nfd`, SPI): Foundation has the public one.
    static func folded(_ text: String) -> String? {
        var kept: [Unicode.Scalar] = []
        for scalar in text._nfd {
            // Half-width voiced sound marks narrow to combining marks, which go with the other marks.
            if scalar.value == 0xFF9E || scalar.value == 0xFF9F { continue }
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
                || properties.isGraphemeExtend
            {
                continue
            }
            // A full-width ASCII form narrows to its ASCII character.
            let narrow = (0xFF01...0xFF5E).contains(scalar.value) ? Unicode.Scalar(scalar.value - 0xFEE0) : scalar
            kept.append(narrow ?? scalar)
        }
        guard kept.count == 1, kept[0].isASCII else { return nil }
        return String(Character(kept[0]))
    }
}
