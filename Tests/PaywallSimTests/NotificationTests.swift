import Foundation
import SimKernel
import Subscriptions
import Testing

@testable import BackendSim
@testable import StoreSim

/// Apple's notifications, signed with the store's key and posted to the backend as the App Store does.
@Suite struct NotificationTests {
    private let bundleId = "com.paywallsim.dailynews"

    /// A monthly purchase on phone-1, reported by the app; its token.
    private func subscribed(_ world: LedgerWorld) throws -> BackendClient {
        let receipt = world.buy(on: "phone-1")
        let access = try #require(
            world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }?.value)
        return world.client(on: "phone-1", credentials: .anonymous(token: try #require(access.token)))
    }

    private func post(
        _ world: LedgerWorld, _ type: NotificationType, _ subtype: NotificationSubtype? = nil, uuid: String,
        signedAt: SimInstant, expires: SimInstant?, revoked: SimInstant? = nil, billingRetry: Bool = false,
        grace: SimInstant? = nil, bundle: String? = nil, tamper: Bool = false, environment: StoreEnvironment = .sandbox
    ) -> (status: Int, result: String?) {
        let transaction = TransactionInfo(
            transactionId: "2000000000000009", originalTransactionId: "2000000000000001",
            productId: "com.dailynews.premium.monthly", bundleId: bundle ?? bundleId, environment: .sandbox,
            purchaseDate: SimInstant.worldStart.milliseconds, originalPurchaseDate: SimInstant.worldStart.milliseconds,
            expiresDate: expires?.milliseconds, revocationDate: revoked?.milliseconds,
            revocationReason: revoked == nil ? nil : 0,
            inAppOwnershipType: "PURCHASED", appAccountToken: nil, deviceId: "phone-1",
            signedDate: signedAt.milliseconds)
        let renewal = RenewalInfo(
            originalTransactionId: "2000000000000001", productId: "com.dailynews.premium.monthly",
            autoRenewProductId: "com.dailynews.premium.monthly", autoRenewStatus: 1,
            isInBillingRetryPeriod: billingRetry,
            gracePeriodExpiresDate: grace?.milliseconds, expirationIntent: nil, priceIncreaseStatus: nil,
            renewalDate: expires?.milliseconds, signedDate: signedAt.milliseconds)
        let payload = NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid, version: "2.0",
            signedDate: signedAt.milliseconds,
            data: NotificationData(
                bundleId: bundle ?? bundleId, environment: environment,
                signedTransactionInfo: world.store.sign(transaction),
                signedRenewalInfo: world.store.sign(renewal), status: 1))
        var signed = world.store.sign(payload)
        if tamper { signed = signed.replacingOccurrences(of: ".", with: ".x", options: [], range: nil) }
        return deliver(world, signed)
    }

    private func deliver(_ world: LedgerWorld, _ signed: String) -> (status: Int, result: String?) {
        let body = try! JSONEncoder().encode(["signedPayload": signed])
        let response = world.backend.handle(
            HTTPRequest(method: "POST", path: "/v1/notifications/apple", body: Array(body)))
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
        return (response.status, object?["result"] ?? object?["error"])
    }

    private func levels(_ world: LedgerWorld, _ client: BackendClient) -> [AccessLevel]? {
        world.await { client.me(completion: $0) }?.value?.0.levels
    }

    @Test func aRenewalExtendsAccessPastTheFirstPeriod() throws {
        let world = try LedgerWorld()
        let client = try subscribed(world)
        let renewal = CalendarPeriod(unit: .month, value: 2).added(to: .worldStart)
        world.scheduler.advance(by: .days(30))
        #expect(post(world, .didRenew, uuid: "n1", signedAt: world.scheduler.now, expires: renewal).result == "applied")
        world.scheduler.advance(by: .days(10))
        #expect(levels(world, client) == [AccessLevel("premium")])
    }

    @Test func aDuplicateDeliveryAppliesOnce() throws {
        let world = try LedgerWorld()
        _ = try subscribed(world)
        let expires = SimInstant.worldStart + .days(60)
        #expect(
            post(world, .didRenew, uuid: "same", signedAt: world.scheduler.now, expires: expires).result == "applied")
        let audit = world.auditCount
        #expect(
            post(world, .didRenew, uuid: "same", signedAt: world.scheduler.now, expires: expires).result == "duplicate")
        #expect(world.auditCount == audit)
    }

    /// The App Store's exact body is read in place; any other form of the same JSON reads alike.
    @Test func aBodyInAnotherJSONFormIsReadAlike() throws {
        let world = try LedgerWorld()
        _ = try subscribed(world)
        let expires = SimInstant.worldStart + .days(60)
        var signed = ""
        world.store.notificationEndpoint = {
            signed = $0
            return HTTPResponse(status: 200)
        }
        world.store.requestTestNotification()
        world.scheduler.runUntilIdle()
        // The same TEST notification twice: read as such in either form, so the second is a duplicate.
        let forms = [#"{ "signedPayload" : "\#(signed)" }"#, #"{"signedPayload":"\#(signed)"}"#]
        let results = forms.map { body in
            let response = world.backend.handle(
                HTTPRequest(method: "POST", path: "/v1/notifications/apple", body: Array(body.utf8)))
            return String(decoding: response.body, as: UTF8.self)
        }
        #expect(results == [#"{"result":"test"}"#, #"{"result":"duplicate"}"#])
        #expect(
            post(world, .didRenew, uuid: "n2", signedAt: world.scheduler.now, expires: expires).result == "applied")
        let response = world.backend.handle(
            HTTPRequest(method: "POST", path: "/v1/notifications/apple", body: Array(#"{"signedPayload":"a.b"}"#.utf8)))
        #expect(response.status == 400)
    }

    @Test func anOlderNotificationArrivingLateNeverOverwritesANewerState() throws {
        let world = try LedgerWorld()
        let client = try subscribed(world)
        world.scheduler.advance(by: .days(1))
        let refundTime = world.scheduler.now
        // Apple's own state agrees with the refund posted below: the server asks it on a refund.
        #expect(try world.store.refund(transactionId: "2000000000000001"))
        #expect(
            post(
                world, .refund, uuid: "refund", signedAt: refundTime, expires: .worldStart + .days(31),
                revoked: refundTime
            )
            .result == "applied")
        // A renewal signed before the refund is delivered after it.
        #expect(
            post(world, .didRenew, uuid: "late", signedAt: refundTime + .millis(-1), expires: .worldStart + .days(62))
                .result == "stale")
        #expect(levels(world, client) == [])
    }

    @Test func aRefundTakesAccessAway() throws {
        let world = try LedgerWorld()
        let client = try subscribed(world)
        #expect(levels(world, client) == [AccessLevel("premium")])
        let now = world.scheduler.now
        // Apple's own state agrees with the refund posted below: the server asks it on a refund.
        #expect(try world.store.refund(transactionId: "2000000000000001"))
        _ = post(world, .refund, uuid: "r", signedAt: now, expires: .worldStart + .days(31), revoked: now)
        #expect(levels(world, client) == [])
    }

    @Test func aBillingIssueKeepsAccessThroughTheGracePeriodThenEndsIt() throws {
        let world = try LedgerWorld()
        let client = try subscribed(world)
        // Apple's own state agrees with the notifications posted below: the renewal fails.
        try world.store.setBillingIssue(true, appleId: "a@icloud.test")
        world.scheduler.advance(by: .days(31))
        let expired = CalendarPeriod(unit: .month, value: 1).added(to: .worldStart)
        let grace = world.scheduler.now + .days(6)
        _ = post(
            world, .didFailToRenew, .gracePeriod, uuid: "f", signedAt: world.scheduler.now, expires: expired,
            billingRetry: true, grace: grace)
        let me = try #require(world.await { client.me(completion: $0) }?.value)
        #expect(me.0.levels == [AccessLevel("premium")])
        #expect(me.1.first?.billingIssue == true)
        world.scheduler.advance(by: .days(7))
        _ = post(
            world, .gracePeriodExpired, uuid: "g", signedAt: world.scheduler.now, expires: expired, billingRetry: true,
            grace: grace)
        #expect(levels(world, client) == [])
    }

    @Test func aForgedOrForeignNotificationIsRefusedAndNothingIsWritten() throws {
        let world = try LedgerWorld()
        _ = try subscribed(world)
        let audit = world.auditCount
        let now = world.scheduler.now
        #expect(post(world, .refund, uuid: "x", signedAt: now, expires: nil, revoked: now, tamper: true).status == 400)
        #expect(
            post(world, .refund, uuid: "y", signedAt: now, expires: nil, revoked: now, bundle: "com.other.app").result
                == "notification_other_app")
        #expect(world.auditCount == audit)
    }

    @Test func appleTestNotificationIsRecordedAndAnswered200() throws {
        let world = try LedgerWorld()
        var answer: (status: Int, result: String?)?
        world.store.notificationEndpoint = {
            answer = deliver(world, $0)
            return HTTPResponse(status: 200)
        }
        world.store.requestTestNotification()
        world.scheduler.runUntilIdle()
        #expect(answer?.status == 200)
        #expect(answer?.result == "test")
        let kept = try world.backend.ledger.database.query("SELECT result FROM notifications WHERE type = 'TEST'")
        #expect(kept == [[.text("test")]])
        #expect(world.backend.timeline.entries.contains { $0.text == "notification TEST: test" })
    }

    /// A type this server does not act on (Apple adds types) is kept as ignored, and answered 200, not
    /// refused as a bad signature: Apple would retry a 400 for days.
    @Test func anUnknownTypeIsRecordedAsIgnoredAnd200() throws {
        struct Unknown: CanonicalJSONWritable {
            struct AppData {
                let bundleId: String
                let environment: String
            }
            let signedDate: Int64
            let data: AppData

            func write(to writer: inout CanonicalJSONWriter) {
                writer.object { json in
                    json.object("data") { data in
                        data.string("bundleId", self.data.bundleId)
                        data.string("environment", self.data.environment)
                    }
                    json.string("notificationType", "CONSUMPTION_REQUEST")
                    json.string("notificationUUID", "unknown-1")
                    json.integer("signedDate", signedDate)
                    json.string("version", "2.0")
                }
            }
        }
        let world = try LedgerWorld()
        let signed = world.store.sign(
            Unknown(
                signedDate: world.scheduler.now.milliseconds,
                data: .init(bundleId: bundleId, environment: "Sandbox")))
        let answer = deliver(world, signed)
        #expect(answer.status == 200)
        #expect(answer.result == "ignored")
        #expect(try world.backend.ledger.notificationResult("unknown-1") == "ignored")
        #expect(deliver(world, signed).result == "duplicate")
        // Only a signature that does not hold is signature_invalid.
        #expect(deliver(world, signed + "x").result == "signature_invalid")
    }

    @Test func aProductionNotificationToTheSandboxServerIsRefused() throws {
        let world = try LedgerWorld()
        _ = try subscribed(world)
        let audit = world.auditCount
        let now = world.scheduler.now
        let answer = post(
            world, .refund, uuid: "prod", signedAt: now, expires: nil, revoked: now, environment: .production)
        #expect(answer.status == 400)
        #expect(answer.result == "notification_environment")
        #expect(world.auditCount == audit)
    }

    @Test func aNotificationBeforeTheAppReportedLeavesThePurchaseForItsBuyerToClaim() throws {
        let world = try LedgerWorld()
        let receipt = world.buy(on: "phone-1")
        #expect(
            post(
                world, .subscribed, .initialBuy, uuid: "s", signedAt: world.scheduler.now,
                expires: .worldStart + .days(31)
            ).result == "applied")
        #expect(world.owner(of: "2000000000000001") == nil)
        let access = world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }?.value
        #expect(access?.levels == [AccessLevel("premium")])
        #expect(world.owner(of: "2000000000000001") == "anon-000001")
    }
}

