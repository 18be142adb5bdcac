import Database
import FoundationEssentials
import Signing
import SimKernel
import StoreSim
import WhiteLabel

/// Why the backend could not be set up.
public struct BackendSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The platform server: it alone decides access. It verifies receipts with the App Store,
/// keeps the ledger, maps products to access levels, and serves full content.
/// Its interface is HTTP-shaped (`handle`), written down in docs/BACKEND-API.md.
public final class Backend {
    public let ledger: BackendLedger
    let levelsByProduct: [String: [String]]
    let fullContent: [String: String]
    let requiredLevels: [String: [String]]
    let bundleId: String
    /// The environment the server takes receipts and notifications from (App Store Connect's sandbox
    /// here; a test sets production to see Apple's 21007 and a sandbox notification refused).
    var environment: StoreEnvironment = .sandbox
    let tokens: TokenAuthority
    let restorePolicy: RestorePolicy
    /// The In-App Purchase key that signs promotional offers; App Store Connect holds its public half.
    let offerKey: SigningKey
    /// Product → its promotional offers, from the catalog.
    let promotionalOffers: [String: Set<String>]
    /// Product → its subscription group, from the catalog (Apple's transactions name it too): the phone learns the
    /// group of a plan it holds from the server, whatever the App Store's answers to it left out (long fuzz seed 1204).
    let subscriptionGroups: [String: String]
    /// The folder's secrets, and where refresh tokens and offer nonces come from (the OS's randomness
    /// for a state folder, the seed for an ephemeral world).
    let keys: Keyring
    /// Each identity's appAccountToken as derived (`appAccountToken(for:)`).
    var accountTokens: [String: String] = [:]
    public static let defaultOfferKeyIdentifier = "PWSIMKEY01"
    /// The key's ID in App Store Connect: a `.storekit` file's `subscriptionOffersKeyPair.id` when it has one.
    public let offerKeyIdentifier: String
    public var offerVerifyingKey: VerifyingKey { offerKey.publicKey }
    let store: AppStore
    let clock: () -> SimInstant
    let timeline: Timeline
    /// The answers given so far, for `serverOrderHeader`.
    private var answersGiven: Int64 = 0
    /// Whether Apple was asked the ownership type of every purchase the ledger did not know it of
    /// (`askOwnershipTypes`): once per process, at the first request.
    var ownershipTypesKnown = false

    /// Anonymous tokens live long: the phone has no password to get another.
    static let anonymousTokenLifetime = SimDuration.days(365)
    /// The same phone restoring the same receipt again gets its identity back, and nothing moves twice.
    /// Off only to plant issue 12's first defect whole, for the fuzzer to prove it catches it.
    public var restoresAreIdempotentPerDevice = true
    /// The first write or read of `backend.sqlite` the disk failed: the state cannot be kept, and `run` ends on it.
    public internal(set) var storageFailure: StorageFailure?
    /// A restore applies the new purchase its receipt reports to who paid first, as a receipt check does. Off only to
    /// plant the defect session 21 fixed (`restore-ignores-who-paid`), for the fuzzer to prove it catches it.
    public var restoresFollowWhoPaid = true
    /// False only for the planted `restore-ignores-policy`: a restore decides as under the transfer policy.
    public var restoresKeepThePolicy = true
    /// False only for the planted `status-ignores-who-paid`: Apple's status moves nothing to who paid.
    public var statusFollowsWhoPaid = true
    /// False only for the planted `transfer-moves-ended`: a transfer moves a guest's ended purchase too.
    public var transfersMoveOnlyActive = true
    /// False only for the planted `replaced-refresh-token-traded-again`, planted whole: a refresh token traded again
    /// spends the unused one issued for it, as before long 2446, so the phone's trade of one it replaced spends its own.
    public var retradesKeepWhatWasIssued = true
    /// PBKDF2's work factor for new passwords: a simulation setting (`WorldOptions.passwordIterations`).
    public var passwordIterations = PasswordHash.defaultIterations
    /// Account tokens are short; the refresh token gets a new one.
    static let accountTokenLifetime = SimDuration.hours(1)
    /// A refresh token outlives any period the apps sell (a year at most) and Apple's billing retry after it, and each
    /// refresh issues one good for as long from its use: with 30 days, every monthly renewal (31 days) signed a paying
    /// subscriber out (session 32, h13 03). A session unused for longer still ends.
    public static let refreshTokenLifetime = SimDuration.days(366) + AppStore.billingRetryLength
    /// The refresh tokens issued now last this long: a world setting (`WorldOptions.refreshTokenLifetime`), shorter
    /// only for the scenarios found when it was 30 days, and for the monitor's test that invariant 10 catches a paying
    /// subscriber signed out by time alone.
    public var refreshTokenLife = Backend.refreshTokenLifetime

