import FoundationEssentials
import SimKernel

/// Carries HTTP-shaped requests to the backend: in process for the simulator, over HTTP in a real app.
public protocol BackendTransport: AnyObject {
    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void)
}

/// A backend answer the app could not use, in the words the coordinator maps to what the reader sees.
public enum BackendFailure: Error, Equatable, Sendable {
    /// 401 after the bounded retries: the token was refused.
    case unauthorized(code: String)
    /// 4xx with the server's code, e.g. `nothing_to_validate`, `level_required`, `restore_limit`.
    case refused(status: Int, code: String)
    /// 5xx, or a body that could not be read.
    case unavailable
    /// No answer within the client's timeout.
    case timedOut
}

/// A failure in words, as the timeline says it: `unauthorized(code: "token_expired")` read as a dump beside the
/// plain lines around it (session 28).
extension BackendFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unauthorized(let code): "the server refused the credentials (\(code))"
        case .refused(let status, let code): "the server refused it (\(status) \(code))"
        case .unavailable: "the server failed or answered unreadably"
        case .timedOut: "no answer in time"
        }
    }
}

/// Who the app speaks as: nobody yet, an anonymous identity, or a signed-in account.
public enum BackendCredentials: Equatable, Sendable {
    case none
    case anonymous(token: String)
    case account(token: String, refreshToken: String)

    var accessToken: String? {
        switch self {
        case .none: nil
        case .anonymous(let token): token
        case .account(let token, _): token
        }
    }
}

/// What the backend says of an identity: who, with which levels (and a new token when it issued one).
public struct AccessAnswer: Equatable, Sendable {
    public let identityId: String
    public let kind: String
    public let email: String?
    public let token: String?
    public let levels: [AccessLevel]
    /// The UUID the app sets on a signed-in reader's payments, so a purchase follows who paid.
    public var appAccountToken: String? = nil
    /// The receipt's purchases that stay with another customer: the Apple ID pays for someone else.
    public var ownedElsewhere: [String] = []
    /// The identity's purchases (original transaction ids) that give it levels now; nil where the answer
    /// does not say. A purchase outside it unlocked nothing, whatever other purchases hold.
    public var granting: [String]? = nil
    /// When those levels could first end by themselves (a period's end): the app asks again then.
    public var levelsUntil: SimInstant? = nil
    /// Those of `granting` a family member pays for, shared with the Apple ID (Apple's FAMILY_SHARED): nobody here
    /// paid for them. Empty where the answer does not say.
    public var sharedByFamily: [String] = []
    /// A guest's: until when the server would refuse to move its purchases to an account for the move limit (3 moves
    /// in 30 days); nil when a move would be made, and from a server older than the field.
    public var transferRefusedUntil: SimInstant? = nil
}

/// An answer to a restore or transfer: the access after it, what moved, and the first refusal if any.
public struct RestoreAnswer: Equatable, Sendable {
    public let access: AccessAnswer
    public let restored: [String]
    /// The server's code for the first purchase it left where it was, e.g. `restore_not_this_device`.
    public let refusal: String?
}

/// One purchase of the receipt, as the backend sees it before a restore.
public struct RestorablePurchase: Equatable, Sendable, Decodable {
    public let originalTransactionId: String
    public let productId: String
    public let active: Bool
    /// `you`, `anonymous`, `account` or `nobody`.
    public let owner: String
    public let restorable: Bool
    public let refusal: String?
    /// A family member's purchase Apple shares with the Apple ID (FAMILY_SHARED); nil when it is the Apple ID's own.
    public var familyShared: Bool? = nil
    /// Its product's subscription group, as the server knows it: the App Store's answers to the phone may leave the
    /// product out (long fuzz seed 1940). Nil from a server older than the field.
    public var subscriptionGroupIdentifier: String? = nil
}

