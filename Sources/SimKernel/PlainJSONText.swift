/// Whether text can sit in a JSON string as it is: printable ASCII with nothing a JSON writer escapes.
/// Checked in blocks of 32 bytes with no branch inside, a loop the compiler turns into vector
/// instructions: a receipt is megabytes, and even eight bytes at a time the check was a quarter of a
/// step's instructions once a reader's history was long (`bench lifecycle` at 20,000 steps).
public enum PlainJSONText {
    /// Whether no byte is a control, non-ASCII, a quote or a backslash (nor a slash when `slash`, which
    /// `JSONEncoder` escapes).
    public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, refusingSlash slash: Bool = false) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return plainBlocks(base, bytes.count, slash: slash) == bytes.count / block * block
            && bytes[(bytes.count / block * block)...].allSatisfy { isPlainByte($0, slash: slash) }
    }

    /// Where the JSON string whose content starts at `start` ends (its closing quote), when nothing in it
    /// needs unescaping: nil at a control, non-ASCII byte or backslash first, or no closing quote.
    public static func plainStringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start <= bytes.count else { return nil }
        var index = start + plainBlocks(base + start, bytes.count - start, slash: false)
        while index < bytes.count {
            switch bytes[index] {
            case 0x22: return index
            case 0x20..<0x80 where bytes[index] != 0x5C: index += 1
            default: return nil
            }
        }
        return nil
    }

    private static let block = 32

    /// How many of the first `count` bytes, in whole blocks, come before the first block holding a byte
    /// that is not plain.
    private static func plainBlocks(_ base: UnsafePointer<UInt8>, _ count: Int, slash: Bool) -> Int {
        let slashByte: UInt8 = slash ? 0x2F : 0x22
        var index = 0
        while index + block <= count {
            var odd: UInt8 = 0
            for offset in 0..<block {
                let byte = base[index + offset]
                // Below 0x20 and from 0x80 up both wrap to 0x60 and above once 0x20 is taken away.
                odd |=
                    (byte &- 0x20 >= 0x60 ? 1 : 0) | (byte == 0x22 ? 1 : 0) | (byte == 0x5C ? 1 : 0)
                    | (byte == slashByte ? 1 : 0)
            }
            if odd != 0 { break }
            index += block
        }
        return index
    }

    private static func isPlainByte(_ byte: UInt8, slash: Bool) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != 0x22 && byte != 0x5C && !(slash && byte == 0x2F)
    }
}
