import FoundationEssentials
import Signing
import SimKernel

/// What a token says: whose it is, which app it is for, until when.
public struct TokenClaims: Codable, Equatable, Sendable {
    public let sub: String
    public let kind: IdentityRecord.Kind
    public let aud: String
    /// Expiry, in virtual milliseconds since the epoch.
    public let exp: Int64
}

/// Issues and checks JWT-shaped tokens signed with HMAC-SHA256 (libcrypto).
public struct TokenAuthority: Sendable {
    /// Why a token was refused; each maps to a 401.
    public enum Refusal: String, Error, Sendable {
        case malformed = "token_malformed"
        case badSignature = "token_invalid"
        case expired = "token_expired"
        case otherApp = "token_other_app"
    }

    private static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    private let secret: [UInt8]
    private let audience: String

    public init(secret: [UInt8], audience: String) {
        self.secret = secret
        self.audience = audience
    }

    public func issue(for identity: IdentityRecord, now: SimInstant, lifetime: SimDuration) -> String {
        let claims = TokenClaims(
            sub: identity.id, kind: identity.kind, aud: audience, exp: (now + lifetime).milliseconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = Base64URL.encode(Array((try? encoder.encode(claims)) ?? Data()))
        let signingInput = Self.header + "." + payload
        return signingInput + "." + Base64URL.encode(Digest.hmacSHA256(key: secret, message: Array(signingInput.utf8)))
    }

    /// `acceptingExpired`: an authentic token past its expiry still names its identity; only the
    /// renewal of an anonymous token and a transfer's proof of the phone's identity accept one.
    public func verify(_ token: String, now: SimInstant, acceptingExpired: Bool = false) throws(Refusal) -> TokenClaims
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64URL.decode(parts[2]), let payload = Base64URL.decode(parts[1])
        else { throw .malformed }
        let expected = Digest.hmacSHA256(key: secret, message: Array("\(parts[0]).\(parts[1])".utf8))
        guard Digest.constantTimeEqual(signature, expected) else { throw .badSignature }
        guard let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(payload)) else { throw .malformed }
        guard claims.aud == audience else { throw .otherApp }
        guard acceptingExpired || now.milliseconds < claims.exp else { throw .expired }
        return claims
    }
}
