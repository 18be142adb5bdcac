import Synchronization

/// Tokens an authority found authentic, with their claims. A phone sends its access token with every request,
/// and whether a token's MAC holds, and what its claims say, depend on its bytes and the authority's key alone: a
/// token seen before needs neither the MAC nor the JSON again (an HMAC-SHA256 was half of a check). What the token
/// may do now, its audience and its expiry, is judged at every check. A refused token is not kept. Bounded: emptied
/// when full, and a token forgotten is only checked again.
final class AuthenticTokens: Sendable {
    static let capacity = 64
    private let kept = Mutex<[String: TokenClaims]>([:])

    func claims(of token: String) -> TokenClaims? { kept.withLock { $0[token] } }

    func keep(_ claims: TokenClaims, of token: String) {
        kept.withLock { kept in
            if kept.count >= Self.capacity { kept.removeAll(keepingCapacity: true) }
            kept[token] = claims
        }
    }

    /// How many are kept, for tests.
    var count: Int { kept.withLock { $0.count } }
}
