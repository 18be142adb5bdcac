import CCrypto

/// Password hashing with PBKDF2-HMAC-SHA256 (libcrypto). The salt is per account; the
/// iteration count is stored with the hash so it can be raised later without breaking old accounts.
public struct PasswordHash: Equatable, Sendable {
    public let salt: [UInt8]
    public let iterations: Int
    public let hash: [UInt8]

    /// Fewer iterations than production's 600,000: the simulator hashes on every sign-up and log-in
    /// of a fuzz run, and the point here is the mechanism, not resistance to offline attack.
    public static let defaultIterations = 10_000
    /// For worlds nobody logs in to again (fuzzing, `--ephemeral`, scenarios): the same derivation at one
    /// iteration, since 10,000 were a quarter of a fuzz step. The count is stored, so log-in still checks it.
    public static let minimalIterations = 1

    public init(salt: [UInt8], iterations: Int, hash: [UInt8]) {
        self.salt = salt
        self.iterations = iterations
        self.hash = hash
    }

    public init(password: String, salt: [UInt8], iterations: Int = PasswordHash.defaultIterations) {
        self.salt = salt
        self.iterations = iterations
        self.hash = Self.derive(password, salt: salt, iterations: iterations)
    }

    /// Whether `password` is the one this hash was made from, compared in constant time.
    public func matches(_ password: String) -> Bool {
        Digest.constantTimeEqual(Self.derive(password, salt: salt, iterations: iterations), hash)
    }

    private static func derive(_ password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        let bytes = Array(password.utf8)
        let result = bytes.withUnsafeBufferPointer { passwordBuffer in
            passwordBuffer.withMemoryRebound(to: CChar.self) { passwordChars in
                PKCS5_PBKDF2_HMAC(
                    passwordChars.baseAddress, Int32(bytes.count), salt, Int32(salt.count), Int32(iterations),
                    EVP_sha256(), 32, &output)
            }
        }
        return result == 1 ? output : []
    }
}
