import SimKernel

/// `POST /v1/anonymous-tokens`: a fresh token for the anonymous identity an authentic token names,
/// even one past its expiry. An anonymous subscriber has no password and no refresh token: without
/// this, a reader who paid a year ago without an account would be locked out while still paying
/// (seed 001: the wrapper "can obtain a token when one is missing", the manager "requests a fresh
/// anonymous token"). Only an anonymous identity's token is renewed; an account signs in again.
extension Backend {
    func renewAnonymousToken(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else {
                throw APIError.unauthorized("token_missing")
            }
            let claims: TokenClaims
            do {
                claims = try tokens.verify(String(header.dropFirst(7)), now: clock(), acceptingExpired: true)
            } catch {
                throw APIError.unauthorized((error as? TokenAuthority.Refusal)?.rawValue ?? "token_invalid")
            }
            guard claims.kind == .anonymous, let identity = try ledger.identity(claims.sub),
                identity.kind == .anonymous
            else { throw APIError.forbidden("account_required") }
            timeline.log(.backend, "anonymous token renewed for \(identity.id)")
            return JSONBody.response(200, try ledgerChange { try accessBody(identity, newToken: true) })
        }
    }
}