    public init(
        config: DemoConfig, store: AppStore, clock: @escaping () -> SimInstant, timeline: Timeline,
        databasePath: String?, keys: Keyring = .derived(seed: 1)
    ) throws(BackendSetupError) {
        do {
            ledger = try BackendLedger(path: databasePath)
        } catch {
            // The file and the disk's reason: "disk I/O error" alone named neither (h3 06).
            if let storage = error.storage {
                throw BackendSetupError(description: "\(storage.path): cannot be opened (\(storage.reason))")
            }
            throw BackendSetupError(description: "cannot open the ledger: \(error)")
        }
        levelsByProduct = config.backend.productLevels
        fullContent = config.backend.fullContent
        requiredLevels = Dictionary(uniqueKeysWithValues: config.app.content.map { ($0.id, $0.requiredLevels) })
        bundleId = config.app.bundleId
        restorePolicy = config.backend.restorePolicy ?? .transfer
        guard let offerKey = SigningKey(seed: keys.offerKeySeed) else {
            throw BackendSetupError(description: "libcrypto cannot make a P-256 key")
        }
        self.offerKey = offerKey
        offerKeyIdentifier = config.store.storekitSettings?.offerKeyIdentifier ?? Self.defaultOfferKeyIdentifier
        promotionalOffers = Dictionary(
            uniqueKeysWithValues: config.store.products.map {
                ($0.productId, Set(($0.promotionalOffers ?? []).map(\.id)))
            })
        subscriptionGroups = Dictionary(
            config.store.products.compactMap { product in product.subscriptionGroup.map { (product.productId, $0) } }
        ) { first, _ in first }
        tokens = TokenAuthority(secret: keys.tokenSecret, audience: config.app.bundleId)
        self.keys = keys
        self.store = store
        self.clock = clock
        self.timeline = timeline
    }

