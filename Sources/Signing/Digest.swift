import CCrypto

/// Hashes and MACs from libcrypto.
public enum Digest {
    public static func sha256(_ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        EVP_Digest(message, message.count, &output, &length, EVP_sha256(), nil)
        return output
    }

    public static func sha384(_ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 48)
        var length: UInt32 = 48
        EVP_Digest(message, message.count, &output, &length, EVP_sha384(), nil)
        return output
    }

    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &output, &length)
        return output
    }

    /// Compares two MACs in constant time.
    public static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.count == rhs.count && CRYPTO_memcmp(lhs, rhs, lhs.count) == 0
    }
}