/// A subscription as the profile shows it.
/// A sign-in's answer (`POST /v1/accounts`, `POST /v1/sessions`): the account, its single-use refresh token, and the
/// subscriptions it owns (nil from a server older than the field).
public struct SessionAnswer: Equatable, Sendable {
    public let access: AccessAnswer
    public let refreshToken: String
    public let subscriptions: [SubscriptionSummary]?
    /// Of the guest whose token the sign-in carried: until when its move to the account would be refused for the move
    /// limit; nil when it would be made (or none was asked about).
    public var guestTransferRefusedUntil: SimInstant? = nil
}

/// The subscriptions the backend listed for one identity (`GET /v1/me`): a list asked as one reader is never shown
/// to another (a log-out or a sign-in while it was on its way).
public struct SubscriptionList: Equatable, Sendable {
    public let identity: AccessSnapshot.Identity
    public let subscriptions: [SubscriptionSummary]
    /// The App Store's titles of listed plans the paywall does not sell (one the owner dropped from the config, or a
    /// switch on Apple's sheet to another plan of the group), where the store returns the product: the profile names
    /// a plan Apple charges for as the store does, not by its identifier (session 28).
    public var titles: [String: String] = [:]

    public init(identity: AccessSnapshot.Identity, subscriptions: [SubscriptionSummary]) {
        self.identity = identity
        self.subscriptions = subscriptions
    }
}

public struct SubscriptionSummary: Equatable, Sendable, Decodable {
    /// Nil from a server older than the field.
    public let originalTransactionId: String?
    public let productId: String
    /// Virtual milliseconds since the epoch.
    public let expires: Int64?
    public let active: Bool
    public let autoRenew: Bool
    public let billingIssue: Bool
    /// Apple raised the price and waits for consent: it renews only if the subscriber agrees. Nil from a server
    /// older than the field, and when nothing waits.
    public var priceConsentPending: Bool? = nil
    /// The product Apple renews it as, when a plan change waits for the next renewal. Nil otherwise, and from a
    /// server older than the field.
    public var renewsAs: String? = nil
    /// Its product's subscription group, as the server knows it: the App Store's answers to the phone may leave the
    /// product out (long fuzz seed 1204). Nil from a server older than the field.
    public var subscriptionGroupIdentifier: String? = nil
    /// A family member's purchase shared with this Apple ID (Apple's FAMILY_SHARED): nobody on this phone paid for it.
    /// Nil when it is the Apple ID's own, and from a server older than the field.
    public var familyShared: Bool? = nil
    /// Its period now is a free trial (StoreKit's `offerDiscountType` FREE_TRIAL): `expires` is when the trial ends and
    /// the plan's price is first charged, not a renewal. Nil when it is not, and from a server older than the field.
    public var inFreeTrial: Bool? = nil

    public init(
        originalTransactionId: String?, productId: String, expires: Int64?, active: Bool, autoRenew: Bool,
        billingIssue: Bool, priceConsentPending: Bool? = nil, renewsAs: String? = nil,
        subscriptionGroupIdentifier: String? = nil, familyShared: Bool? = nil, inFreeTrial: Bool? = nil
    ) {
        self.familyShared = familyShared
        self.inFreeTrial = inFreeTrial
        self.priceConsentPending = priceConsentPending
        self.renewsAs = renewsAs
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.expires = expires
        self.active = active
        self.autoRenew = autoRenew
        self.billingIssue = billingIssue
    }
}

