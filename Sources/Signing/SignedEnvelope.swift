/// `header.payload.signature`, JWS-shaped, signed as Apple signs: ES256, with the signer in an `x5c`-shaped
/// header (Apple's holds its certificate chain; here the one entry is the public point, base64url).
/// Receipts and store notifications travel in this form. Envelopes an earlier build signed with Ed25519
/// (`alg: EdDSA`) still open with the key of the same seed, so a state folder from before keeps working.
public enum SignedEnvelope {
    static let legacyHeader = Array(Base64URL.encode(Array(#"{"alg":"EdDSA","typ":"JWT"}"#.utf8)).utf8)

    /// The header `key` signs under.
    public static func header(for key: VerifyingKey) -> String {
        Base64URL.encode(
            Array(#"{"alg":"ES256","x5c":[""#.utf8) + Array(Base64URL.encode(key.rawBytes).utf8) + Array(#""]}"#.utf8))
    }

    /// Written and signed in the string's own storage: a receipt's payload is megabytes, and joining
    /// strings copied it four times.
    public static func seal(_ payload: [UInt8], with key: SigningKey) -> String {
        let signingCount = key.header.utf8.count + 1 + Base64URL.encodedCount(payload.count)
        let capacity = signingCount + 1 + Base64URL.encodedCount(64)
        return String(unsafeUninitializedCapacity: capacity) { output in
            var count = output.initialize(from: key.header.utf8).1
            output[count] = UInt8(ascii: ".")
            count += 1
            count += Base64URL.write(payload, to: UnsafeMutableBufferPointer(rebasing: output[count...]))
            let signature = key.sign(UnsafeBufferPointer(UnsafeMutableBufferPointer(rebasing: output[..<count])))
            output[count] = UInt8(ascii: ".")
            count += 1
            // An ES256 signature is 64 bytes (none when libcrypto fails, which no envelope opens).
            count += Base64URL.write(
                Array(signature.prefix(64)), to: UnsafeMutableBufferPointer(rebasing: output[count...]))
            return count
        }
    }

    /// The payload when the signature holds for `key`; nil for anything forged, tampered or malformed.
    public static func open(_ envelope: String, with key: VerifyingKey) -> [UInt8]? {
        guard let (payload, signingInput, signature, legacy) = split(envelope) else { return nil }
        let holds =
            legacy
            ? key.isValidLegacySignature(signature, for: signingInput)
            : key.isValidSignature(signature, for: signingInput)
        return holds ? payload : nil
    }

    /// The payload of an envelope carried inside another whose signature was checked: the outer signature
    /// covers these bytes already, so checking this one again (as the backend did, three times a
    /// notification) proves nothing more. Never for an envelope that arrived on its own.
    public static func payload(ofEnclosed envelope: String) -> [UInt8]? {
        // The same checks as `split`, but only the payload is decoded: no signature, no copy of the input.
        var envelope = envelope
        return envelope.withUTF8 { bytes -> [UInt8]? in
            guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
                let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
                !bytes[(second + 1)...].contains(UInt8(ascii: ".")),
                Base64URL.decode(bytes[(second + 1)...]) != nil
            else { return nil }
            return Base64URL.decode(bytes[(first + 1)..<second])
        }
    }

    /// The payload, the signed bytes and the signature. Split on UTF-8 bytes, not Characters: this runs
    /// for every receipt and notification.
    private static func split(_ envelope: String) -> (
        payload: [UInt8], signingInput: [UInt8], signature: [UInt8], legacy: Bool
    )? {
        let bytes = Array(envelope.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
            !bytes[(second + 1)...].contains(UInt8(ascii: ".")),
            let payload = Base64URL.decode(bytes[(first + 1)..<second]),
            let signature = Base64URL.decode(bytes[(second + 1)...])
        else { return nil }
        return (payload, Array(bytes[..<second]), signature, bytes[..<first].elementsEqual(legacyHeader))
    }
}
