/// Greedy word wrap by terminal columns; words longer than a line are cut.
public enum WordWrap {
    public static func lines(_ text: String, width: Int) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            var currentWidth = 0
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                var wordWidth = ColumnWidth.of(word)
                if currentWidth > 0 && currentWidth + 1 + wordWidth <= width {
                    current += " " + word
                    currentWidth += 1 + wordWidth
                    continue
                }
                if currentWidth > 0 {
                    lines.append(current)
                    current = ""
                    currentWidth = 0
                }
                if wordWidth > width {
                    var pieces = cut(word, width: width)
                    word = pieces.removeLast()
                    wordWidth = ColumnWidth.of(word)
                    lines += pieces
                }
                current = word
                currentWidth = wordWidth
            }
            lines.append(current)
        }
        return lines
    }

    /// `word` in pieces of at most `columns` columns, in one pass (an 800k tagline took 24 s when each
    /// piece copied the rest); a character wider than a line still goes alone.
    private static func cut(_ word: String, width columns: Int) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var used = 0
        for character in word {
            let width = ColumnWidth.of(character)
            if used + width > columns && !piece.isEmpty {
                pieces.append(piece)
                piece = ""
                used = 0
            }
            piece.append(character)
            used += width
        }
        pieces.append(piece)
        return pieces
    }
}
