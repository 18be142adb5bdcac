import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The secrets of one world: the App Store's signing key, the backend's token secret and its
/// In-App Purchase (offer) key, and where unguessable values (refresh tokens, nonces) come from.
/// A state folder gets its own, from the OS's randomness, kept in `keys` (owner-only, 0600);
/// an ephemeral world or a scenario derives them from its seed, so its runs stay byte-identical.
public final class Keyring {
    public let storeKeySeed: [UInt8]
    public let tokenSecret: [UInt8]
    public let offerKeySeed: [UInt8]
    /// Seeds the derivation of unguessable values; nil draws them from the OS (`SecureRandom`).
    private let derivationKey: HMACKey?
    private var derived: UInt64 = 0
    /// The token secret as an HMAC key, set up once for the MACs the backend derives from it.
    public private(set) lazy var tokenSecretKey = HMACKey(tokenSecret)

    init(storeKeySeed: [UInt8], tokenSecret: [UInt8], offerKeySeed: [UInt8], derivationKey: [UInt8]?) {
        self.storeKeySeed = storeKeySeed
        self.tokenSecret = tokenSecret
        self.offerKeySeed = offerKeySeed
        self.derivationKey = derivationKey.map(HMACKey.init)
    }

    /// Keys derived from a seed: the same seed, the same keys and values, for ephemeral worlds.
    public static func derived(seed: UInt64) -> Keyring {
        func key(_ label: String) -> [UInt8] { Digest.sha256(Array("paywall-sim \(label) \(seed)".utf8)) }
        return Keyring(
            storeKeySeed: key("app store key"), tokenSecret: key("token secret"), offerKeySeed: key("offer key"),
            derivationKey: key("derivations"))
    }

    /// `count` bytes nobody can guess: the OS's for a state folder, derived from the seed otherwise.
    public func unguessableBytes(_ count: Int) -> [UInt8] {
        guard let derivationKey else { return SecureRandom.bytes(count) }
        derived += 1
        return Array(derivationKey.mac(Array("\(derived)".utf8)).prefix(count))
    }

    // MARK: - A state folder's keys

    /// Why a folder's keys could not be read or written.
    public struct FileError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The keys of the state folder `directory`: read from its `keys` file, or made now from the OS's
    /// randomness when the folder is new. A folder made before it had keys (`legacy`: it holds records
    /// already) keeps the keys it was signed with, so its receipts and tokens stay valid.
    public static func folder(_ directory: String, legacy: Bool) throws(FileError) -> Keyring {
        let path = directory + "/keys"
        // Only a folder with no keys file gets new keys: one that cannot be read is never replaced, or every
        // receipt and sign-in the folder holds would stop verifying.
        guard let text = try kept(path) else { return try made(at: path, legacy: legacy) }
        let lines = text.split(separator: "\n").map { Base64URL.decode($0) }
        guard lines.count == 3, let store = lines[0], let token = lines[1], let offer = lines[2],
            store.count == 32, offer.count == 32, !token.isEmpty
        else { throw FileError(description: "\(path): not three base64url keys; it is left as it is") }
        return Keyring(storeKeySeed: store, tokenSecret: token, offerKeySeed: offer, derivationKey: nil)
    }

    /// The keys file's text; nil only when there is no such file.
    private static func kept(_ path: String) throws(FileError) -> String? {
        // Never through a symbolic link: the keys read would be whatever file it names (h3, session 29).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw FileError(
                    description: "\(path): a symbolic link, which the folder's secrets are never read through; it is "
                        + "left as it is")
            }
            throw FileError(
                description: "\(path): cannot be read (\(String(cString: strerror(errno)))); it is left as it is")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count == 0 { break }
            guard count > 0 else {
                throw FileError(
                    description: "\(path): cannot be read (\(String(cString: strerror(errno)))); it is left as it is")
            }
            bytes += chunk[..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(description: "\(path): not three base64url keys (not UTF-8 text); it is left as it is")
        }
        return text
    }

    /// New keys for a folder that has none, written owner-only.
    private static func made(at path: String, legacy: Bool) throws(FileError) -> Keyring {
        let keys =
            legacy
            ? Keyring(
                storeKeySeed: Digest.sha256(Array("paywall-sim app store receipt key".utf8)),
                tokenSecret: Digest.sha256(Array("paywall-sim backend token key".utf8)),
                offerKeySeed: Digest.sha256(Array("paywall-sim backend offer key".utf8)), derivationKey: nil)
            : Keyring(
                storeKeySeed: SecureRandom.bytes(32), tokenSecret: SecureRandom.bytes(32),
                offerKeySeed: SecureRandom.bytes(32), derivationKey: nil)
        let text =
            [keys.storeKeySeed, keys.tokenSecret, keys.offerKeySeed].map(Base64URL.encode)
            .joined(separator: "\n") + "\n"
        // Created owner-only (0600) before a byte is written, so the keys are never readable by others,
        // then renamed into place whole.
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw FileError(description: "\(path): cannot be written") }
        let bytes = Array(text.utf8)
        let written = write(descriptor, bytes, bytes.count)
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            throw FileError(description: "\(path): cannot be written")
        }
        return keys
    }
}
