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
        let parts = envelope.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2])
        else { return nil }
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        return key.isValidSignature(signature, for: signingInput) ? payload : nil
    }
}
