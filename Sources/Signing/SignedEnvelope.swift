/// `header.payload.signature`, JWS-shaped, signed with Ed25519 (`alg: EdDSA`).
/// Receipts and store notifications travel in this form.
public enum SignedEnvelope {
    private static let header = Base64URL.encode(Array(#"{"alg":"EdDSA","typ":"JWT"}"#.utf8))

    public static func seal(_ payload: [UInt8], with key: SigningKey) -> String {
        let signingInput = header + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(key.sign(Array(signingInput.utf8)))
    }

    /// The payload when the signature holds for `key`; nil for anything forged, tampered or malformed.
    public static func open(_ envelope: String, with key: VerifyingKey) -> [UInt8]? {
        // Split the UTF-8 bytes, not Characters: this runs for every receipt and notification.
        let bytes = Array(envelope.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2,
            let payload = Base64URL.decode(bytes[(dots[0] + 1)..<dots[1]]),
            let signature = Base64URL.decode(bytes[(dots[1] + 1)...])
        else { return nil }
        return key.isValidSignature(signature, for: Array(bytes[..<dots[1]])) ? payload : nil
    }
}
