import SimKernel
import Testing

/// The 32-bytes-at-a-time checks answer what a byte-by-byte reading answers, wherever the odd byte is.
@Suite struct PlainJSONTextTests {
    private static func isPlainByte(_ byte: UInt8, slash: Bool) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != 0x22 && byte != 0x5C && !(slash && byte == 0x2F)
    }

    @Test func theChecksAgreeWithAByteByByteReading() {
        var generator = SeededGenerator(seed: 7)
        let odd: [UInt8] = [0x00, 0x1F, 0x20, 0x22, 0x2F, 0x5C, 0x7F, 0x80, 0xC3, 0xFF, 0x21, 0x5B, 0x5D]
        for length in 0..<100 {
            for position in 0..<max(length, 1) {
                for byte in odd {
                    var bytes = (0..<length).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 26) }
                    if length > 0 { bytes[position] = byte }
                    bytes.withUnsafeBufferPointer { buffer in
                        for slash in [false, true] {
                            #expect(
                                PlainJSONText.isPlain(buffer, refusingSlash: slash)
                                    == bytes.allSatisfy { Self.isPlainByte($0, slash: slash) })
                        }
                        let firstOdd = bytes.firstIndex { !Self.isPlainByte($0, slash: false) }
                        let expected = firstOdd.flatMap { bytes[$0] == 0x22 ? $0 : nil }
                        #expect(PlainJSONText.plainStringEnd(buffer, from: 0) == expected)
                    }
                }
            }
        }
    }
}
