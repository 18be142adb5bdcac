import Foundation
import SimKernel
import Testing

/// The app's request bodies (log in, sign up, a transfer, a refresh, an offer's signature) and App Store
/// Connect's post to the backend are objects of string fields written by `CanonicalJSONWriter.object`:
/// each must be what `JSONEncoder` with sorted keys writes, whatever the strings hold.
@Suite struct StringFieldsBodyTests {
    private static var texts: [String] { JSONStringSamples.texts(seed: 31, stride: 53) }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    @Test(arguments: texts)
    func oneFieldIsJSONEncoders(_ text: String) throws {
        let written = CanonicalJSONWriter.object(["signedPayload": text])
        #expect(written == Array(try Self.encoder.encode(["signedPayload": text])))
    }

    @Test(arguments: texts)
    func twoFieldsAreJSONEncoders(_ text: String) throws {
        let password = String(text.reversed())
        let written = CanonicalJSONWriter.object(["email": text, "password": password])
        #expect(written == Array(try Self.encoder.encode(["password": password, "email": text])))
    }
}
