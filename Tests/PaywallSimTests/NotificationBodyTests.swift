import Foundation
import SimKernel
import Testing

@testable import Simulation

/// App Store Connect's post to the backend is written around the JWS's bytes: it must be what
/// `JSONEncoder` writes for `["signedPayload": payload]`, whatever the payload holds.
@Suite struct NotificationBodyTests {
    private static var payloads: [String] {
        var generator = SeededGenerator(seed: 31)
        let alphabet = Array("ABCxyz019-_.".utf8)
        let jws = (0..<20).map { length in
            String(decoding: (0..<length * 53).map { _ in alphabet[Int(generator.next() % 12)] }, as: UTF8.self)
        }
        return jws + ["", "a\"quote", "back\\slash", "sl/ash", "tab\there", "new\nline", "\u{1}", "é", "🙂", "\u{2028}"]
    }

    @Test(arguments: payloads)
    func theWrittenBodyIsJSONEncoders(_ payload: String) throws {
        #expect(try NotificationBody.json(payload) == Array(JSONEncoder().encode(["signedPayload": payload])))
    }
}