/// The app's wrapper around the backend's HTTP contract (docs/BACKEND-API.md): it attaches the
/// token, refreshes an account's expired token a bounded number of times, applies a timeout, and
/// turns answers into values.
public final class BackendClient {
    private let transport: BackendTransport
    private let deviceId: String
    private let timer: (SimDuration, @escaping () -> Void) -> () -> Void
    private let timeout: SimDuration
    /// The current credentials; the coordinator keeps them, the client reads them per request.
    public var credentials: () -> BackendCredentials = { .none }
    /// The account signed in now (its identity id), nil for none: a request that moves purchases to whoever
    /// asks it is never sent again as an account signed in after it was asked.
    public var signedInAccount: () -> String? = { nil }
    /// Called with a refreshed account session (its token inside `access`, with the account's levels
    /// now) and the refresh token it was traded for, for the coordinator to store if that is still its session's.
    public var onSessionRefreshed: (_ access: AccessAnswer, _ refreshToken: String, _ traded: String) -> Void = {
        _, _, _ in
    }
    /// Called when the server refuses a refresh token (used, expired): that session is over.
    public var onSessionEnded: (_ refused: String) -> Void = { _ in }
    /// Called with a renewed anonymous identity (its new token inside), for the coordinator to store.
    public var onAnonymousTokenRenewed: (AccessAnswer) -> Void = { _ in }
    /// Whether an expired anonymous token is renewed and the request tried again. Off only to plant
    /// the defect the fuzzer must catch (a paying anonymous reader locked out after a year).
    public var renewsAnonymousTokens = true
    /// Whether a request refused as expired after the phone's session was refreshed while it was out goes as the session
    /// now. Off only to plant the defect the fuzzer must catch: it trades the refresh token it was sent with again,
    /// which the server takes for a refresh whose answer was lost, spending the phone's (found-by-hand/515).
    public var tradesOnlyHeldRefreshTokens = true
    /// What the wrapper did that the reader cannot see: a request given up after its timeout.
    public var log: (String) -> Void = { _ in }
    /// Told when a request is given up after its timeout, with the request's path: the network failed the app, as a
    /// fault would, and on that request (a check that could not ask the server is not one that heard it).
    public var onGiveUp: ((_ path: String) -> Void)?
    /// Every answer the app accepted (not one that came after its timeout or after the app quit):
    /// the simulator's invariant checks compare what the phone shows with what it was told.
    public var onAnswer: ((HTTPResponse) -> Void)?
    /// Set by `cancelAll`: the app is gone, and answers on their way are dropped.
    private var isCancelled = false
    /// The server's clock on every answer (docs/BACKEND-API.md), in milliseconds.
    public static let serverTimeHeader = "X-Server-Time"
    /// The answer's place among the server's answers: two may share a millisecond.
    public static let serverOrderHeader = "X-Server-Order"
    /// When the server gave the answer being handled right now; nil outside an answer's handling.
    public private(set) var answeringStamp: ServerStamp?
    /// How many times one request may refresh the token and try again after a 401.
    public static let maxAuthenticationRetries = 2

    /// How long the app waits for an answer unless told otherwise: the longest a request's round trip lasts.
    public static let defaultTimeout = SimDuration.seconds(20)

    /// `timer` runs a closure after a delay on the app's clock and returns what cancels it; it bounds
    /// each request by `timeout`, and is cancelled when the answer comes first.
    public init(
        transport: BackendTransport, deviceId: String, timeout: SimDuration = defaultTimeout,
        timer: @escaping (SimDuration, @escaping () -> Void) -> () -> Void
    ) {
        self.transport = transport
        self.deviceId = deviceId
        self.timeout = timeout
        self.timer = timer
    }

    /// Drops every answer still on its way and every later one: the app quit.
    public func cancelAll() {
        isCancelled = true
    }

    // MARK: - Endpoints

    /// Sends the receipt after a payment, as the current identity (none before an anonymous one exists).
    public func validateReceipt(_ receipt: String, completion: @escaping (Result<AccessAnswer, BackendFailure>) -> Void)
    {
        post("/v1/receipts", receipt: ReceiptBody(receipt: receipt, confirmMoveFromAccount: nil)) { result in
            completion(result.flatMap { Self.decode(AccessBody.self, $0).map(\.access) })
        }
    }

    /// Which purchases of the receipt are restorable, and whose they are.
    public func inspectRestore(
        _ receipt: String, completion: @escaping (Result<[RestorablePurchase], BackendFailure>) -> Void
    ) {
        inspectRestore(receipt, sentAs: { _ in }, completion: completion)
    }

