import FoundationEssentials
import Signing
import SimKernel
import StoreSim

/// `POST /v1/accounts` (sign up), `POST /v1/sessions` (log in), `POST /v1/sessions/refresh`.
/// Passwords are hashed with PBKDF2 (libcrypto); a log-in answers a short access token and a
/// single-use refresh token.
extension Backend {
    struct Credentials: Decodable {
        let email: String
        let password: String
        /// The phone's guest token, when it holds one: the answer says whether its purchases would move to the account.
        var anonymousToken: String?
    }

    struct SessionBody: Encodable {
        let identity: IdentityBody
        let levels: [String]
        let levelsUntil: Int64?
        let refreshToken: String
        /// The account's subscriptions, as `GET /v1/me` lists them: the profile shows them at once.
        let subscriptions: [SubscriptionBody]
        /// Of the guest whose token the sign-in carried: until when a move of its purchases to this account would be
        /// refused for the move limit (`transferRefusedUntil`), so the phone offers no move the server refuses.
        var transferRefusedUntil: Int64? = nil
    }

    struct RefreshRequest: Decodable {
        let refreshToken: String
    }

    public static let minimumPasswordLength = 8

    /// Why the backend would refuse to sign up these credentials, in words; nil when it would take them.
    public static func credentialsProblem(email: String, password: String) -> String? {
        if let problem = emailProblem(email) { return problem }
        if password.count < minimumPasswordLength {
            return "a password needs at least \(minimumPasswordLength) characters"
        }
        return nil
    }

    /// Why the backend would take `email` for no email address, nil when it looks like one: the one rule for an
    /// account's email and, in a scenario, an Apple ID (which is an email address too).
    public static func emailProblem(_ email: String) -> String? {
        looksLikeEmail(email.lowercased()) ? nil : "\"\(email)\" is not an email address"
    }

    func signUp(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let credentials = try JSONBody.decode(Credentials.self, from: request)
            let email = credentials.email.lowercased()
            guard Self.looksLikeEmail(email) else { throw APIError.badRequest("email_invalid") }
            guard credentials.password.count >= Self.minimumPasswordLength else {
                throw APIError.badRequest("password_too_short")
            }
            let now = clock()
            let body = try ledgerChange { () throws -> SessionBody in
                guard try ledger.account(email: email) == nil else { throw APIError.conflict("email_taken") }
                let salt = Digest.sha256(Array("salt:\(email)".utf8))
                let identity = try ledger.createAccount(
                    email: email,
                    password: PasswordHash(password: credentials.password, salt: salt, iterations: passwordIterations),
                    at: now)
                var body = try session(for: identity)
                body.transferRefusedUntil = try guestTransferRefusedUntil(credentials.anonymousToken)
                return body
            }
            return JSONBody.response(201, body)
        }
    }

    func logIn(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let credentials = try JSONBody.decode(Credentials.self, from: request)
            guard let (identity, hash) = try ledger.account(email: credentials.email.lowercased()),
                hash.matches(credentials.password)
            else { throw APIError.unauthorized("credentials_invalid") }
            return JSONBody.response(
                200,
                try ledgerChange {
                    var body = try session(for: identity)
                    body.transferRefusedUntil = try guestTransferRefusedUntil(credentials.anonymousToken)
                    return body
                })
        }
    }

    /// `transferRefusedUntil` of the guest a sign-in's token proves the phone holds (authentic is enough, as for a
    /// transfer); nil without one, or for a token that proves no guest.
    private func guestTransferRefusedUntil(_ token: String?) throws -> Int64? {
        guard let token else { return nil }
        let claims: TokenClaims
        do {
            claims = try tokens.verify(token, now: clock(), acceptingExpired: true)
        } catch {
            // Not a token this server signed: the sign-in stands, and says nothing of a guest.
            return nil
        }
        guard claims.kind == .anonymous else { return nil }
        return try transferRefusedUntil(refreshLapsedRenewals(of: claims.sub))
    }

    func refreshSession(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let body = try JSONBody.decode(RefreshRequest.self, from: request)
            let now = clock()
            let answer = try ledgerChange { () throws -> SessionBody in
                let traded = Digest.sha256(Array(body.refreshToken.utf8))
                guard
                    let id = try ledger.consumeRefreshToken(
                        hash: traded, now: now, spendsIssuedOnRetrade: !retradesKeepWhatWasIssued),
                    let identity = try ledger.identity(id)
                else { throw APIError.unauthorized("refresh_invalid") }
                return try session(for: identity, issuedFor: traded)
            }
            return JSONBody.response(200, answer)
        }
    }

    /// A fresh access token and a single-use refresh token; only the refresh token's hash is kept.
    /// `issuedFor`: the refresh token traded for this session, when it is a refresh.
    private func session(for identity: IdentityRecord, issuedFor: [UInt8]? = nil) throws -> SessionBody {
        let now = clock()
        // 256 unguessable bits: nothing about the account or the time goes into it.
        let refreshToken = Base64URL.encode(keys.unguessableBytes(32))
        try ledger.saveRefreshToken(
            hash: Digest.sha256(Array(refreshToken.utf8)), identityId: identity.id,
            expires: now + refreshTokenLife, at: now, issuedFor: issuedFor)
        let access = try accessBody(identity, newToken: true)
        return SessionBody(
            identity: access.identity, levels: access.levels, levelsUntil: access.levelsUntil,
            refreshToken: refreshToken,
            subscriptions: try subscriptions(ownedBy: identity.id, at: now))
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@")
        return parts.count == 2 && parts[1].contains(".") && !text.contains(" ")
    }
}

extension Backend.SessionBody: HandWrittenAnswer {
    func write(to json: inout CanonicalJSONWriter) {
        json.object { json in
            identity.write(to: &json)
            json.array("levels", levels) { $0.element($1) }
            json.integer("levelsUntil", levelsUntil)
            json.string("refreshToken", refreshToken)
            Backend.SubscriptionBody.write(subscriptions, to: &json)
            json.integer("transferRefusedUntil", transferRefusedUntil)
        }
    }

    var texts: [String?] { identity.texts + levels + [refreshToken] + subscriptions.flatMap(\.texts) }
}
