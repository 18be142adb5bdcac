/// A seeded random number generator (SplitMix64): the only source of randomness in the engine,
/// so the same seed gives the same world.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A child generator for one part of the world, so adding draws in one part
    /// does not shift the numbers another part sees.
    public mutating func split() -> SeededGenerator {
        SeededGenerator(seed: next())
    }

    /// `count` random bytes, for keys and identifiers.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A lowercase hexadecimal string of `byteCount` random bytes.
    public mutating func hex(_ byteCount: Int) -> String {
        bytes(byteCount).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
