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
        decode(Array(text.utf8))
    }

    /// Decodes base64url given as its ASCII bytes.
    public static func decode(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var base64 = Array(bytes)
        for index in base64.indices {
            switch base64[index] {
            case UInt8(ascii: "-"): base64[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): base64[index] = UInt8(ascii: "/")
            default: break
            }
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(base64)).map(Array.init)
    }
}
