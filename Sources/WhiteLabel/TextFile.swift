import FoundationEssentials

/// Where a problem is in a file's bytes, in the terms a person editing it uses: line and column.
public enum TextFile {
    /// The file's text; a `ConfigError` naming the file (and the line and column of the first byte that
    /// is not UTF-8) when it cannot be read as text.
    public static func read(path: String) throws(ConfigError) -> String {
        let data = try JSONFileDecoder.readData(atPath: path)
        return try text(data, file: path)
    }

    /// `data` as UTF-8 text, or a `ConfigError` at the first byte that is not.
    public static func text(_ data: Data, file: String) throws(ConfigError) -> String {
        if let text = String(bytes: data, encoding: .utf8) { return text }
        let offset = firstInvalidUTF8(Array(data)) ?? 0
        throw ConfigError(file: file, location: location(of: offset, in: data), message: "is not UTF-8 text")
    }

    /// `line 3, column 5` for the byte at `offset`.
    static func location(of offset: Int, in data: Data) -> String {
        let before = data.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - data.startIndex + 1 } ?? 0
        return "line \(line), column \(offset - lineStart + 1)"
    }

    /// The offset of the first byte that does not begin or continue a valid UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            if length == 0 { return index }
            index += length
        }
        return nil
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        let continuation = bytes[(index + 1)..<(index + length)]
        guard continuation.allSatisfy({ $0 & 0xC0 == 0x80 }) else { return 0 }
        let second = bytes[index + 1]
        // Overlong forms, surrogates and code points past U+10FFFF.
        if lead == 0xE0 && second < 0xA0 { return 0 }
        if lead == 0xED && second > 0x9F { return 0 }
        if lead == 0xF0 && second < 0x90 { return 0 }
        if lead == 0xF4 && second > 0x8F { return 0 }
        return length
    }
}
