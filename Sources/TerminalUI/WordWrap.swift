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
                while wordWidth > width {
                    let (head, rest) = split(word, at: width)
                    lines.append(head)
                    word = rest
                    wordWidth = ColumnWidth.of(word)
                }
                current = word
                currentWidth = wordWidth
            }
            lines.append(current)
        }
        return lines
    }

    /// The first `columns` columns of `word` and the rest; at least one character moves, so wrapping ends.
    private static func split(_ word: String, at columns: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let width = ColumnWidth.of(word[index])
            if used + width > columns && !head.isEmpty { break }
            head.append(word[index])
            used += width
            index = word.index(after: index)
        }
        return (head, String(word[index...]))
    }
}
