import CCrypto

/// An ES256 (ECDSA P-256, SHA-256) private key held by libcrypto: what Apple signs App Store Server
/// Notifications V2, StoreKit 2 transactions and promotional offers with. Made from 32 seed bytes, so a
/// seeded world always holds the same key (ECDSA's nonce is libcrypto's: signatures differ run to run).
/// The same seed also names the Ed25519 key earlier builds signed with, so their envelopes still verify.
public final class SigningKey {
    private let key: OpaquePointer
    public let publicKey: VerifyingKey
    /// The JWS header this key signs under, encoded once.
    let header: String

    public init?(seed: [UInt8]) {
        guard seed.count == 32 else { return nil }
        // A scalar below the group's order from the seed (a hash; again with a counter in the rare case not).
        var point = [UInt8](repeating: 0, count: 65)
        var scalar: [UInt8] = []
        for counter in 0..<UInt8.max {
            scalar = Digest.sha256(Array("es256".utf8) + seed + [counter])
            if pws_p256_public_point(scalar, &point) == 1 { break }
        }
        guard let key = pws_p256_key(scalar, point),
            let legacy = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, 32)
        else { return nil }
        defer { EVP_PKEY_free(legacy) }
        var length = 32
        var legacyPublic = [UInt8](repeating: 0, count: 32)
        EVP_PKEY_get_raw_public_key(legacy, &legacyPublic, &length)
        self.key = key
        publicKey = VerifyingKey(p256: point, legacyEd25519: legacyPublic)
        header = SignedEnvelope.header(for: publicKey)
    }

    deinit { EVP_PKEY_free(key) }

    /// The ES256 signature of `message`: r and s, 32 bytes each, as JWS carries it.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { sign($0) }
    }

    /// The same, of bytes where they lie: a receipt's signing input is megabytes, signed where it is written.
    func sign(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        return pws_es256_sign(key, message.baseAddress, message.count, &signature) == 1 ? signature : []
    }

    /// The ES256 signature of a message whose SHA-256 is `digest` (`EnvelopeSealer` hashes a receipt on
    /// from a kept state).
    func sign(digest: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        return digest.count == 32 && pws_es256_sign_digest(key, digest, &signature) == 1 ? signature : []
    }

    /// The Ed25519 signature an earlier build made with this seed: only to make such envelopes in tests.
    public static func legacySignature(seed: [UInt8], _ message: [UInt8]) -> [UInt8] {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, 32),
            let context = EVP_MD_CTX_new()
        else { return [] }
        defer {
            EVP_MD_CTX_free(context)
            EVP_PKEY_free(key)
        }
        var length = 64
        var signature = [UInt8](repeating: 0, count: 64)
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
            EVP_DigestSign(context, &signature, &length, message, message.count) == 1
        else { return [] }
        return signature
    }
}

/// A public key: the ES256 point that checks `SigningKey`'s signatures, and the Ed25519 key of the same
/// seed, for envelopes an earlier build left in a state folder.
public struct VerifyingKey: Hashable, Sendable {
    /// The uncompressed P-256 point (65 bytes).
    public let rawBytes: [UInt8]
    public let legacyEd25519: [UInt8]
    /// libcrypto's key, made once: building it from the point costs as much as a verification.
    private let held: HeldKey

    public init(p256: [UInt8], legacyEd25519: [UInt8]) {
        rawBytes = p256
        self.legacyEd25519 = legacyEd25519
        held = HeldKey(p256.count == 65 ? pws_p256_key(nil, p256) : nil)
    }

    public static func == (lhs: VerifyingKey, rhs: VerifyingKey) -> Bool {
        lhs.rawBytes == rhs.rawBytes && lhs.legacyEd25519 == rhs.legacyEd25519
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawBytes)
        hasher.combine(legacyEd25519)
    }

    /// Whether `signature` (r||s) is this key's ES256 signature of `message`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == 64, let key = held.key else { return false }
        return pws_es256_verify(key, message, message.count, signature) == 1
    }

    /// Whether `signature` is the Ed25519 signature an earlier build made of `message` with this seed.
    public func isValidLegacySignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard legacyEd25519.count == 32, signature.count == 64,
            let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, legacyEd25519, 32)
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}

/// Owns a libcrypto public key; libcrypto's keys may be used from any thread once built.
private final class HeldKey: @unchecked Sendable {
    let key: OpaquePointer?

    init(_ key: OpaquePointer?) { self.key = key }

    deinit { EVP_PKEY_free(key) }
}
