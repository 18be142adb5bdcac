import SimKernel
import Testing

/// `UUIDText.lowercase` writes what the Strings it replaced joined, for every byte value in every place.
@Suite struct UUIDTextTests {
    /// The earlier form: each byte as a String, joined, then cut into its five groups.
    private func joined(_ bytes: [UInt8]) -> String {
        let hex = Array(bytes.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    @Test func matchesTheJoinedStrings() {
        var random = SeededGenerator(seed: 36)
        for round in 0..<2_000 {
            // Every byte value appears in every position across the rounds; longer inputs use their first 16.
            let bytes = (0..<(16 + round % 17)).map { index in
                index < 16 && round < 256
                    ? UInt8(truncatingIfNeeded: round &+ index) : UInt8(truncatingIfNeeded: random.next())
            }
            #expect(UUIDText.lowercase(bytes) == joined(bytes))
        }
    }
}
