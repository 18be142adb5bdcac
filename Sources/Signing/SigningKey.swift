import CCrypto

/// An Ed25519 private key held by libcrypto. Made from 32 seed bytes, so a seeded world
/// always signs with the same key; Ed25519 signatures are deterministic too.
public final class SigningKey {
    private let key: OpaquePointer

    public init?(seed: [UInt8]) {
        guard seed.count == 32,
            let key = seed.withUnsafeBufferPointer({
                EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32)
            })
        else { return nil }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The 32-byte public key that verifies this key's signatures.
    public var publicKey: VerifyingKey {
        var length = 32
        var bytes = [UInt8](repeating: 0, count: 32)
        EVP_PKEY_get_raw_public_key(key, &bytes, &length)
        return VerifyingKey(rawBytes: bytes)
    }

    public func sign(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { return [] }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { return [] }
        var length = 64
        var signature = [UInt8](repeating: 0, count: 64)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { return [] }
        return Array(signature.prefix(length))
    }
}

/// An Ed25519 public key: checks signatures made by the matching `SigningKey`.
public struct VerifyingKey: Hashable, Sendable {
    public let rawBytes: [UInt8]

    public init(rawBytes: [UInt8]) {
        self.rawBytes = rawBytes
    }

    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard rawBytes.count == 32, signature.count == 64,
            let key = rawBytes.withUnsafeBufferPointer({
                EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32)
            })
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
