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
}
