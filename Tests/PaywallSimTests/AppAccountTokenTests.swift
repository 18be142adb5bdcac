import Foundation
import SimKernel
import Testing

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// Seed 003, issue 14 item 2: on an Apple ID shared by the app's accounts (a family's iPad), a new
/// purchase follows who paid — named by the appAccountToken the app sets on the payment — whoever
/// reports it; a renewal or a transaction reported again moves nothing.
@Suite struct AppAccountTokenTests {
    private let appleId = "family@icloud.test"
    private let device = "family-ipad"

    private struct Customer {
        let token: String
        let id: String
        let appAccountToken: String
    }

    private func send(_ world: LedgerWorld, _ path: String, _ body: [String: Any], token: String? = nil)
        -> (status: Int, body: [String: Any])
    {
        var headers = ["X-Device-Id": device]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let response = world.backend.handle(
            HTTPRequest(
                method: "POST", path: path, headers: headers,
                body: Array(try! JSONSerialization.data(withJSONObject: body))))
        return (
            response.status, (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        )
    }

    private func customer(_ answer: (status: Int, body: [String: Any])) throws -> Customer {
        let identity = try #require(answer.body["identity"] as? [String: Any])
        return Customer(
            token: try #require(identity["token"] as? String), id: try #require(identity["id"] as? String),
            appAccountToken: try #require(identity["appAccountToken"] as? String))
    }

    private func signUp(_ world: LedgerWorld, _ email: String) throws -> Customer {
        try customer(send(world, "/v1/accounts", ["email": email, "password": "correct horse"]))
    }

    /// A fresh session: account tokens last an hour of virtual time.
    private func logIn(_ world: LedgerWorld, _ email: String) throws -> Customer {
        try customer(send(world, "/v1/sessions", ["email": email, "password": "correct horse"]))
    }

    private func levels(_ world: LedgerWorld, _ customer: Customer) throws -> [String] {
        try world.backend.levels(of: customer.id)
    }

    /// Ana subscribed on the family iPad and let it lapse; Ben resubscribes there, signed in as himself.
    private func lapsedForAna(_ world: LedgerWorld) throws -> (ana: Customer, ben: Customer, id: String) {
        let ana = try signUp(world, "ana@example.com")
        _ = try signUp(world, "ben@example.com")
        let receipt = world.buy(on: device, appleId: appleId, appAccountToken: ana.appAccountToken)
        #expect(send(world, "/v1/receipts", ["receipt": receipt], token: ana.token).status == 200)
        let id = try #require(world.store.transactions(appleId: appleId).first?.originalTransactionIdentifier)
        try world.store.setAutoRenew(false, originalTransactionId: id)
        world.scheduler.advance(by: .days(32))
        return (try logIn(world, "ana@example.com"), try logIn(world, "ben@example.com"), id)
    }

    @Test func aResubscriptionByAnotherAccountMovesThePurchaseToWhoPaid() throws {
        let world = try LedgerWorld()
        let (ana, ben, id) = try lapsedForAna(world)
        let receipt = world.buy(on: device, appleId: appleId, appAccountToken: ben.appAccountToken)
        let answer = send(world, "/v1/receipts", ["receipt": receipt], token: ben.token)
        #expect(answer.status == 200)
        #expect(answer.body["levels"] as? [String] == ["premium"])
        #expect(world.owner(of: id) == ben.id)
        #expect(try levels(world, ana) == [])
        let moves = try world.backend.ledger.auditTrail().filter { $0.contains("purchases.ownership.transferred") }
        #expect(moves.count == 1)
        #expect(moves.first?.hasSuffix("from \(ana.id) to \(ben.id) via purchase") == true)
        // Ana's phone reports the same receipt again: nothing moves back.
        #expect(send(world, "/v1/receipts", ["receipt": receipt], token: ana.token).status == 200)
        #expect(world.owner(of: id) == ben.id)
        #expect(try LedgerCheck.violations(in: world.backend.ledger) == [])
    }

    @Test func applesNotificationMovesItBeforeTheAppReports() throws {
        let world = try LedgerWorld()
        world.store.notificationEndpoint = { [backend = world.backend] signed in
            backend.handle(
                HTTPRequest(
                    method: "POST", path: "/v1/notifications/apple",
                    body: Array(try! JSONEncoder().encode(["signedPayload": signed]))))
        }
        let (ana, ben, id) = try lapsedForAna(world)
        _ = world.buy(on: device, appleId: appleId, appAccountToken: ben.appAccountToken)
        #expect(world.owner(of: id) == ben.id)
        #expect(try levels(world, ben) == ["premium"])
        // Its renewal names nobody: it stays with who paid.
        world.scheduler.advance(by: .days(32))
        world.scheduler.runUntilIdle()
        #expect(world.owner(of: id) == ben.id)
        #expect(try levels(world, ana) == [])
    }

    @Test func aPurchaseThatMovedThreeTimesIn30DaysStaysWithItsOwner() throws {
        let world = try LedgerWorld()
        let (ana, ben, id) = try lapsedForAna(world)
        // Three moves this month already (restores between the two, as the ledger records them).
        let now = world.scheduler.now
        try world.backend.ledger.move(id, from: ana.id, to: ben.id, via: .restore, at: now)
        try world.backend.ledger.move(id, from: ben.id, to: ana.id, via: .restore, at: now)
        try world.backend.ledger.move(id, from: ana.id, to: ben.id, via: .restore, at: now)
        // Ana pays for it again, as herself: a fourth move would break the limit.
        let receipt = world.buy(on: device, appleId: appleId, appAccountToken: ana.appAccountToken)
        let answer = send(world, "/v1/receipts", ["receipt": receipt], token: ana.token)
        #expect(answer.status == 409)
        #expect(answer.body["error"] as? String == "restore_limit")
        #expect(world.owner(of: id) == ben.id)
    }

    @Test func aPaymentAParentApprovesLaterKeepsItsToken() throws {
        let world = try LedgerWorld()
        let ben = try signUp(world, "ben@example.com")
        world.store.askToBuyEnabled = true
        _ = world.buy(on: device, appleId: appleId, appAccountToken: ben.appAccountToken)
        #expect(world.store.transactions(appleId: appleId).isEmpty)
        #expect(world.store.approveAskToBuy())
        world.scheduler.runUntilIdle()
        #expect(world.store.transactions(appleId: appleId).map(\.appAccountToken) == [ben.appAccountToken])
    }

    @Test func aGuestPayingNeverTakesAnAccountsPurchase() throws {
        let world = try LedgerWorld()
        let (ana, _, id) = try lapsedForAna(world)
        let guest = try customer(
            send(world, "/v1/receipts", ["receipt": world.buy(on: "phone-9", appleId: "g@icloud.test")]))
        let receipt = world.buy(on: device, appleId: appleId, appAccountToken: guest.appAccountToken)
        let answer = send(world, "/v1/receipts", ["receipt": receipt], token: guest.token)
        #expect(answer.status == 403)
        #expect(answer.body["error"] as? String == "restore_account_owned")
        #expect(world.owner(of: id) == ana.id)
    }

    /// A purchase Apple holds that the ledger never heard of (its check failed, its notification was lost): the
    /// check before paying finds it nobody's yet and restorable, and the restore, entering it as its payer's, lists
    /// it as restored to them, so an app that asks first never pays again for it (seed 6386).
    @Test func anUnreportedPurchaseIsRestoredToItsPayerAndSaidSo() throws {
        let world = try LedgerWorld()
        let ben = try signUp(world, "ben@example.com")
        let receipt = world.buy(on: device, appleId: appleId, appAccountToken: ben.appAccountToken)
        let id = try #require(world.store.transactions(appleId: appleId).first?.originalTransactionIdentifier)
        #expect(world.owner(of: id) == nil)
        let inspected = send(world, "/v1/restores/inspect", ["receipt": receipt], token: ben.token)
        let purchases = try #require(inspected.body["purchases"] as? [[String: Any]])
        #expect(purchases.map { $0["owner"] as? String } == ["nobody"])
        #expect(purchases.map { $0["restorable"] as? Bool } == [true])
        let restored = send(world, "/v1/restores", ["receipt": receipt], token: ben.token)
        #expect(restored.status == 200)
        #expect(restored.body["restored"] as? [String] == [id])
        #expect(world.owner(of: id) == ben.id)
    }
}

/// The same, through the app: a signed-in reader's payment carries their appAccountToken.
@Suite struct FamilyIPadTests {
    @Test func onASharedAppleIDTheSubscriptionFollowsTheAccountThatPaid() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.openProfile()
        world.signUp("ana@example.com")
        world.buyFromFeed()
        #expect(world.isUnlocked)
        let id = try #require(world.store.transactions(appleId: world.appleId).first?.originalTransactionIdentifier)
        let ana = try #require(try world.backend.ledger.identityId(email: "ana@example.com"))
        #expect(
            world.store.transactions(appleId: world.appleId).first?.appAccountToken
                == world.backend.appAccountToken(for: ana))
        // Ana lets it lapse; Ben, on the same iPad and Apple ID, subscribes as himself.
        try world.store.setAutoRenew(false, originalTransactionId: id)
        // Past her refresh token's life too (a year and 60 days from its last use, at the levels' end): the app signs
        // her out when it next asks.
        world.travel(by: .days(32) + Backend.refreshTokenLifetime)
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        #expect(world.appState.access.identity != .account(email: "ana@example.com"))
        #expect(world.screen.alert?.title == "Signed out")
        world.dismissAlert()
        world.openProfile()
        world.signUp("ben@example.com")
        world.buyFromFeed()
        let ben = try #require(try world.backend.ledger.identityId(email: "ben@example.com"))
        #expect(try world.backend.ledger.purchase(id)?.ownerId == ben)
        #expect(world.isUnlocked)
        #expect(try world.backend.levels(of: ana) == [])
        #expect(try world.backend.ledger.moves().map(\.via) == [.purchase])
    }
}
