import Foundation
import Signing
import SimKernel
import Subscriptions
import Testing

@testable import BackendSim
@testable import StoreSim

/// Promotional offers: the backend signs one for one purchase; the store refuses anything else.
@Suite struct PromotionalOfferTests {
    private let product = "com.dailynews.premium.monthly"
    private let offer = "come-back-half-price"

    /// A subscriber's token, for asking the backend to sign.
    private func subscriber(_ world: LedgerWorld) throws -> String {
        let receipt = world.buy(on: "phone-1")
        let access = try #require(
            world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }?.value)
        return try #require(access.token)
    }

    /// The caller's appAccountToken, from the last signature: the payment must carry it.
    private static let accountTokenKey = "appAccountToken"

    private func sign(
        _ world: LedgerWorld, token: String?, offer: String, forToken: String? = nil
    ) -> (status: Int, discount: PaymentDiscount?, appAccountToken: String?) {
        var fields = ["productId": product, "offerId": offer]
        fields["appAccountToken"] = forToken
        let body = try! JSONEncoder().encode(fields)
        let response = world.backend.handle(
            HTTPRequest(
                method: "POST", path: "/v1/offers/sign",
                headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:], body: Array(body)))
        guard response.isSuccess,
            let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let key = object["keyIdentifier"] as? String, let nonce = object["nonce"] as? String,
            let timestamp = object["timestamp"] as? Int64,
            let signature = (object["signature"] as? String).flatMap(Base64URL.decode)
        else { return (response.status, nil, nil) }
        return (
            response.status,
            PaymentDiscount(
                identifier: offer, keyIdentifier: key, nonce: nonce, signature: signature, timestamp: timestamp),
            object[Self.accountTokenKey] as? String
        )
    }

    /// Buys with `discount` on phone-1 and returns the last state and error the observer saw.
    private func pay(_ world: LedgerWorld, with discount: PaymentDiscount, as appAccountToken: String? = nil)
        -> (TransactionState?, StoreError?)
    {
        let queue = world.queue("phone-1")
        var last: PaymentTransaction?
        queue.startObserving { last = $0 }
        queue.add(productIdentifier: product, discount: discount, appAccountToken: appAccountToken ?? customer)
        world.scheduler.runUntilIdle()
        if queue.sheet != nil { queue.answerSheet(confirm: true) }
        world.scheduler.runUntilIdle()
        return (last?.state, last?.error)
    }

    /// The customer's appAccountToken the backend signs for (anon-000001's, under the test keys).
    private var customer: String { (try? LedgerWorld().backend.appAccountToken(for: "anon-000001")) ?? "" }

    @Test func aSignedOfferIsAcceptedOnceAndItsReplayIsRefused() throws {
        let world = try LedgerWorld()
        let token = try subscriber(world)
        let discount = try #require(sign(world, token: token, offer: offer).discount)
        #expect(pay(world, with: discount).0 == .purchased)
        let replay = pay(world, with: discount)
        #expect(replay.0 == .failed)
        #expect(replay.1 == .invalidSignature)
    }

    @Test func aTamperedOrUnsignedOfferIsRefused() throws {
        let world = try LedgerWorld()
        let token = try subscriber(world)
        let signed = try #require(sign(world, token: token, offer: offer).discount)
        var tampered = signed.signature
        tampered[0] ^= 0xFF
        let forged = PaymentDiscount(
            identifier: offer, keyIdentifier: signed.keyIdentifier, nonce: signed.nonce, signature: tampered,
            timestamp: signed.timestamp)
        #expect(pay(world, with: forged).1 == .invalidSignature)
        let unsigned = PaymentDiscount(
            identifier: offer, keyIdentifier: signed.keyIdentifier, nonce: "", signature: [], timestamp: 0)
        #expect(pay(world, with: unsigned).1 == .missingOfferParams)
        let otherKey = PaymentDiscount(
            identifier: offer, keyIdentifier: "NOT-A-KEY", nonce: signed.nonce, signature: signed.signature,
            timestamp: signed.timestamp)
        #expect(pay(world, with: otherKey).1 == .invalidSignature)
        #expect(world.store.charges(appleId: "a@icloud.test") == 1)
    }

    @Test func anExpiredSignatureIsRefused() throws {
        let world = try LedgerWorld()
        let token = try subscriber(world)
        let discount = try #require(sign(world, token: token, offer: offer).discount)
        world.scheduler.advance(by: .days(2))
        #expect(pay(world, with: discount).1 == .invalidSignature)
    }

    @Test func theBackendSignsOnlyForAKnownCustomerAndAKnownOffer() throws {
        let world = try LedgerWorld()
        #expect(sign(world, token: nil, offer: offer).status == 401)
        let token = try subscriber(world)
        #expect(sign(world, token: token, offer: "no-such-offer").status == 422)
    }

    /// The signature covers the caller's own appAccountToken: asking for another customer's is refused,
    /// and a signature paid for under another token does not hold.
    @Test func aSignatureIsBoundToTheCallersIdentity() throws {
        let world = try LedgerWorld()
        let token = try subscriber(world)
        let other = world.backend.appAccountToken(for: "acct-000002")
        #expect(sign(world, token: token, offer: offer, forToken: other).status == 403)
        let signed = sign(world, token: token, offer: offer)
        #expect(signed.appAccountToken == customer)
        let discount = try #require(signed.discount)
        #expect(pay(world, with: discount, as: other).1 == .invalidSignature)
        #expect(pay(world, with: discount).0 == .purchased)
    }

    @Test func aNonceSpentBeforeARestartStaysSpent() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try LedgerWorld(storePath: directory + "/appstore.sqlite")
        let token = try subscriber(first)
        let discount = try #require(sign(first, token: token, offer: offer).discount)
        #expect(pay(first, with: discount).0 == .purchased)
        let second = try LedgerWorld(storePath: directory + "/appstore.sqlite")
        #expect(pay(second, with: discount).1 == .invalidSignature)
    }
}
