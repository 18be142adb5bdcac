import Foundation
import SimKernel
import Testing

@testable import BackendSim
@testable import StoreSim

/// The refusal codes of docs/BACKEND-API.md that no other test showed, each as the app would meet it,
/// and the lapsed-renewal question asked once per request.
@Suite struct BackendRefusalTests {
    private func send(
        _ world: LedgerWorld, _ method: String, _ path: String, body: String = "", token: String? = nil
    ) -> (status: Int, body: [String: Any]) {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let response = world.backend.handle(
            HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8)))
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }

    private func receiptBody(_ receipt: String) -> String {
        String(decoding: try! JSONEncoder().encode(["receipt": receipt]), as: UTF8.self)
    }

    /// A receipt reported, and the anonymous identity's token.
    private func anonymousToken(_ world: LedgerWorld) throws -> String {
        let answer = send(world, "POST", "/v1/receipts", body: receiptBody(world.buy(on: "phone-1")))
        let identity = try #require(answer.body["identity"] as? [String: Any])
        return try #require(identity["token"] as? String)
    }

    @Test func aSandboxReceiptSentToAProductionServerIsReceiptSandbox() throws {
        let world = try LedgerWorld()
        world.backend.environment = .production
        let receipt = world.buy(on: "phone-1")
        let answer = send(world, "POST", "/v1/receipts", body: receiptBody(receipt))
        #expect(answer.status == 422)
        #expect(answer.body["error"] as? String == "receipt_sandbox")
        #expect(try world.backend.ledger.allPurchases().isEmpty)
    }

    @Test(arguments: [#"{"receipt": 5}"#, "not json", #"{"receipts": "x"}"#])
    func aBodyThatIsNotAReceiptIsBodyMalformed(_ body: String) throws {
        let world = try LedgerWorld()
        let answer = send(world, "POST", "/v1/receipts", body: body)
        #expect(answer.status == 400)
        #expect(answer.body["error"] as? String == "body_malformed")
    }

    @Test func aGuestAskingForATransferIsAccountRequired() throws {
        let world = try LedgerWorld()
        let token = try anonymousToken(world)
        let before = world.auditCount
        let body = String(decoding: try JSONEncoder().encode(["anonymousToken": token]), as: UTF8.self)
        let answer = send(world, "POST", "/v1/transfers", body: body, token: token)
        #expect(answer.status == 403)
        #expect(answer.body["error"] as? String == "account_required")
        #expect(world.auditCount == before)
    }

    /// The renewal's notification never arrives (this world has no notification address): `GET /v1/me`
    /// asks Apple once, and what Apple said is written once, with its audit row.
    @Test func aLapsedRenewalIsAskedOnceAndWrittenOnce() throws {
        let world = try LedgerWorld()
        let token = try anonymousToken(world)
        world.scheduler.advance(by: .days(35))
        let asked = { world.timeline.entries.filter { $0.text.hasPrefix("asked Apple about") }.count }
        let answer = send(world, "GET", "/v1/me", token: token)
        #expect(answer.body["levels"] as? [String] == ["premium"])
        #expect(asked() == 1)
        let writes = try world.backend.ledger.auditTrail().filter { $0.contains("asked Apple") }
        #expect(writes.count == 1)
        _ = send(world, "GET", "/v1/me", token: token)
        #expect(asked() == 1)
    }
}

/// Issue 14, item 4: a REFUND notification lost on the way leaves access on only until the server's
/// daily look at Apple's records, not until the period ends.
@Suite struct ReconciliationTests {
    @Test func aLostRefundIsCaughtWithinAVirtualDay() throws {
        // This world has no notification address: every notification is lost.
        let world = try LedgerWorld()
        let receipt = world.buy(on: "phone-1")
        let access = try #require(
            world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }?.value)
        let client = world.client(on: "phone-1", credentials: .anonymous(token: try #require(access.token)))
        let levels = { world.await { client.me(completion: $0) }?.value?.0.levels.map(\.rawValue) }
        let transaction = try #require(world.store.transactions(appleId: "a@icloud.test").first)
        #expect(try world.store.refund(transactionId: transaction.transactionIdentifier))
        world.scheduler.advance(by: .hours(2))
        #expect(levels() == ["premium"])
        world.scheduler.advance(by: .days(1))
        #expect(levels() == [])
        let purchase = try #require(try world.backend.ledger.allPurchases().first)
        #expect(purchase.revoked)
        #expect(try world.backend.ledger.auditTrail().contains { $0.contains("access taken back") })
    }
}
