import CCrypto

/// Hashes and MACs from libcrypto.
public enum Digest {
    public static func sha256(_ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        EVP_Digest(message, message.count, &output, &length, Algorithms.shared.sha256 ?? EVP_sha256(), nil)
        return output
    }

    public static func sha384(_ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 48)
        var length: UInt32 = 48
        EVP_Digest(message, message.count, &output, &length, EVP_sha384(), nil)
        return output
    }

    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACKey(key).mac(message)
    }

    /// Compares two MACs in constant time.
    public static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.count == rhs.count && CRYPTO_memcmp(lhs, rhs, lhs.count) == 0
    }
}

/// libcrypto's implementations, fetched once for the process: `EVP_sha256()` and `HMAC()` look theirs up
/// again on every call, which was most of hashing a short message (a token, a refresh token's name).
final class Algorithms: @unchecked Sendable {
    static let shared = Algorithms()
    let sha256: OpaquePointer?
    let hmac: OpaquePointer?

    private init() {
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        hmac = EVP_MAC_fetch(nil, "HMAC", nil)
    }
}

/// An HMAC-SHA256 key set up once: its pads are computed when it is made, and each message's MAC starts
/// from a copy. Whoever MACs many messages under one key (tokens, derived values) keeps one.
public final class HMACKey: @unchecked Sendable {
    /// Read only (each MAC works on a copy), so one key may serve any thread.
    private let keyed: OpaquePointer?
    private let key: [UInt8]

    public init(_ key: [UInt8]) {
        self.key = key
        keyed = Algorithms.shared.hmac.flatMap { pws_hmac_sha256_keyed($0, key, key.count) }
    }

    deinit { EVP_MAC_CTX_free(keyed) }

    public func mac(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { mac($0) }
    }

    public func mac(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        if let keyed, pws_hmac_sha256_mac(keyed, message.baseAddress, message.count, &output) == 1 { return output }
        // libcrypto's one-shot HMAC, should the kept context not be made.
        var length: UInt32 = 32
        HMAC(EVP_sha256(), key, Int32(key.count), message.baseAddress, message.count, &output, &length)
        return output
    }
}
