/// Lowercase hexadecimal, two characters a byte, as digests and token hashes are named in the ledger.
/// The ledger check names every refresh token this way after each write: a `String(radix:)` per byte
/// joined was a fortieth of a fuzz step.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(encode)
    }

    public static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer(encode)
    }

    /// Over the buffer, not a generic collection: iterating one through its protocol cost ten times as much.
    public static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
