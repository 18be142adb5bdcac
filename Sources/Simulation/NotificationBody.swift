import FoundationEssentials
import SimKernel

/// The body App Store Connect posts to the backend: `{"signedPayload":"…"}`, byte for byte as
/// `JSONEncoder` writes it. A JWS is base64url and dots, which the encoder never escapes, so the body is
/// written around the payload's bytes; the encoder, for every notification, was a fiftieth of a fuzz step.
enum NotificationBody {
    static func json(_ signedPayload: String) throws -> [UInt8] {
        var payload = signedPayload
        return try payload.withUTF8 { text in
            guard PlainJSONText.isPlain(text, refusingSlash: true) else {
                return Array(try JSONEncoder().encode(["signedPayload": signedPayload]))
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count + 20)
            bytes += #"{"signedPayload":""#.utf8
            bytes += text
            bytes += #""}"#.utf8
            return bytes
        }
    }
}
