import Foundation
import Signing
import SimKernel
import Testing

/// The ledger names refresh tokens by their hash in hex: the fast writer must name them as
/// `String(format: "%02x")` does, or a ledger written by an earlier build would read as tampered with.
@Suite struct HexTests {
    @Test func encodingIsTwoLowercaseDigitsAByte() {
        var generator = SeededGenerator(seed: 7)
        let everyByte = (0...255).map(UInt8.init)
        for bytes in [[], everyByte] + (0..<200).map({ generator.bytes($0 % 40) }) {
            let expected = bytes.map { String(format: "%02x", $0) }.joined()
            #expect(Hex.encode(bytes) == expected)
            #expect(Hex.encode(bytes.prefix(16)) == String(expected.prefix(32)))
        }
    }
}
