import Signing
import Synchronization

/// The audit chain's SHA-256, kept by the bytes hashed: the server hashes each row as it writes it, and the check after
/// every step and the whole check at a session's end hash it again (759 hashes again for the 369 rows a 30-run fuzz
/// wrote, 8 M instructions). A digest is a function of the bytes alone, so a kept one is the answer; a row edited or a
/// chain broken is other bytes, hashed anew.
enum ChainDigests {
    /// The bytes as a key hashed in one pass: an array of bytes hashes each byte on its own, nearly SHA-256's cost.
    private struct Message: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    private static let kept = Mutex<[Message: [UInt8]]>([:])

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        let message = Message(bytes: bytes)
        if let digest = kept.withLock({ $0[message] }) { return digest }
        let digest = Digest.sha256(bytes)
        kept.withLock { kept in
            if kept.count >= 256 { kept.removeAll() }  // bounded: a session writes a dozen rows or so
            kept[message] = digest
        }
        return digest
    }
}
