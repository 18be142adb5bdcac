/// Whether text can sit in a JSON string as it is: printable ASCII with nothing a JSON writer escapes.
/// Checked eight bytes at a time: a receipt is megabytes, and a byte-by-byte check was a tenth of a step.
public enum PlainJSONText {
    /// Whether no byte is a control, non-ASCII, a quote or a backslash (nor a slash when `slash`, which
    /// `JSONEncoder` escapes).
    public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, refusingSlash slash: Bool = false) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        var found: UInt64 = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            found |= word & high | below(word, 0x20) | equal(word, 0x22) | equal(word, 0x5C)
            if slash { found |= equal(word, 0x2F) }
            index += 8
        }
        guard found == 0 else { return false }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x80 || byte == 0x22 || byte == 0x5C || (slash && byte == 0x2F) { return false }
            index += 1
        }
        return true
    }

    /// Where the JSON string whose content starts at `start` ends (its closing quote), when nothing in it
    /// needs unescaping: nil at a control, non-ASCII byte or backslash first, or no closing quote.
    public static func plainStringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & high | below(word, 0x20) | equal(word, 0x22) | equal(word, 0x5C) != 0 { break }
            index += 8
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x22: return index
            case 0x20..<0x80 where bytes[index] != 0x5C: index += 1
            default: return nil
            }
        }
        return nil
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let high: UInt64 = 0x8080_8080_8080_8080

    /// High bit set in some byte iff a byte of `word` is below `limit` (given no byte at or above 0x80).
    private static func below(_ word: UInt64, _ limit: UInt64) -> UInt64 {
        (word &- ones &* limit) & ~word & high
    }

    /// High bit set in some byte iff a byte of `word` equals `value`.
    private static func equal(_ word: UInt64, _ value: UInt64) -> UInt64 {
        let zeroWhereEqual = word ^ (ones &* value)
        return (zeroWhereEqual &- ones) & ~zeroWhereEqual & high
    }
}