    /// `sentAs` is told the credentials of each attempt: the last before `completion` is whom the server answered (a
    /// refresh refused sends the request again as the phone's anonymous identity).
    func inspectRestore(
        _ receipt: String, sentAs: @escaping (BackendCredentials) -> Void,
        completion: @escaping (Result<[RestorablePurchase], BackendFailure>) -> Void
    ) {
        let body = ReceiptBody(receipt: receipt, confirmMoveFromAccount: nil).json()
        send("POST", "/v1/restores/inspect", body: body, sentAs: sentAs) { result in
            completion(result.flatMap { Self.decode(InspectBody.self, $0).map(\.purchases) })
        }
    }

    /// Restores the receipt's purchases to the current identity (a new anonymous one without credentials).
    public func restore(
        _ receipt: String, confirmMoveFromAccount: Bool,
        completion: @escaping (Result<RestoreAnswer, BackendFailure>) -> Void
    ) {
        post("/v1/restores", receipt: ReceiptBody(receipt: receipt, confirmMoveFromAccount: confirmMoveFromAccount)) {
            result in
            completion(Self.restoreAnswer(result))
        }
    }

    /// Moves an anonymous identity's purchases to the signed-in account.
    public func transfer(anonymousToken: String, completion: @escaping (Result<RestoreAnswer, BackendFailure>) -> Void)
    {
        post("/v1/transfers", ["anonymousToken": anonymousToken]) { result in completion(Self.restoreAnswer(result)) }
    }

    /// `anonymousToken`: the phone's guest, whose move to the account the answer says the server would refuse.
    public func signUp(
        email: String, password: String, anonymousToken: String? = nil,
        completion: @escaping (Result<SessionAnswer, BackendFailure>) -> Void
    ) {
        postCredentials("/v1/accounts", email: email, password: password, anonymousToken: anonymousToken, completion)
    }

    /// `anonymousToken`: the phone's guest, whose move to the account the answer says the server would refuse.
    public func logIn(
        email: String, password: String, anonymousToken: String? = nil,
        completion: @escaping (Result<SessionAnswer, BackendFailure>) -> Void
    ) {
        postCredentials("/v1/sessions", email: email, password: password, anonymousToken: anonymousToken, completion)
    }

    /// A sign-up's or log-in's request, with the phone's guest token when it has one, and its session answer.
    private func postCredentials(
        _ path: String, email: String, password: String, anonymousToken: String?,
        _ completion: @escaping (Result<SessionAnswer, BackendFailure>) -> Void
    ) {
        let answered = { (result: Result<[UInt8], BackendFailure>) in
            completion(result.flatMap { Self.decode(SessionBody.self, $0).map(\.answer) })
        }
        if let anonymousToken {
            post(
                path, ["anonymousToken": anonymousToken, "email": email, "password": password],
                authenticated: false, completion: answered)
        } else {
            post(path, ["email": email, "password": password], authenticated: false, completion: answered)
        }
    }

    /// The current identity's levels and subscriptions.
    /// `credentials`: whom to ask about, when not the reader signed in (the phone's anonymous identity).
    /// `askingApple`: the server reads Apple's records first (`POST /v1/me/sync`), as after a change on Apple's sheet.
    public func me(
        as credentials: BackendCredentials? = nil, askingApple: Bool = false,
        completion: @escaping (Result<(AccessAnswer, [SubscriptionSummary]), BackendFailure>) -> Void
    ) {
        let (method, path) = askingApple ? ("POST", "/v1/me/sync") : ("GET", "/v1/me")
        send(method, path, body: [], session: credentials) { result in
            completion(result.flatMap { Self.decode(MeBody.self, $0).map { ($0.access, $0.subscriptions) } })
        }
    }

    /// The full version of a piece of content, fetched with the reader's identity.
    /// `credentials`: the identity that holds the level, when not the reader signed in.
    public func fullContent(
        _ contentId: String, as credentials: BackendCredentials? = nil,
        completion: @escaping (Result<String, BackendFailure>) -> Void
    ) {
        send("GET", "/v1/content/\(contentId)", body: [], session: credentials) { result in
            completion(result.flatMap { Self.decode(ContentBody.self, $0).map(\.body) })
        }
    }

