import FoundationEssentials

/// Base64url without padding, as JWS and JWT write their parts. Works on bytes: the string
/// replacements it replaced were a quarter of the time of every signed receipt and notification.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Every twelve bits as their two characters, in memory order.
    private static let pairs: [UInt16] = (0..<4096).map { index in
        let first = UInt16(alphabet[index >> 6])
        let second = UInt16(alphabet[index & 0x3F])
        return first.littleEndian == first ? first | second << 8 : first << 8 | second
    }

    /// Written straight into the string's storage: going through Foundation's base64 and swapping
    /// characters after was a fifth of sealing a notification.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: encodedCount(bytes.count)) { write(bytes, to: $0) }
    }

    /// Appends the encoding of `bytes` to `output`, with no string in between.
    public static func encode(_ bytes: [UInt8], appendingTo output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: encodedCount(bytes.count)))
        output.withUnsafeMutableBufferPointer { buffer in
            _ = write(bytes, to: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    static func encodedCount(_ count: Int) -> Int { count / 3 * 4 + [0, 2, 3][count % 3] }

    static func write(_ bytes: [UInt8], to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { write($0, to: output) }
    }

    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var out = 0
        var index = 0
        func put(_ sextet: UInt32) {
            output[out] = alphabet[Int(sextet & 0x3F)]
            out += 1
        }
        let whole = bytes.count / 3 * 3
        precondition(output.count >= whole / 3 * 4)
        // Two characters per lookup and no bounds checks: this runs over every byte of a 2.5 MB receipt.
        pairs.withUnsafeBufferPointer { pairs in
            guard let source = bytes.baseAddress, let target = output.baseAddress else { return }
            let raw = UnsafeMutableRawPointer(target)
            while index < whole {
                let group = Int(source[index]) << 16 | Int(source[index + 1]) << 8 | Int(source[index + 2])
                raw.storeBytes(of: pairs[group >> 12], toByteOffset: out, as: UInt16.self)
                raw.storeBytes(of: pairs[group & 0xFFF], toByteOffset: out + 2, as: UInt16.self)
                index += 3
                out += 4
            }
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            put(group >> 18)
            put(group >> 12)
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            put(group >> 18)
            put(group >> 12)
            put(group >> 6)
        default: break
        }
        return out
    }

    /// Whether `byte` may appear in a JWS: the base64url alphabet and the dots between its parts.
    public static func isJWSByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var text = String(text)
        return text.withUTF8 { decode($0) }
    }

    /// Decodes base64url given as its ASCII bytes (`+` and `/` read too, and `=` padding at the end that
    /// makes a whole group of four, as Foundation's base64 reads them); nil for any other byte. By table:
    /// copying, swapping the characters and Foundation's decoder were 1.5 % of a fuzz run (every token
    /// checked, every JWS opened).
    public static func decode(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = bytes.withContiguousStorageIfAvailable({ decode($0) }) { return decoded }
        return Array(bytes).withUnsafeBufferPointer { decode($0) }
    }

    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = text.count
        while end > 0 && text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        // Padded to a whole group of four, the last group holds two, three or four characters.
        guard end % 4 != 1, text.count <= (end + 3) / 4 * 4 else { return nil }
        guard let source = text.baseAddress, end > 0 else { return end == 0 ? [] : nil }
        let count = end / 4 * 3 + [0, 0, 1, 2][end % 4]
        var valid = true
        let output = values.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let target = buffer.baseAddress, let table = table.baseAddress else { return }
                // Four characters at a time, no bounds checks: a JWS part is read whole this way.
                func sextets(_ at: Int, _ n: Int) -> UInt32 {
                    var group: UInt32 = 0
                    var invalid: UInt8 = 0
                    for offset in 0..<n {
                        let value = table[Int(source[at + offset])]
                        invalid |= value
                        group = group << 6 | UInt32(value & 0x3F)
                    }
                    if invalid & 0x80 != 0 { valid = false }
                    return group
                }
                var index = 0
                var out = 0
                while index + 4 <= end {
                    let group = sextets(index, 4)
                    target[out] = UInt8(truncatingIfNeeded: group >> 16)
                    target[out + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    target[out + 2] = UInt8(truncatingIfNeeded: group)
                    index += 4
                    out += 3
                }
                // The bits below the last whole byte are not checked, as Foundation does not.
                switch end - index {
                case 2: target[out] = UInt8(truncatingIfNeeded: sextets(index, 2) >> 4)
                case 3:
                    let group = sextets(index, 3)
                    target[out] = UInt8(truncatingIfNeeded: group >> 10)
                    target[out + 1] = UInt8(truncatingIfNeeded: group >> 2)
                default: break
                }
                initialized = count
            }
        }
        return valid ? output : nil
    }

    /// Each byte's six bits, 0xFF for a byte outside both alphabets.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(index) }
        values[Int(UInt8(ascii: "+"))] = 62
        values[Int(UInt8(ascii: "/"))] = 63
        return values
    }()
}