    /// Answers one request. Never throws: every failure is a status and a JSON error body.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        // Before the first answer, Apple is asked what a ledger from before schema 10 could not say (`LedgerSchema`).
        var response = ownershipTypesKnown ? route(request) : askingOwnershipTypes() ?? route(request)
        timeline.log(.backend, "\(request.method) \(request.path) → \(response.status)\(Self.errorCode(response))")
        // When the server said it, so a client can tell an old answer from a newer one; and the answer's place
        // among the server's answers, since two may be given in one millisecond (seed 2567).
        answersGiven += 1
        response.headers[Self.serverTimeHeader] = String(clock().milliseconds)
        response.headers[Self.serverOrderHeader] = String(answersGiven)
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let response: HTTPResponse
        switch (request.method, request.path) {
        case ("POST", "/v1/receipts"): response = validateReceipt(request)
        case ("POST", "/v1/restores/inspect"): response = inspectRestore(request)
        case ("POST", "/v1/restores"): response = restore(request)
        case ("POST", "/v1/transfers"): response = transfer(request)
        case ("POST", "/v1/accounts"): response = signUp(request)
        case ("POST", "/v1/sessions"): response = logIn(request)
        case ("POST", "/v1/sessions/refresh"): response = refreshSession(request)
        case ("POST", "/v1/anonymous-tokens"): response = renewAnonymousToken(request)
        case ("POST", "/v1/notifications/apple"): response = receiveNotification(request)
        case ("POST", "/v1/offers/sign"): response = signOffer(request)
        case ("GET", "/v1/me"): response = me(request)
        case ("POST", "/v1/me/sync"): response = me(request, askingApple: true)
        case ("GET", let path) where path.hasPrefix("/v1/content/"):
            response = content(request, id: String(path.dropFirst("/v1/content/".count)))
        default: response = APIError.notFound.response
        }
        return response
    }

    /// The server's clock when it answered, in milliseconds, on every answer.
    public static let serverTimeHeader = "X-Server-Time"
    /// How many answers the server had given, this one included: orders answers given in one millisecond.
    public static let serverOrderHeader = "X-Server-Order"

    /// The access levels an identity holds now: the union of the levels of its active purchases.
    /// A ledger that cannot be read is an error, never "no levels".
    public func levels(of identityId: String) throws(DatabaseError) -> [String] {
        levels(in: try ledger.purchases(ownedBy: identityId))
    }

    /// Whether the server still holds the session of this refresh token (it would trade it for a new one): a phone
    /// told its session ended while this is true was signed out without the server's word.
    public func holdsSession(refreshToken: String) throws(DatabaseError) -> Bool {
        try ledger.refreshTokenUsable(hash: Digest.sha256(Array(refreshToken.utf8)), now: clock())
    }

    /// Whether the server still holds the session this refresh token was issued in, the token itself within its expiry:
    /// a token of it the server would trade, the phone's own or one issued for a token traded again. A phone that spent
    /// its own token by trading one it had replaced (found-by-hand/515) holds a dead token of a live session: told its
    /// session ended, it was signed out by its own doing, not the server's.
    public func sessionLives(refreshToken: String) throws(DatabaseError) -> Bool {
        try ledger.sessionLives(hash: Digest.sha256(Array(refreshToken.utf8)), now: clock())
    }

    /// Whether the server let this refresh token's session lapse with time (unused, past its expiry), not refused it
    /// as spent: what invariant 10 asks of a paying subscriber signed out.
    public func sessionLapsed(refreshToken: String) throws(DatabaseError) -> Bool {
        try ledger.refreshTokenLapsed(hash: Digest.sha256(Array(refreshToken.utf8)), now: clock())
    }

    /// The levels of an identity's purchases as just read.
    func levels(in purchases: [PurchaseRecord]) -> [String] {
        let now = clock()
        return Set(purchases.filter { $0.isActive(at: now) }.flatMap { levelsByProduct[$0.productId] ?? [] }).sorted()
    }

    /// When the levels given now could first end by themselves (a period's or a grace period's end), in
    /// milliseconds: the phone asks again then, rather than keep them on its own word (session 26). Nil without.
    func levelsUntil(in purchases: [PurchaseRecord]) -> Int64? {
        let now = clock()
        return purchases.filter { $0.isActive(at: now) && !(levelsByProduct[$0.productId] ?? []).isEmpty }
            .compactMap { $0.accessEnds(at: now)?.milliseconds }.min()
    }

    /// Which of the purchases give those levels, by original transaction id.
    func granting(in purchases: [PurchaseRecord]) -> [String] {
        let now = clock()
        return purchases.filter { $0.isActive(at: now) && !(levelsByProduct[$0.productId] ?? []).isEmpty }
            .map(\.originalTransactionId).sorted()
    }

    /// Which of them a family member pays for, shared with the Apple ID; nil when none is.
    func sharedByFamily(in purchases: [PurchaseRecord]) -> [String]? {
        let now = clock()
        let shared = purchases.filter {
            $0.familyShared && $0.isActive(at: now) && !(levelsByProduct[$0.productId] ?? []).isEmpty
        }.map(\.originalTransactionId).sorted()
        return shared.isEmpty ? nil : shared
    }

    /// A new token for an identity: long-lived for anonymous ones, short for accounts.
    func token(for identity: IdentityRecord) -> String {
        let lifetime = identity.kind == .anonymous ? Self.anonymousTokenLifetime : Self.accountTokenLifetime
        return tokens.issue(for: identity, now: clock(), lifetime: lifetime)
    }

    /// Runs one logical change of the ledger; any failure rolls all of it back.
    func ledgerChange<T>(_ body: () throws -> T) throws -> T {
        try ledger.change(body)
    }

    /// The identity a request's bearer token names; nil without a token.
    func authenticate(_ request: HTTPRequest) throws(APIError) -> IdentityRecord? {
        guard let header = request.headers["Authorization"] else { return nil }
        guard header.hasPrefix("Bearer ") else { throw .unauthorized("token_malformed") }
        do {
            let claims = try tokens.verify(String(header.dropFirst(7)), now: clock())
            // A ledger read that fails is a 500 (`answering`), never a 401 that would sign the reader out.
            guard let identity = try ledger.identity(claims.sub) else { throw APIError.unauthorized("token_unknown") }
            return identity
        } catch let refusal as TokenAuthority.Refusal {
            throw .unauthorized(refusal.rawValue)
        } catch let error as APIError {
            throw error
        } catch let error as DatabaseError {
            throw .unavailable(error)
        } catch {
            throw .unauthorized("token_invalid")
        }
    }

    /// The refusal's code for the timeline's line; read by `QuickJSON` when the body is plain, as it is
    /// (`JSONTree` took a step's worth of instructions for each refusal).
    private static func errorCode(_ response: HTTPResponse) -> String {
        guard !response.isSuccess else { return "" }
        if let members = QuickJSON.object(response.body) {
            guard case .string(let code)? = members["error"] else { return "" }
            return " \(code)"
        }
        guard let object = JSONTree.value(Data(response.body)) as? [String: Any],
            let code = object["error"] as? String
        else { return "" }
        return " \(code)"
    }
}