    /// Asks the server to sign a promotional offer for one payment by the current identity.
    public func signOffer(
        productId: String, offerId: String, completion: @escaping (Result<SignedOffer, BackendFailure>) -> Void
    ) {
        post("/v1/offers/sign", ["offerId": offerId, "productId": productId]) { result in
            completion(result.flatMap { Self.decode(OfferSignatureBody.self, $0).map { $0.signed(offerId) } })
        }
    }

    // MARK: - Requests

    /// A body of string fields, listed with their keys sorted (as `JSONEncoder` with sorted keys writes it).
    private func post(
        _ path: String, _ fields: KeyValuePairs<StaticString, String>, authenticated: Bool = true,
        completion: @escaping (Result<[UInt8], BackendFailure>) -> Void
    ) {
        let body = CanonicalJSONWriter.object(fields)
        send("POST", path, body: body, authenticated: authenticated, completion: completion)
    }

    /// A receipt's body (`ReceiptBody.json`: a plain receipt is copied whole).
    private func post(
        _ path: String, receipt body: ReceiptBody, completion: @escaping (Result<[UInt8], BackendFailure>) -> Void
    ) {
        send("POST", path, body: body.json(), completion: completion)
    }

    /// Sends once; on a 401 for an expired account token, refreshes and tries again, at most
    /// `maxAuthenticationRetries` times.
    private func send(
        _ method: String, _ path: String, body: [UInt8], authenticated: Bool = true, attempt: Int = 0,
        session: BackendCredentials? = nil, askedBy: String?? = nil, sentAs: ((BackendCredentials) -> Void)? = nil,
        completion: @escaping (Result<[UInt8], BackendFailure>) -> Void
    ) {
        let session = session ?? credentials()
        sentAs?(session)
        let askedBy = askedBy ?? signedInAccount()
        // A transfer or a restore moves purchases to the account that asks: asked by one account, it never goes
        // as another signed in since (it would move them to someone who did not ask). Other requests follow the
        // reader signed in now, so the article their levels open loads.
        let followsSignIn = path != "/v1/transfers" && path != "/v1/restores"
        let askerLeft = { [self] in !followsSignIn && signedInAccount() != askedBy }
        var headers = ["Accept": "application/json", "X-Device-Id": deviceId]
        if !body.isEmpty { headers["Content-Type"] = "application/json" }
        if authenticated, let token = session.accessToken { headers["Authorization"] = "Bearer \(token)" }
        exchange(HTTPRequest(method: method, path: path, headers: headers, body: body)) { [self] result in
            guard case .failure(.unauthorized(let code)) = result, code == "token_expired" else {
                return completion(result)
            }
            // Renewed in this very exchange and refused as expired still: the server contradicts itself (a fault in
            // its place, `me unauthorized always`). No word on the session, which stands: ending it signed out a
            // reader the server still held (fuzz seeds 4666 and 4680, session 32).
            guard attempt < Self.maxAuthenticationRetries else {
                log("\(path): the token just renewed was refused as expired: no word on the session, which stands")
                return completion(.failure(.unavailable))
            }
            let retry = { [self] (renewed: BackendCredentials?) in
                guard let renewed else { return completion(result) }
                send(
                    method, path, body: body, authenticated: authenticated, attempt: attempt + 1, session: renewed,
                    askedBy: askedBy, sentAs: sentAs, completion: completion)
            }
            if case .anonymous(let token) = session, renewsAnonymousTokens { return renewAnonymous(token, then: retry) }
            guard case .account(let used, let refreshToken) = session else { return completion(result) }
            // Another request refreshed the session while this one was out: its new tokens are used as they are. A
            // refresh token the phone already replaced is never traded again: the server takes that as a refresh whose
            // answer was lost and spends the one the phone holds instead, which then signs the reader out (fuzz seed
            // 5440). Either token differing says so.
            if tradesOnlyHeldRefreshTokens, case .account(let current, let currentRefresh) = credentials(),
                current != used || currentRefresh != refreshToken
            {
                return askerLeft() ? completion(result) : retry(credentials())
            }
            refresh(refreshToken) { [self] outcome in
                let refreshed: BackendCredentials
                switch outcome {
                case .unanswered(let failure):
                    // No word from the server on the session (a timeout, a 500, an unreadable answer): it stands,
                    // and the request failed as the refresh did. Its 401 would sign the reader out (session 23).
                    return completion(.failure(failure))
                case .refreshed(let credentials): refreshed = credentials
                case .refused:
                    // The session ended and the reader is back on the phone's anonymous identity: the request
                    // is asked again as that identity, or an article its levels open would fail to load. When
                    // another sign-in replaced the session while its refresh was out, the refusal ended nothing
                    // here: the request goes as the account signed in now, as it does after a refresh that worked.
                    let now = credentials()
                    switch now {
                    case .anonymous where path != "/v1/transfers": break
                    case .account(let current, _) where current != used && !askerLeft(): break
                    default: return completion(result)
                    }
                    return send(
                        method, path, body: body, authenticated: authenticated, attempt: attempt + 1, session: now,
                        askedBy: askedBy, sentAs: sentAs, completion: completion)
                }
                // Signed in to another account while the refresh was out: the request goes as that account,
                // not as the session it was refreshed for (a transfer or a restore goes as the one that asked).
                let now = credentials()
                var replaced = false
                if case .account(let current, _) = now, current != used { replaced = current != refreshed.accessToken }
                send(
                    method, path, body: body, authenticated: authenticated, attempt: attempt + 1,
                    session: replaced && !askerLeft() ? now : refreshed, askedBy: askedBy, sentAs: sentAs,
                    completion: completion)
            }
        }
    }

