import Foundation
import Signing
import SimKernel
import Testing

/// The hand-written base64url is Foundation's base64 with `+/` swapped for `-_` and no padding.
@Suite struct Base64URLTests {
    @Test func encodingIsFoundationsBase64URL() {
        var generator = SeededGenerator(seed: 22)
        for length in 0..<300 {
            let bytes = generator.bytes(length)
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
            var appended = Array("prefix.".utf8)
            Base64URL.encode(bytes, appendingTo: &appended)
            #expect(String(decoding: appended, as: UTF8.self) == "prefix." + expected)
        }
    }

    /// Foundation's reading, as the decoder read before it was written by table: `-_` swapped for `+/`,
    /// padded with `=` to a whole group, then `Data(base64Encoded:)`.
    private static func foundationDecode(_ text: [UInt8]) -> [UInt8]? {
        var base64 = text.map {
            $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(base64)).map(Array.init)
    }

    /// Every encoding of bytes, with or without its padding, in either alphabet, reads as Foundation reads it.
    @Test func anEncodingReadsAsFoundationReadsIt() {
        var generator = SeededGenerator(seed: 23)
        for length in 0..<200 {
            let bytes = generator.bytes(length)
            let plain = Data(bytes).base64EncodedString()
            for text in [plain, plain.replacingOccurrences(of: "=", with: ""), Base64URL.encode(bytes)] {
                #expect(Base64URL.decode(text) == bytes, "\(text)")
                #expect(Base64URL.decode(Array(text.utf8)) == Self.foundationDecode(Array(text.utf8)))
            }
        }
    }

    /// Any other text is refused or read as Foundation reads it: never read where Foundation refuses it,
    /// never read otherwise. (Foundation also reads a few malformed paddings, `AB=A` or `ABCD====`, which
    /// are refused: no JWS or token part has padding.)
    @Test func anyOtherTextIsRefusedOrReadAsFoundationReadsIt() {
        var generator = SeededGenerator(seed: 24)
        let alphabet = Array("AQgw09-_+/=. \n\u{00}é".utf8)
        var read = 0
        for _ in 0..<5_000 {
            let text = (0..<Int(generator.next() % 12)).map { _ in
                alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            let decoded = Base64URL.decode(text)
            if let decoded {
                read += 1
                #expect(decoded == Self.foundationDecode(text), "\(String(decoding: text, as: UTF8.self))")
            } else if let accepted = Self.foundationDecode(text) {
                // Only Foundation's readings of padding in the wrong place differ.
                #expect(
                    text.contains(UInt8(ascii: "=")), "\(String(decoding: text, as: UTF8.self)) read as \(accepted)")
            }
        }
        #expect(read > 100)
    }
}
