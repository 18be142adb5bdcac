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
        let (created, refresh) = try #require(signUp.value)
        #expect(created.kind == "account")
        #expect(created.email == "ana@example.com")
        #expect(created.token != nil)
        #expect(!refresh.isEmpty)
        let logIn = try #require(
            world.await { client.logIn(email: "ana@example.com", password: "correct horse", completion: $0) })
        #expect(logIn.value?.0.identityId == created.identityId, "\(logIn)")
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
        let signUp = try #require(
            world.await {
                world.client(on: "phone-1").signUp(email: "ana@example.com", password: "correct horse", completion: $0)
            })
        let (access, refresh) = try #require(signUp.value)
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
        let signUp = try #require(
            world.await {
                world.client(on: "phone-1").signUp(email: "ana@example.com", password: "correct horse", completion: $0)
            })
        let (access, refresh) = try #require(signUp.value)
        world.scheduler.advance(by: .hours(2))
        // Both refreshes use the same (old) refresh token: the second one is refused, and so is the request.
        let first = world.client(on: "phone-1", credentials: .account(token: access.token ?? "", refreshToken: refresh))
        #expect(world.await { first.me(completion: $0) }?.value != nil)
        let second = world.client(
            on: "phone-1", credentials: .account(token: access.token ?? "", refreshToken: refresh))
        #expect(world.await { second.me(completion: $0) }?.failure == .unauthorized(code: "token_expired"))
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
}

/// A backend that never answers.
final class SilentTransport: BackendTransport {
    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {}
}
