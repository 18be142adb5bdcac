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

    @Test func aReceiptWithNothingInItAndNoTokenIsNothingToValidate() throws {
        let world = try LedgerWorld()
        let empty = world.refreshedReceipt(on: "phone-7", appleId: "never-bought@icloud.test")
        let answer = send(world, "POST", "/v1/receipts", body: receiptBody(empty))
        #expect(answer.status == 422)
        #expect(answer.body["error"] as? String == "nothing_to_validate")
        #expect(world.auditCount == 0)
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

    @Test func tokensAndContentRefusalsCarryTheirCodes() throws {
        let world = try LedgerWorld()
        let code = { (answer: (status: Int, body: [String: Any])) in "\(answer.status) \(answer.body["error"] ?? "")" }
        #expect(code(send(world, "GET", "/v1/me")) == "401 token_missing")
        let malformed = world.backend.handle(
            HTTPRequest(method: "GET", path: "/v1/me", headers: ["Authorization": "Basic abc"]))
        #expect(malformed.status == 401)
        #expect(String(decoding: malformed.body, as: UTF8.self).contains("token_malformed"))
        #expect(code(send(world, "GET", "/v1/content/night-trains")) == "403 level_required")
        #expect(code(send(world, "GET", "/v1/content/no-such-article")) == "404 not_found")
        let token = try anonymousToken(world)
        let offer = #"{"productId": "com.dailynews.premium.monthly", "offerId": "no-such-offer"}"#
        #expect(code(send(world, "POST", "/v1/offers/sign", body: offer, token: token)) == "422 offer_unknown")
        let other =
            #"{"productId": "com.dailynews.premium.monthly", "offerId": "come-back-half-price", "#
            + #""appAccountToken": "00000000-0000-0000-0000-000000000000"}"#
        #expect(code(send(world, "POST", "/v1/offers/sign", body: other, token: token)) == "403 offer_not_yours")
    }

    /// A ledger that cannot be read answers 500 and says so on the timeline: never a 401 that would sign
    /// the reader out, never "no levels" (issue 13, item 7).
    @Test func aLedgerThatFailsIsA500NeverNoAccess() throws {
        let world = try LedgerWorld()
        let token = try anonymousToken(world)
        try world.backend.ledger.database.execute("ALTER TABLE purchases RENAME TO purchases_gone")
        let answer = send(world, "GET", "/v1/me", token: token)
        #expect(answer.status == 500)
        #expect(answer.body["error"] as? String == "ledger_unavailable")
        #expect(answer.body["levels"] == nil)
        #expect(world.timeline.entries.contains { $0.text.hasPrefix("ledger failed:") })
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

    /// A one-time purchase never lapses: its lost refund is caught from its latest transaction.
    @Test func aLostRefundOfAOneTimePurchaseIsCaughtWithinAVirtualDay() throws {
        let world = try LedgerWorld { config in
            config.store.products[0].type = .nonConsumable
            config.store.products[0].subscriptionGroup = nil
            config.store.products[0].subscriptionPeriod = nil
            config.store.products[0].promotionalOffers = nil
        }
        let receipt = world.buy(on: "phone-1")
        let access = try #require(
            world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }?.value)
        #expect(access.levels.map(\.rawValue) == ["premium"])
        let client = world.client(on: "phone-1", credentials: .anonymous(token: try #require(access.token)))
        let transaction = try #require(world.store.transactions(appleId: "a@icloud.test").first)
        #expect(try world.store.refund(transactionId: transaction.transactionIdentifier))
        world.scheduler.advance(by: .days(1) + .hours(1))
        #expect(world.await { client.me(completion: $0) }?.value?.0.levels == [])
    }
}
