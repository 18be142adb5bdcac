import Foundation
import Testing

@testable import Simulation

/// App Store Connect's post to the backend is written around the JWS's bytes: it must be what
/// `JSONEncoder` writes for `["signedPayload": payload]`, whatever the payload holds.
@Suite struct NotificationBodyTests {
    private static var payloads: [String] { JSONStringSamples.texts(seed: 31, stride: 53) }

    @Test(arguments: payloads)
    func theWrittenBodyIsJSONEncoders(_ payload: String) throws {
        #expect(try NotificationBody.json(payload) == Array(JSONEncoder().encode(["signedPayload": payload])))
    }
}
