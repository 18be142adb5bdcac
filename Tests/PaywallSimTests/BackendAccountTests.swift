import SimKernel
import Subscriptions
import Testing

@testable import BackendSim

@Suite struct BackendAccountTests {
    @Test func signUpThenLogInGivesTheSameAccountWithATokenAndARefreshToken() throws {
        let world = try LedgerWorld()
        let client = world.client(on: "phone-1")
        let signUp = try #require(
            world.await { client.signUp(email: "Ana@Example.com", password: "correct horse", completion: $0) })
        let session = try #require(signUp.value)
        let (created, refresh) = (session.access, session.refreshToken)
        #expect(session.subscriptions == [])
        #expect(created.kind == "account")
        #expect(created.email == "ana@example.com")
        #expect(created.token != nil)
        #expect(!refresh.isEmpty)
        let logIn = try #require(
            world.await { client.logIn(email: "ana@example.com", password: "correct horse", completion: $0) })
        #expect(logIn.value?.access.identityId == created.identityId, "\(logIn)")
    }

    @Test(arguments: [
        ("not-an-email", "long enough", 400, "email_invalid"),
        ("ana@example.com", "short", 400, "password_too_short"),
    ])
    func signUpRefusesBadInput(email: String, password: String, status: Int, code: String) throws {
        let world = try LedgerWorld()
        let client = world.client(on: "phone-1")
        let answer = try #require(world.await { client.signUp(email: email, password: password, completion: $0) })
        #expect(answer.failure == .refused(status: status, code: code))
        #expect(world.auditCount == 0)
    }

    @Test func anEmailCanHaveOnlyOneAccount() throws {
        let world = try LedgerWorld()
        let client = world.client(on: "phone-1")
        _ = world.await { client.signUp(email: "ana@example.com", password: "correct horse", completion: $0) }
        let again = try #require(
            world.await { client.signUp(email: "ANA@example.com", password: "other horse", completion: $0) })
        #expect(again.failure == .refused(status: 409, code: "email_taken"))
    }

    @Test func aWrongPasswordIsRefusedWithoutSayingWhichPartWasWrong() throws {
        let world = try LedgerWorld()
        let client = world.client(on: "phone-1")
        _ = world.await { client.signUp(email: "ana@example.com", password: "correct horse", completion: $0) }
        let wrong = try #require(
            world.await { client.logIn(email: "ana@example.com", password: "wrong horse", completion: $0) })
        #expect(wrong.failure == .unauthorized(code: "credentials_invalid"))
        let nobody = try #require(
            world.await { client.logIn(email: "bob@example.com", password: "wrong horse", completion: $0) })
        #expect(nobody.failure == .unauthorized(code: "credentials_invalid"))
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheRequestGoesThrough() throws {
        let world = try LedgerWorld()
        let session = try Self.anaSignedUp(world)
        let (access, refresh) = (session.access, session.refreshToken)
        world.scheduler.advance(by: .hours(2))
        let client = world.client(
            on: "phone-1", credentials: .account(token: access.token ?? "", refreshToken: refresh))
        var refreshed: (String, String)?
        client.onSessionRefreshed = { access, refreshToken, _ in refreshed = (access.token ?? "", refreshToken) }
        let me = try #require(world.await { client.me(completion: $0) })
        #expect(me.value?.0.identityId == access.identityId)
        #expect(refreshed != nil)
        #expect(refreshed?.1 != refresh)
    }

    @Test func aRefreshTokenWorksOnlyOnce() throws {
        let world = try LedgerWorld()
        let session = try Self.anaSignedUp(world)
        let (access, refresh) = (session.access, session.refreshToken)
        world.scheduler.advance(by: .hours(2))
        // The first refresh trades the old token; the phone then refreshes with the one it was given.
        let first = world.signedInClient(on: "phone-1", session)
        #expect(world.await { first.me(completion: $0) }?.value != nil)
        world.scheduler.advance(by: .hours(2))
        #expect(world.await { first.me(completion: $0) }?.value != nil)
        // The old token again: the one issued for it was used, so its answer was not lost. Refused, and so is the
        // request (before the token issued for it is used, it would be traded again: found-by-hand/47).
        let second = world.client(
            on: "phone-1", credentials: .account(token: access.token ?? "", refreshToken: refresh))
        #expect(world.await { second.me(completion: $0) }?.failure == .unauthorized(code: "token_expired"))
    }

    /// A refresh token traded again after the phone kept the first trade's answer (a quit app's trade arriving after
    /// its relaunch's, long 2446) spends nothing handed out: the phone's new token still trades, and that trade spends
    /// the one the late trade was given, which no phone holds (found-by-hand/553).
    @Test func aLateTradeOfARefreshTokenSpendsNoneIssuedForIt() throws {
        let world = try LedgerWorld()
        let ana = try Self.anaSignedUp(world)
        let expired = ana.access.token ?? ""
        world.scheduler.advance(by: .hours(2))
        /// Asks `GET /v1/me` with the expired token and `refreshToken`: the refresh token it was given, if any.
        func trade(_ refreshToken: String) -> (answered: Bool, given: String?) {
            let client = world.client(on: "phone-1", credentials: .account(token: expired, refreshToken: refreshToken))
            var given: String?
            client.onSessionRefreshed = { _, token, _ in given = token }
            return (world.await { client.me(completion: $0) }?.value != nil, given)
        }
        let relaunch = trade(ana.refreshToken)
        let late = trade(ana.refreshToken)
        let kept = try #require(relaunch.given)
        let lateGiven = try #require(late.given)
        #expect(trade(kept).answered)
        #expect(!trade(lateGiven).answered)
    }

    /// A request refused as expired after the phone's refresh token was replaced while it was out trades the one the
    /// phone holds, never its own again: the server takes a replaced token traded again for a refresh whose answer was
    /// lost and spends the phone's, whose next refresh would sign the reader out (fuzz seed 5440). Said by the refresh
    /// token alone: the access token beside it may be the old one still.
    @Test func aRequestSentBeforeItsRefreshTokenWasReplacedTradesOnlyTheOneThePhoneHolds() throws {
        let world = try LedgerWorld()
        let ana = try Self.anaSignedUp(world)
        let oldToken = ana.access.token ?? ""
        world.scheduler.advance(by: .hours(2))
        var credentials = BackendCredentials.account(token: oldToken, refreshToken: ana.refreshToken)
        var traded: [String] = []
        var replacedWhileOut = false
        let transport = WatchingTransport(backend: world.backend) { request in
            if request.path == "/v1/sessions/refresh" { traded.append(String(decoding: request.body, as: UTF8.self)) }
            // Another request's refresh lands while this one is out: the phone now holds a new refresh token.
            guard request.path == "/v1/me", !replacedWhileOut else { return }
            replacedWhileOut = true
            let other = world.client(on: "phone-1", credentials: credentials)
            other.onSessionRefreshed = { _, refreshToken, _ in
                credentials = .account(token: oldToken, refreshToken: refreshToken)
            }
            other.me { _ in }
        }
        let client = world.client(on: "phone-1", over: transport)
        client.credentials = { credentials }
        var kept: String?
        client.onSessionRefreshed = { _, refreshToken, _ in kept = refreshToken }
        var ended: [String] = []
        client.onSessionEnded = { ended.append($0) }
        let me = try #require(world.await { client.me(completion: $0) })
        #expect(me.value?.0.identityId == ana.access.identityId)
        #expect(ended.isEmpty)
        #expect(traded.count == 1)
        #expect(!traded.contains { $0.contains(ana.refreshToken) })
        let held = try #require(kept)
        #expect(try world.backend.holdsSession(refreshToken: held))
    }

    @Test func aRequestWhoseRefreshIsRefusedAfterAnotherSignInGoesAsTheAccountSignedInNow() throws {
        let world = try LedgerWorld()
        let ana = try Self.anaSignedUp(world)
        world.scheduler.advance(by: .hours(2))
        // Ana's refresh token is spent by another phone's refreshes (the token it got used too, so no answer was
        // lost), so this phone's refresh of it is refused.
        let other = world.signedInClient(on: "phone-2", ana)
        #expect(world.await { other.me(completion: $0) }?.value != nil)
        world.scheduler.advance(by: .hours(2))
        #expect(world.await { other.me(completion: $0) }?.value != nil)
        let ben = try #require(
            world.await {
                world.client(on: "phone-1").signUp(email: "ben@example.com", password: "battery staple", completion: $0)
            }?.value)
        // Ben signs in on this phone while ana's refresh is on its way.
        var credentials = BackendCredentials.account(token: ana.access.token ?? "", refreshToken: ana.refreshToken)
        let transport = WatchingTransport(backend: world.backend) { request in
            guard request.path == "/v1/sessions/refresh" else { return }
            credentials = .account(token: ben.access.token ?? "", refreshToken: ben.refreshToken)
        }
        let client = world.client(on: "phone-1", over: transport)
        client.credentials = { credentials }
        var ended: [String] = []
        client.onSessionEnded = { ended.append($0) }
        let me = try #require(world.await { client.me(completion: $0) })
        #expect(ended == [ana.refreshToken])
        #expect(me.value?.0.identityId == ben.access.identityId)
    }

    /// A transfer moves the phone's purchases to the account that asked; another account signed in while its
    /// refresh was out did not ask, and gets nothing.
    @Test func aTransferWhoseRefreshAnswersAfterAnotherSignInMovesToTheAccountThatAsked() throws {
        let world = try LedgerWorld()
        let receipt = world.buy(on: "phone-1")
        let guest = try #require(
            world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }?.value)
        let original = try #require(
            world.store.transactions(appleId: "a@icloud.test").first?.originalTransactionIdentifier)
        let signUp = { (email: String) in
            world.await { world.client(on: "phone-1").signUp(email: email, password: "correct horse", completion: $0) }?
                .value
        }
        let ana = try #require(signUp("ana@example.com"))
        world.scheduler.advance(by: .hours(2))
        let ben = try #require(signUp("ben@example.com"))
        var credentials = BackendCredentials.account(token: ana.access.token ?? "", refreshToken: ana.refreshToken)
        var signedIn = ana.access.identityId
        let transport = WatchingTransport(backend: world.backend) { request in
            guard request.path == "/v1/sessions/refresh" else { return }
            credentials = .account(token: ben.access.token ?? "", refreshToken: ben.refreshToken)
            signedIn = ben.access.identityId
        }
        let client = world.client(on: "phone-1", over: transport)
        client.credentials = { credentials }
        client.signedInAccount = { signedIn }
        _ = world.await { client.transfer(anonymousToken: guest.token ?? "", completion: $0) }
        #expect(world.owner(of: original) == ana.access.identityId)
    }

    @Test func aSlowBackendTimesOutOnTheVirtualClock() throws {
        let world = try LedgerWorld()
        let client = BackendClient(
            transport: SilentTransport(), deviceId: "phone-1", timeout: .seconds(5),
            timer: { [scheduler = world.scheduler] delay, action in
                let event = scheduler.schedule(after: delay, action)
                return { scheduler.cancel(event) }
            })
        let start = world.scheduler.now
        let answer = try #require(world.await { client.me(completion: $0) })
        #expect(answer.failure == .timedOut)
        #expect(world.scheduler.now == start + .seconds(5))
    }

    /// ana@example.com's account made on phone-1: the session the server answered with.
    private static func anaSignedUp(_ world: LedgerWorld) throws -> SessionAnswer {
        try #require(
            world.await {
                world.client(on: "phone-1").signUp(email: "ana@example.com", password: "correct horse", completion: $0)
            }?.value)
    }
}

/// A backend that never answers.
final class SilentTransport: BackendTransport {
    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {}
}

/// Hands each request to the backend at once, after showing it to `watch`.
final class WatchingTransport: BackendTransport {
    let backend: Backend
    let watch: (HTTPRequest) -> Void
    init(backend: Backend, watch: @escaping (HTTPRequest) -> Void) {
        self.backend = backend
        self.watch = watch
    }
    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {
        watch(request)
        completion(backend.handle(request))
    }
}
