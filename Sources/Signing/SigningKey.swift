import CCrypto
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ES256 (ECDSA P-256, SHA-256) private key held by libcrypto: what Apple signs App Store Server
/// Notifications V2, StoreKit 2 transactions and promotional offers with. Made from 32 seed bytes, so a
/// seeded world always holds the same key (ECDSA's nonce is libcrypto's: signatures differ run to run).
/// The same seed also names the Ed25519 key earlier builds signed with, so their envelopes still verify.
public final class SigningKey {
    private let seed: [UInt8]
    /// Made at first use: deriving a key is a scalar multiplication and libcrypto's key import, and a
    /// fuzz session that never signs a promotional offer need not pay for the backend's offer key.
    private var made: Material?
    private var material: Material {
        if let made { return made }
        let material = Material(seed: seed)
        made = material
        return material
    }

    public init?(seed: [UInt8]) {
        guard seed.count == 32 else { return nil }
        self.seed = seed
    }

    private var key: OpaquePointer? { material.key }
    /// The public half; its point is empty (and verifies nothing) only if libcrypto could not make the key.
    public var publicKey: VerifyingKey { material.publicKey }
    /// The JWS header this key signs under, encoded once.
    var header: String { material.header }
    private var signer: Signer { material.signer }

    /// The key pair, its public half, its JWS header and its signing context, made together once.
    private struct Material {
        let key: OpaquePointer?
        let publicKey: VerifyingKey
        let header: String
        let signer: Signer

        init(seed: [UInt8]) {
            // A scalar below the group's order from the seed (a hash; again with a counter in the rare case not).
            var point = [UInt8](repeating: 0, count: 65)
            var scalar: [UInt8] = []
            for counter in 0..<UInt8.max {
                scalar = Digest.sha256(Array("es256".utf8) + seed + [counter])
                if pws_p256_public_point(P256Group.shared.group, scalar, &point) == 1 { break }
            }
            key = pws_p256_key(scalar, point)
            // The verifying half shares the pair: importing the point again cost as much as a verification.
            publicKey = VerifyingKey(p256: key == nil ? [] : point, legacySeed: seed, sharing: key)
            header = SignedEnvelope.header(for: publicKey)
            signer = Signer(key: key)
        }
    }

    deinit { if let key = made?.key { EVP_PKEY_free(key) } }

    /// The ES256 signature of `message`: r and s, 32 bytes each, as JWS carries it.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { sign($0) }
    }

    /// The same, of bytes where they lie: a receipt's signing input is megabytes, signed where it is written.
    func sign(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let key else { return [] }
        var signature = [UInt8](repeating: 0, count: 64)
        guard let context = signer.context, let sha256 = signer.sha256 else {
            return pws_es256_sign(key, message.baseAddress, message.count, &signature) == 1 ? signature : []
        }
        var digest = [UInt8](repeating: 0, count: 32)
        guard pws_es256_sign_with(context, sha256, message.baseAddress, message.count, &signature, &digest) == 1
        else { return [] }
        publicKey.held.made?.note(signature, of: digest, message: message)
        return signature
    }

    /// The ES256 signature of a message whose SHA-256 is `digest` (`EnvelopeSealer` hashes a receipt on
    /// from a kept state).
    func sign(digest: [UInt8]) -> [UInt8] {
        guard digest.count == 32 else { return [] }
        var signature = [UInt8](repeating: 0, count: 64)
        let signed =
            if let context = signer.context {
                pws_es256_sign_digest_with(context, digest, &signature)
            } else {
                pws_es256_sign_digest(key, digest, &signature)
            }
        guard signed == 1 else { return [] }
        publicKey.held.made?.note(signature, of: digest)
        return signature
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

/// The P-256 group, made once for the process: every world derives its own keys from its seed, and building the
/// group from its name was a quarter of each derivation. libcrypto only reads it after (`EC_POINT_mul` takes it
/// `const`), from any thread; it lives as long as the process.
private final class P256Group: @unchecked Sendable {
    static let shared = P256Group()
    let group: OpaquePointer? = pws_p256_group()
}

/// A key's signing context and SHA-256, set up once (`pws_es256_signer`): EVP_DigestSignInit fetched the
/// algorithm and built a context for every signature. Either is nil when libcrypto could not make it, and
/// the key then signs as before.
private final class Signer {
    let context: OpaquePointer?
    let sha256: OpaquePointer?

    init(key: OpaquePointer?) {
        context = key.flatMap { pws_es256_signer($0) }
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
    }

    deinit {
        EVP_PKEY_CTX_free(context)
        EVP_MD_free(sha256)
    }
}

/// A public key: the ES256 point that checks `SigningKey`'s signatures, and the Ed25519 key of the same
/// seed, for envelopes an earlier build left in a state folder.
public struct VerifyingKey: Hashable, Sendable {
    /// The uncompressed P-256 point (65 bytes).
    public let rawBytes: [UInt8]
    /// libcrypto's key, made once: building it from the point costs as much as a verification.
    fileprivate let held: HeldKey
    private let legacy: LegacyKey

    /// The Ed25519 public key an earlier build's envelopes name, derived when first asked: few folders hold one.
    public var legacyEd25519: [UInt8] { legacy.publicKey }

    public init(p256: [UInt8], legacyEd25519: [UInt8]) {
        rawBytes = p256
        legacy = LegacyKey(publicKey: legacyEd25519)
        held = HeldKey(p256.count == 65 ? pws_p256_key(nil, p256) : nil)
    }

    /// The public half of a key pair libcrypto holds already (its reference is taken, not copied).
    init(p256: [UInt8], legacySeed: [UInt8], sharing pair: OpaquePointer?) {
        rawBytes = p256
        legacy = LegacyKey(seed: legacySeed)
        if let pair { EVP_PKEY_up_ref(pair) }
        held = HeldKey(pair, made: MadeSignatures())
    }

    public static func == (lhs: VerifyingKey, rhs: VerifyingKey) -> Bool {
        lhs.rawBytes == rhs.rawBytes && lhs.legacyEd25519 == rhs.legacyEd25519
    }

    public func hash(into hasher: inout Hasher) {
        // The point alone: equal keys have equal points, and the legacy key need not be derived to hash one.
        hasher.combine(rawBytes)
    }

    /// Whether `signature` (r||s) is this key's ES256 signature of `message`.
    /// A signature the key pair's own private half made of a message with this SHA-256 holds without the
    /// arithmetic: ECDSA's verification is a function of the key, the digest and the signature alone, and
    /// for a pair the key signed it is true (`MadeSignatures`). Anything else is verified.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == 64, let key = held.key else { return false }
        if let made = held.made, made.contains(signature, of: message) { return true }
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
    /// The signatures the private half made lately, when this is the public half of a `SigningKey`.
    let made: MadeSignatures?

    init(_ key: OpaquePointer?, made: MadeSignatures? = nil) {
        self.key = key
        self.made = made
    }

    deinit { if let key { EVP_PKEY_free(key) } }
}

/// The Ed25519 public key of a seed, as earlier builds signed with it: given, or derived once when asked.
private final class LegacyKey: Sendable {
    private let derived: Mutex<[UInt8]?>
    private let seed: [UInt8]

    init(publicKey: [UInt8]) {
        derived = Mutex(publicKey)
        seed = []
    }

    init(seed: [UInt8]) {
        derived = Mutex(nil)
        self.seed = seed
    }

    var publicKey: [UInt8] {
        derived.withLock { kept in
            if let kept { return kept }
            var length = 32
            var bytes = [UInt8](repeating: 0, count: 32)
            if let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, 32) {
                EVP_PKEY_get_raw_public_key(key, &bytes, &length)
                EVP_PKEY_free(key)
            }
            kept = bytes
            return bytes
        }
    }
}

