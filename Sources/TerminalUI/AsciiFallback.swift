import Foundation

/// A cell's text for a terminal whose locale cannot show UTF-8 (LANG=C): one ASCII character per cell, so
/// the frame keeps its columns. Borders become the ASCII border style's `+ - |`.
enum AsciiFallback {
    private static let table: [String: String] = [
        "┌": "+", "┐": "+", "└": "+", "┘": "+", "╭": "+", "╮": "+", "╰": "+", "╯": "+",
        "╔": "+", "╗": "+", "╚": "+", "╝": "+", "─": "-", "═": "-", "│": "|", "║": "|",
        "↑": "^", "↓": "v", "→": ">", "←": "<", "▲": "^", "▼": "v", "▶": ">",
        "…": ".", "·": ".", "•": "*", "●": "*", "▤": "#", "—": "-", "–": "-", "✓": "v", "✗": "x", "×": "x",
    ]

    static func cell(_ text: String) -> String {
        // The right half of a wide character prints nothing in UTF-8; here the left half became one column.
        if text.isEmpty { return " " }
        if text.utf8.count == 1 { return text }
        if let known = table[text] { return known }
        let folded = text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.utf8.count == 1 ? folded : "?"
    }
}
