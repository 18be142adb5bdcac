import CCrypto

/// The operating system's randomness through libcrypto (`RAND_bytes`): for what an attacker must not
/// guess, in a state folder (its keys, refresh tokens, offer nonces).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            fatalError("libcrypto has no randomness: nothing secret can be made")
        }
        return bytes
    }
}