/// The last signatures a `SigningKey` made, each with the SHA-256 of what it signed, and the message itself when it is
/// no longer than a notification (`keptMessageBytes`). The simulator verifies what it signed itself (the backend opens
/// the App Store's notifications and signed transaction and renewal info, a few milliseconds of virtual time later): a
/// signature found here with the same digest is one the private key made of that digest, which ECDSA's verification
/// answers true, so the arithmetic (most of a verification) is skipped. A message kept whole is compared byte for
/// byte, the same bytes having the same digest: hashing a notification again was most of what was left of its
/// verification. A forged or altered envelope, a signature this key did not make lately, or any key held apart from
/// its private half (`VerifyingKey(p256:legacyEd25519:)`) is verified as before. Bounded: the oldest is forgotten
/// first, and one forgotten is only verified again.
final class MadeSignatures: Sendable {
    static let capacity = 128
    /// A notification's signing input is a few kilobytes; a receipt's can be megabytes, and is kept by its digest.
    static let keptMessageBytes = 8_192

    private struct Made {
        let digest: [UInt8]
        /// Nil when longer than `keptMessageBytes`, or signed by its digest alone.
        let message: [UInt8]?
    }

    private struct Kept {
        var made: [[UInt8]: Made] = [:]
        var order: [[UInt8]] = []
        var next = 0
    }

    private let kept = Mutex(Kept())

    func note(_ signature: [UInt8], of digest: [UInt8], message: UnsafeBufferPointer<UInt8>? = nil) {
        let whole = message.flatMap { $0.count <= Self.keptMessageBytes ? Array($0) : nil }
        kept.withLock { kept in
            if kept.order.count < Self.capacity {
                kept.order.append(signature)
            } else {
                kept.made[kept.order[kept.next]] = nil
                kept.order[kept.next] = signature
                kept.next = (kept.next + 1) % Self.capacity
            }
            kept.made[signature] = Made(digest: digest, message: whole)
        }
    }

    /// Whether the private half made `signature` of a message with `message`'s SHA-256: its very bytes kept, or its
    /// digest the kept one (hashed only when the signature is kept and the bytes are not the same).
    func contains(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let made = kept.withLock({ $0.made[signature] }) else { return false }
        if let whole = made.message, Self.same(whole, message) { return true }
        return made.digest == Digest.sha256(message)
    }

    /// Whether two messages hold the same bytes, compared by `memcmp`.
    private static func same(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        guard !first.isEmpty else { return true }
        return first.withUnsafeBytes { one in
            second.withUnsafeBytes { other in
                guard let one = one.baseAddress, let other = other.baseAddress else { return false }
                return memcmp(one, other, first.count) == 0
            }
        }
    }
}