    /// What trading a refresh token came to: a new session, the server's refusal (the session is over), or no
    /// word from the server (the session stands).
    enum RefreshOutcome {
        case refreshed(BackendCredentials)
        case refused
        case unanswered(BackendFailure)
    }

    /// Requests waiting for the refresh of each refresh token: one refresh for all of them.
    private var refreshWaiters: [String: [(RefreshOutcome) -> Void]] = [:]

    /// Trades a refresh token for a new session.
    private func refresh(_ refreshToken: String, completion: @escaping (RefreshOutcome) -> Void) {
        refreshWaiters[refreshToken, default: []].append(completion)
        guard refreshWaiters[refreshToken]?.count == 1 else { return }
        refreshOnce(refreshToken) { [self] refreshed in
            let waiting = refreshWaiters.removeValue(forKey: refreshToken) ?? []
            for waiter in waiting { waiter(refreshed) }
        }
    }

    private func refreshOnce(_ refreshToken: String, completion: @escaping (RefreshOutcome) -> Void) {
        let request = HTTPRequest(
            method: "POST", path: "/v1/sessions/refresh",
            headers: ["Content-Type": "application/json", "X-Device-Id": deviceId],
            body: CanonicalJSONWriter.object(["refreshToken": refreshToken]))
        exchange(request) { [self] result in
            let body: [UInt8]
            switch result {
            case .failure(.unauthorized):
                onSessionEnded(refreshToken)
                return completion(.refused)
            case .failure(let failure): return completion(.unanswered(failure))
            case .success(let answer): body = answer
            }
            guard case .success(let session) = Self.decode(SessionBody.self, body), let token = session.access.token
            else {
                log("POST /v1/sessions/refresh: the answer could not be read; the session stands")
                return completion(.unanswered(.unavailable))
            }
            onSessionRefreshed(session.access, session.refreshToken, refreshToken)
            completion(.refreshed(.account(token: token, refreshToken: session.refreshToken)))
        }
    }

    /// Trades an expired anonymous token for a fresh one of the same identity; nil when refused.
    private func renewAnonymous(_ token: String, then completion: @escaping (BackendCredentials?) -> Void) {
        let request = HTTPRequest(
            method: "POST", path: "/v1/anonymous-tokens",
            headers: ["Authorization": "Bearer \(token)", "X-Device-Id": deviceId], body: [])
        exchange(request) { [self] result in
            guard case .success(let body) = result, case .success(let renewed) = Self.decode(AccessBody.self, body),
                let fresh = renewed.access.token
            else { return completion(nil) }
            onAnonymousTokenRenewed(renewed.access)
            completion(.anonymous(token: fresh))
        }
    }

