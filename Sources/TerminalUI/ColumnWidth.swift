import AppFlow
import CNcurses

/// How many terminal columns text takes: what `wcwidth` says, measured the way the painter draws.
public enum ColumnWidth {
    /// Columns taken by one character: 0 for combining and control characters, 2 for wide ones.
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        // Drawn as its parts (`Frame.write`), a joined emoji sequence takes their columns.
        if DisplayWidth.isJoined(character) { return DisplayWidth.joinedParts(character).reduce(0) { $0 + of($1) } }
        let value = scalar.value
        if value < 0x20 || value == 0x7F { return 0 }
        if value < 0x300 { return 1 }
        let width = pws_wcwidth(value)
        if width >= 0 { return Int(width) }
        // `wcwidth` answers -1 for every non-ASCII character until the locale is set (tests never set it):
        // then the phone's own table, which wraps its lines.
        return DisplayWidth.of(scalar: value)
    }

    /// Columns taken by a string.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The longest prefix of `text` that fits in `columns`, ending in `…` when something was cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }
}
