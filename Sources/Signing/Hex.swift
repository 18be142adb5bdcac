/// Lowercase hexadecimal, two characters a byte, as digests and token hashes are named in the ledger.
/// The ledger check names every refresh token this way after each write: a `String(radix:)` per byte
/// joined was a fortieth of a fuzz step.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            var index = 0
            for byte in bytes {
                output[index] = digits[Int(byte >> 4)]
                output[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
