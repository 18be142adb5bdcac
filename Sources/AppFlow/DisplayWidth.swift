/// How many terminal columns text takes, without a terminal: wide East Asian characters and emoji take two,
/// combining marks none. The phone's lines are wrapped by it, so a Japanese paywall fits a 40-column phone.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        guard isJoined(character) else { return of(scalar: scalar.value) }
        return joinedParts(character).reduce(0) { $0 + of($1) }
    }

    /// An emoji sequence joined by U+200D (👨‍👩‍👧): one glyph of two columns to some terminals, its parts side by
    /// side to others and to ncurses, so a row holding one lost its border (session 27). It is measured, wrapped and
    /// drawn as its parts, the joiners left out: the same width everywhere.
    public static func isJoined(_ character: Character) -> Bool {
        // Two parts and a joiner take at least 9 bytes: nearly every character drawn is answered by its length
        // (counting scalars made every frame 70 % slower, `bench render`).
        character.utf8.count >= 9 && character.unicodeScalars.contains { $0.value == 0x200D }
    }

    /// Whether `text` holds a joined sequence: the painter splits characters only then.
    public static func hasJoined(_ text: some StringProtocol) -> Bool {
        text.utf8.count >= 9 && text.unicodeScalars.contains { $0.value == 0x200D }
    }

    /// The parts of a joined sequence, each a character of its own; any other character alone.
    public static func joinedParts(_ character: Character) -> [Character] {
        guard isJoined(character) else { return [character] }
        return character.unicodeScalars.split(whereSeparator: { $0.value == 0x200D }).compactMap {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: $0)
            return String(scalars).first
        }
    }

    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// East Asian wide and emoji ranges, and zero-width marks.
    public static func of(scalar value: UInt32) -> Int {
        switch value {
        case 0..<0x20, 0x7F: return 0
        case 0x300...0x36F, 0x200B...0x200F, 0xFE00...0xFE0F: return 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    /// The first characters of `text` that fit in `columns`, and the rest; at least one character moves.
    static func split(_ text: String, at columns: Int) -> (head: String, rest: String) {
        var head = ""
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            let width = of(text[index])
            if used + width > columns && !head.isEmpty { break }
            head.append(text[index])
            used += width
            index = text.index(after: index)
        }
        return (head, String(text[index...]))
    }

    /// Like `split`, for wrapping a word too wide for its line: a closing mark (！ 。 、 」 …) never begins the next
    /// line, the rule of Japanese and Chinese typesetting; the characters before it go down with it (a Japanese
    /// win-back banner left "！" alone on a line, session 32).
    public static func wrapSplit(_ text: String, at columns: Int) -> (head: String, rest: String) {
        var (head, rest) = split(text, at: columns)
        while let first = rest.first, closesLine(first), head.count > 1, let last = head.popLast() {
            rest.insert(last, at: rest.startIndex)
        }
        return (head, rest)
    }

    /// The marks that may not begin a line (JIS X 4051's, punctuation and closing brackets).
    static func closesLine(_ character: Character) -> Bool {
        "、。，．・：；？！）］｝〕〉》」』】〙〗゛゜ヽヾゝゞ々ー,.:;?!)]}»".contains(character)
    }

    /// A word made of closing marks alone, as French sets "!" or "»" after a space.
    static func closesLine(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy(closesLine)
    }
}
