import FoundationEssentials
import Signing
import SimKernel
import StoreSim

/// What a token says: whose it is, which app it is for, until when.
public struct TokenClaims: Codable, Equatable, Sendable {
    public let sub: String
    public let kind: IdentityRecord.Kind
    public let aud: String
    /// Expiry, in virtual milliseconds since the epoch.
    public let exp: Int64
}

extension TokenClaims {
    /// The claims as `JSONEncoder` with sorted keys writes them, by hand: the encoder was a token's cost.
    var json: [UInt8] {
        var writer = CanonicalJSONWriter(capacity: 128)
        writer.object {
            $0.string("aud", aud)
            $0.integer("exp", exp)
            $0.string("kind", kind.rawValue)
            $0.string("sub", sub)
        }
        return writer.bytes
    }

    /// The claims `json` holds: read without `JSONDecoder` when plain (every token this server signs),
    /// by it otherwise, so what is read is `JSONDecoder`'s either way; nil when neither reads them.
    init?(json: [UInt8]) {
        if let members = QuickJSON.object(json), case .string(let sub)? = members["sub"],
            case .string(let kind)? = members["kind"], let kind = IdentityRecord.Kind(rawValue: kind),
            case .string(let aud)? = members["aud"], case .integer(let exp)? = members["exp"]
        {
            self.init(sub: sub, kind: kind, aud: aud, exp: exp)
        } else if let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(json)) {
            self = claims
        } else {
            return nil
        }
    }
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
    private let secret: HMACKey
    private let audience: String
    private let authentic = AuthenticTokens()

    public init(secret: [UInt8], audience: String) {
        self.secret = HMACKey(secret)
        self.audience = audience
    }

    public func issue(for identity: IdentityRecord, now: SimInstant, lifetime: SimDuration) -> String {
        let claims = TokenClaims(
            sub: identity.id, kind: identity.kind, aud: audience, exp: (now + lifetime).milliseconds)
        let signingInput = Self.header + "." + Base64URL.encode(claims.json)
        return signingInput + "." + Base64URL.encode(secret.mac(Array(signingInput.utf8)))
    }

    /// `acceptingExpired`: an authentic token past its expiry still names its identity; only the
    /// renewal of an anonymous token and a transfer's proof of the phone's identity accept one.
    public func verify(_ token: String, now: SimInstant, acceptingExpired: Bool = false) throws(Refusal) -> TokenClaims
    {
        let claims: TokenClaims
        if let kept = authentic.claims(of: token) {
            claims = kept
        } else {
            claims = try authenticClaims(token)
        }
        guard claims.aud == audience else { throw .otherApp }
        guard acceptingExpired || now.milliseconds < claims.exp else { throw .expired }
        return claims
    }

    /// The claims of a token this key signed, its MAC checked; kept (`AuthenticTokens`).
    private func authenticClaims(_ token: String) throws(Refusal) -> TokenClaims {
        // Three parts, split on the bytes: splitting the String by Characters was half of a check.
        let bytes = Array(token.utf8)
        let dot = UInt8(ascii: ".")
        guard let first = bytes.firstIndex(of: dot), let second = bytes[(first + 1)...].firstIndex(of: dot),
            !bytes[(second + 1)...].contains(dot), let signature = Base64URL.decode(bytes[(second + 1)...]),
            let payload = Base64URL.decode(bytes[(first + 1)..<second])
        else { throw .malformed }
        let expected = bytes.withUnsafeBufferPointer { secret.mac(UnsafeBufferPointer(rebasing: $0[..<second])) }
        guard Digest.constantTimeEqual(signature, expected) else { throw .badSignature }
        guard let claims = TokenClaims(json: payload) else { throw .malformed }
        authentic.keep(claims, of: token)
        return claims
    }

    /// How many authentic tokens are kept, for tests.
    var keptTokens: Int { authentic.count }
}
