import BackendSim
import Foundation
import Signing
import SimKernel
import StoreSim
import Subscriptions
import Testing

/// The backend for the bundled app over an in-memory fake store, with a receipt bought on phone-1.
struct BackendFixture {
    let fixture: StoreFixture
    let backend: Backend
    let receipt: String

    init(product: String = "com.dailynews.premium.monthly") throws {
        fixture = try StoreFixture()
        let scheduler = fixture.scheduler
        backend = try Backend(
            config: fixture.config, store: fixture.store, clock: { scheduler.now }, timeline: fixture.timeline,
            databasePath: nil)
        let box = ReceiptBox()
        let queue = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: box)
        queue.startObserving { _ in }
        queue.add(productIdentifier: product)
        fixture.scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        fixture.scheduler.runUntilIdle()
        receipt = try #require(box.receipt)
    }

    func post(_ receipt: String, token: String? = nil) -> (status: Int, body: [String: Any]) {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let body = try! JSONSerialization.data(withJSONObject: ["receipt": receipt])
        return send(HTTPRequest(method: "POST", path: "/v1/receipts", headers: headers, body: Array(body)))
    }

    func get(_ path: String, token: String? = nil) -> (status: Int, body: [String: Any]) {
        send(HTTPRequest(method: "GET", path: path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:]))
    }

    private func send(_ request: HTTPRequest) -> (status: Int, body: [String: Any]) {
        let response = backend.handle(request)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }
}

@Suite struct BackendTests {
    @Test func aReceiptWithoutAnIdentityCreatesAnAnonymousOneWithItsLevels() throws {
        let server = try BackendFixture()
        let answer = server.post(server.receipt)
        #expect(answer.status == 200)
        let identity = try #require(answer.body["identity"] as? [String: Any])
        #expect(identity["kind"] as? String == "anonymous")
        #expect(identity["id"] as? String == "anon-000001")
        #expect(identity["token"] is String)
        #expect(answer.body["levels"] as? [String] == ["premium"])
        let trail = try server.backend.ledger.auditTrail()
        #expect(trail.count == 2)
        #expect(trail[0].contains("identity.created"))
        #expect(trail[1].contains("purchase.linked"))
    }

    @Test func theSameReceiptSentAgainWithTheTokenMovesNothingAndCreatesNoOne() throws {
        let server = try BackendFixture()
        let first = server.post(server.receipt)
        let token = try #require((first.body["identity"] as? [String: Any])?["token"] as? String)
        let again = server.post(server.receipt, token: token)
        #expect(again.status == 200)
        #expect((again.body["identity"] as? [String: Any])?["id"] as? String == "anon-000001")
        #expect(try server.backend.ledger.auditTrail().count == 2)
    }

    @Test func aForgedReceiptIsRefusedAndNothingIsWritten() throws {
        let server = try BackendFixture()
        var parts = server.receipt.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        let answer = server.post(parts.joined(separator: "."))
        #expect(answer.status == 422)
        #expect(answer.body["error"] as? String == "receipt_invalid")
        #expect(try server.backend.ledger.auditTrail().isEmpty)
    }

    @Test(arguments: ["not-a-token", "a.b.c", "Zm9v.YmFy.YmF6"])
    func aBadTokenIsRefusedWith401AndNothingIsWritten(_ token: String) throws {
        let server = try BackendFixture()
        let answer = server.post(server.receipt, token: token)
        #expect(answer.status == 401)
        #expect(try server.backend.ledger.auditTrail().isEmpty)
    }

    @Test func anotherAppsTokenIsRefused() throws {
        let server = try BackendFixture()
        // Signed with the platform's key (the fixture's, derived from seed 1), but for another app of the platform.
        let authority = TokenAuthority(secret: Keyring.derived(seed: 1).tokenSecret, audience: "com.other.app")
        let token = authority.issue(
            for: IdentityRecord(id: "anon-000001", kind: .anonymous), now: .worldStart, lifetime: .days(1))
        #expect(server.get("/v1/me", token: token).body["error"] as? String == "token_other_app")
    }

    @Test func fullContentIsServedOnlyToAnIdentityHoldingARequiredLevel() throws {
        let server = try BackendFixture()
        #expect(server.get("/v1/content/night-trains").status == 403)
        let token = try #require(
            (server.post(server.receipt).body["identity"] as? [String: Any])?["token"] as? String)
        let answer = server.get("/v1/content/night-trains", token: token)
        #expect(answer.status == 200)
        #expect((answer.body["body"] as? String)?.hasPrefix("Sleeper services") == true)
        #expect(server.get("/v1/content/no-such-article", token: token).status == 404)
    }

    @Test func levelsEndWhenThePurchaseExpires() throws {
        let server = try BackendFixture()
        let token = try #require(
            (server.post(server.receipt).body["identity"] as? [String: Any])?["token"] as? String)
        #expect(server.get("/v1/me", token: token).body["levels"] as? [String] == ["premium"])
        // The reader turned auto-renew off: Apple does not renew, and the server, asking, hears so.
        try server.fixture.store.setAutoRenew(false, originalTransactionId: "2000000000000001")
        server.fixture.scheduler.advance(by: .days(32))
        #expect(server.get("/v1/me", token: token).body["levels"] as? [String] == [])
    }

    @Test func anUnknownRouteIs404() throws {
        let server = try BackendFixture()
        #expect(server.get("/v1/nothing").status == 404)
    }
}

/// The ledger follows the store's records of a purchase when a receipt comes back, whatever
/// notification it missed (the process stopped between the store's write and the backend's).
@Suite struct ReceiptStateTests {
    @Test func aRefundTheLedgerMissedEndsAccessAndBuyingAgainBringsItBack() throws {
        let world = try LedgerWorld()
        let client = world.client(on: "phone-1")
        let receipt = world.buy(on: "phone-1")
        let token = try #require(world.await { client.validateReceipt(receipt, completion: $0) }?.value?.token)
        let owner = world.client(on: "phone-1", credentials: .anonymous(token: token))
        let transaction = try #require(world.store.transactions(appleId: "a@icloud.test").last)
        #expect(try world.store.refund(transactionId: transaction.transactionIdentifier))
        // No REFUND notification reached the backend; the receipt's next report carries the refund.
        #expect(world.await { owner.validateReceipt(receipt, completion: $0) }?.value?.levels == [])
        // Bought again: the same subscription (original transaction), paid again.
        let again = world.buy(on: "phone-1")
        #expect(
            world.await { owner.validateReceipt(again, completion: $0) }?.value?.levels == [AccessLevel("premium")])
    }
}