    /// One request and its answer, or `timedOut` when the answer takes longer than `timeout`.
    private func exchange(_ request: HTTPRequest, completion: @escaping (Result<[UInt8], BackendFailure>) -> Void) {
        // The timer names the request and holds its completion only until an answer takes it: a cancelled
        // timer waits in the scheduler until it is due, and the completion holds the request's body, which
        // is megabytes for a receipt (every restore's two stayed in memory, and each new one took fresh pages).
        let pending = PendingAnswer(completion)
        let cancelTimeout = timer(timeout) { [weak self, timeout, method = request.method, path = request.path] in
            guard let self, !self.isCancelled, let completion = pending.take() else { return }
            self.log("\(method) \(path): no answer within \(timeout), given up")
            self.onGiveUp?(path)
            completion(.failure(.timedOut))
        }
        guard !isCancelled else { return }
        transport.send(request) { [weak self] response in
            guard self?.isCancelled == false, let completion = pending.take() else { return }
            cancelTimeout()
            self?.onAnswer?(response)
            // Readable while the answer is handled, so an older answer that lands late can be told apart.
            self?.answeringStamp = ServerStamp(response)
            completion(Self.result(response))
            self?.answeringStamp = nil
        }
    }

    private static func result(_ response: HTTPResponse) -> Result<[UInt8], BackendFailure> {
        if response.isSuccess { return .success(response.body) }
        // A restore refused in part still answers with the identity and its levels: that is an answer.
        if response.status == 403 || response.status == 409,
            case .success = decode(AccessBody.self, response.body)
        {
            return .success(response.body)
        }
        var code = ""
        if case .success(let body) = decode(ErrorBody.self, response.body) { code = body.error }
        switch response.status {
        case 401: return .failure(.unauthorized(code: code))
        case 400..<500 where !code.isEmpty: return .failure(.refused(status: response.status, code: code))
        default: return .failure(.unavailable)
        }
    }

    private static func restoreAnswer(_ result: Result<[UInt8], BackendFailure>) -> Result<
        RestoreAnswer, BackendFailure
    > {
        result.flatMap { bytes in
            decode(AccessBody.self, bytes).map {
                RestoreAnswer(access: $0.access, restored: $0.restored ?? [], refusal: $0.error)
            }
        }
    }

    /// `bytes` as `type`: by `QuickJSON` when it is a `QuickBody` and the answer is plain, else by `JSONDecoder`.
    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> Result<T, BackendFailure> {
        if let read = quickly(type, bytes) { return read }
        guard let value = try? JSONDecoder().decode(type, from: Data(bytes)) else { return .failure(.unavailable) }
        return .success(value)
    }
}

extension BackendClient {
    /// `bytes` as `type` by `QuickJSON`; nil when `type` is not a `QuickBody` or the body is not plain. A
    /// plain body without the fields (an error's body read as an access answer) is one `JSONDecoder`
    /// refuses too: it is refused here, not read twice.
    static func quickly<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> Result<T, BackendFailure>? {
        guard let quick = type as? any QuickBody.Type, let members = QuickJSON.object(bytes) else { return nil }
        var fields = QuickFields(members)
        guard let body = quick.init(quick: &fields), !fields.failed, let value = body as? T else {
            return .failure(.unavailable)
        }
        return .success(value)
    }
}

/// A request's completion until the answer or the timeout takes it, whichever comes first.
private final class PendingAnswer {
    private var completion: ((Result<[UInt8], BackendFailure>) -> Void)?

    init(_ completion: @escaping (Result<[UInt8], BackendFailure>) -> Void) {
        self.completion = completion
    }

    func take() -> ((Result<[UInt8], BackendFailure>) -> Void)? {
        defer { completion = nil }
        return completion
    }
}