@Suite struct LedgerCheckTests {
    @Test func aLedgerBuiltThroughTheAPIHolds() throws {
        let world = try LedgerWorld()
        let receipt = world.buy(on: "phone-1")
        _ = world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }
        let second = world.refreshedReceipt(on: "phone-2")
        _ = world.await { world.client(on: "phone-2").restore(second, confirmMoveFromAccount: false, completion: $0) }
        #expect(try LedgerCheck.violations(in: world.backend.ledger) == [])
    }

    @Test func aLedgerEditedBehindTheRulesBackIsCaught() throws {
        let world = try LedgerWorld()
        let receipt = world.buy(on: "phone-1")
        _ = world.await { world.client(on: "phone-1").validateReceipt(receipt, completion: $0) }
        let database = world.backend.ledger.database
        for day in 0..<4 {
            try database.run(
                "INSERT INTO ownership_moves (original_transaction_id, from_id, to_id, via, at_ms) VALUES (?, ?, ?, 'restore', ?)",
                [
                    .text("2000000000000001"), .text("anon-000001"), .text("anon-000001"),
                    .integer(SimInstant.worldStart.milliseconds + Int64(day) * 86_400_000),
                ])
        }
        let violations = try LedgerCheck.violations(in: world.backend.ledger)
        #expect(violations.contains { $0.contains("moved 4 times in the 30 days") })
    }
}
