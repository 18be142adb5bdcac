import Foundation
import SimKernel
import Testing

@testable import BackendSim

/// The backend reads the app's request bodies by `QuickJSON` when they are plain: what it accepts and reads
/// must be what `JSONDecoder` accepts and reads, for bodies the app writes and for ones it never would.
@Suite struct QuickRequestBodiesTests {
    /// What `JSONBody.decode` makes of `body` against `JSONDecoder` (a refusal as nil), and whether it went
    /// the quick way.
    private func read<T: Decodable>(_ type: T.Type, _ body: String) -> (same: Bool, quick: Bool) {
        let bytes = Array(body.utf8)
        let expected = (try? JSONDecoder().decode(type, from: Data(bytes))).map { String(describing: $0) }
        let request = HTTPRequest(method: "POST", path: "/v1/sessions", body: bytes)
        let read = (try? JSONBody.decode(type, from: request)).map { String(describing: $0) }
        return (read == expected, QuickJSON.object(bytes) != nil)
    }

    @Test func requestBodiesReadAsJSONDecoderReadsThem() {
        let credentials = [
            #"{"email":"r@example.test","password":"longenough"}"#, #"{"email":"r@example.test"}"#,
            #"{"email":"r@example.test","password":null}"#, #"{"email":1,"password":"p"}"#,
            #"{"email":"r@example.test","password":"quo\"te"}"#, #"{"email":"r@example.test","password":"pässword"}"#,
            #"{"email":"a","password":"b","extra":[1,{"x":true}]}"#, #"{"email":"a","email":"b","password":"c"}"#,
            "", "[]", "{}",
        ]
        for body in credentials { #expect(read(Backend.Credentials.self, body).same, "\(body)") }
        #expect(read(Backend.Credentials.self, credentials[0]).quick)
        let others: [(any Decodable.Type, String)] = [
            (Backend.RefreshRequest.self, #"{"refreshToken":"r-1"}"#),
            (Backend.RefreshRequest.self, #"{"refreshToken":7}"#),
            (Backend.TransferRequest.self, #"{"anonymousToken":"t"}"#),
            (Backend.TransferRequest.self, #"{}"#),
            (Backend.OfferRequest.self, #"{"offerId":"o","productId":"p"}"#),
            (Backend.OfferRequest.self, #"{"appAccountToken":"u","offerId":"o","productId":"p"}"#),
            (Backend.OfferRequest.self, #"{"appAccountToken":false,"offerId":"o","productId":"p"}"#),
            (Backend.NotificationRequest.self, #"{"signedPayload":"a.b.c"}"#),
            (Backend.NotificationRequest.self, #"{"signedPayload":["a"]}"#),
        ]
        for (type, body) in others { #expect(read(type, body).same, "\(type): \(body)") }
    }
}
