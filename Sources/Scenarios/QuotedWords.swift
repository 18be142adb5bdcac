/// Free text a step carries as words (an email, a password): written bare when it is one plain word, else in double
/// quotes with `\"` and `\\` escaped, so a recording of any password a reader typed ("correct horse", "pa#ss") reads
/// back the same.
enum QuotedWords {
    /// `text` as one word of a step.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty && !text.contains { $0.isWhitespace || $0 == "\"" || $0 == "#" || $0 == "\\" }
        guard !plain else { return text }
        let escaped = text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    /// The words of `text`: bare words split at spaces, quoted ones kept whole and unescaped.
    static func split(_ text: String) throws(StepError) -> [String] {
        var words: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index].isWhitespace {
                index = text.index(after: index)
                continue
            }
            guard text[index] == "\"" else {
                let end = text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
                words.append(String(text[index..<end]))
                index = end
                continue
            }
            var word = ""
            index = text.index(after: index)
            var closed = false
            while index < text.endIndex {
                let character = text[index]
                index = text.index(after: index)
                if character == "\"" {
                    closed = true
                    break
                }
                if character == "\\", index < text.endIndex {
                    word.append(text[index])
                    index = text.index(after: index)
                } else {
                    word.append(character)
                }
            }
            guard closed else { throw StepError("a quoted word has no closing \"") }
            words.append(word)
        }
        return words
    }
}
