import CNcurses

/// How many terminal columns text takes: what `wcwidth` says, measured the way the painter draws.
public enum ColumnWidth {
    /// Columns taken by one character: 0 for combining and control characters, 2 for wide ones.
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x20 || value == 0x7F { return 0 }
        if value < 0x300 { return 1 }
        let width = pws_wcwidth(value)
        if width >= 0 { return Int(width) }
        // `wcwidth` answers -1 for every non-ASCII character until the locale is set (tests never set it).
        return fallback(value)
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

    /// East Asian wide and emoji ranges, so widths stay right without a locale.
    private static func fallback(_ value: UInt32) -> Int {
        switch value {
        case 0x300...0x36F, 0x200B...0x200F, 0xFE00...0xFE0F: return 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }
}
