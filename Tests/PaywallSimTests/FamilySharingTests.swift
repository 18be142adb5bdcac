import Foundation
import Scenarios
import SimKernel
import Testing
import WhiteLabel

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// Issue 15: a family member's own phone gets the purchaser's family-shareable subscription as their own
/// FAMILY_SHARED purchase, and loses it when sharing stops; the purchaser's purchase never changes hands.
@Suite struct FamilySharingTests {
    private let member = "kid@icloud.test"

    /// The purchaser buys the yearly plan (family-shareable in the news app); the member joins and restores.
    private func sharedWorld(offer: String = "premium-yearly") throws -> (World, purchase: String, owner: String?) {
        let world = try newsWorld()
        world.launchAndSettle()
        try world.subscribe(to: offer)
        let purchase = try #require(world.store.transactions(appleId: world.appleId).first)
        let owner = try world.backend.ledger.purchase(purchase.originalTransactionIdentifier)?.ownerId
        try world.addFamilyMember(member)
        world.scheduler.runUntilIdle()
        try world.perform(.openProfile)
        try world.perform(.restore)
        world.scheduler.runUntilIdle()
        return (world, purchase.originalTransactionIdentifier, owner)
    }

    @Test func aMemberRestoresTheSharedSubscriptionAsTheirOwnPurchase() throws {
        let (world, purchase, owner) = try sharedWorld()
        #expect(world.deviceName == "kid-iphone")
        #expect(world.appleId == member)
        #expect(world.isUnlocked)
        let shared = try #require(world.store.familySharedTransactions(appleId: member).first)
        #expect(shared.inAppOwnershipType == "FAMILY_SHARED")
        #expect(shared.originalTransactionIdentifier != purchase)
        // The member's access is their own purchase row; the purchaser's stays with its owner, unmoved.
        #expect(try world.backend.ledger.purchase(purchase)?.ownerId == owner)
        let memberOwner = try world.backend.ledger.purchase(shared.originalTransactionIdentifier)?.ownerId
        #expect(memberOwner != nil && memberOwner != owner)
        #expect(try world.backend.ledger.moves().isEmpty)
        #expect(world.store.charges(appleId: member) == 0)
        #expect(world.charges == 1)
    }

    @Test func stoppingSharingRevokesTheMemberAndThePurchaserKeepsIt() throws {
        let (world, purchase, _) = try sharedWorld()
        let shared = try #require(world.store.familySharedTransactions(appleId: member).first)
        world.familySharing = false
        world.scheduler.runUntilIdle()
        #expect(world.timeline.entries.contains { $0.text.hasPrefix("notification REVOKE") })
        #expect(try world.backend.ledger.purchase(shared.originalTransactionIdentifier)?.revoked == true)
        #expect(try world.backend.ledger.purchase(purchase)?.isActive(at: world.scheduler.now) == true)
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        #expect(!world.isUnlocked)
        #expect(world.cachedLevels.isEmpty)
        // Sharing on again: a new share, a new FAMILY_SHARED purchase of the member's.
        world.familySharing = true
        world.scheduler.runUntilIdle()
        #expect(world.store.familySharedTransactions(appleId: member).contains { $0.revocationDate == nil })
    }

    @Test func aMemberWhoLeavesLosesTheShare() throws {
        let (world, _, _) = try sharedWorld()
        #expect(world.removeFamilyMember(member))
        #expect(!world.removeFamilyMember(member))
        // Apple's REVOKE reaches the backend; the app learns it when it next asks.
        world.scheduler.runUntilIdle()
        world.restartApp()
        world.scheduler.runUntilIdle()
        #expect(!world.isUnlocked)
        #expect(world.familyMembers.isEmpty)
    }

    /// The store skips the family's lookups for a purchaser it never saw with a family: one who gains a
    /// family after their purchase's notifications must still have the member's share renewed with theirs.
    @Test func aFamilyAddedAfterThePurchaseIsRenewedWithIt() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        try world.subscribe(to: "premium-yearly")
        let purchaser = world.appleId
        world.scheduler.runUntilIdle()
        try world.addFamilyMember(member)
        world.scheduler.runUntilIdle()
        #expect(world.store.familySharedTransactions(appleId: member).count == 1)
        world.scheduler.advance(by: .days(370))
        world.scheduler.runUntilIdle()
        let shares = world.store.familySharedTransactions(appleId: member)
        #expect(shares.map(\.transactionReason) == ["PURCHASE", "RENEWAL"])
        #expect(world.store.transactions(appleId: purchaser).count == 2)
    }

    /// Get All Subscription Statuses, asked about a member's share, answers with the purchaser's state under the
    /// member's ids: the server asks about the share that lapsed at the purchaser's failed renewal, and a share left
    /// out read as ended, so the member lost access as the purchaser's grace period began (fuzz seed 4976, session 36).
    @Test func aSharesStatusIsThePurchasersGracePeriodThenRevoked() throws {
        let (world, purchase, _) = try sharedWorld()
        let purchaser = try #require(world.store.subscription(originalTransactionId: purchase)?.appleId)
        let share = try #require(world.store.familySharedTransactions(appleId: member).first)
        let id = share.originalTransactionIdentifier
        world.store.billingGracePeriodEnabled = true
        try world.store.setBillingIssue(true, appleId: purchaser)
        world.scheduler.advance(by: .days(8))
        world.scheduler.runUntilIdle()
        #expect(world.store.subscription(originalTransactionId: purchase)?.state == .gracePeriod)
        func item() throws -> LastTransactionStatus {
            let status = try #require(world.store.subscriptionStatuses(originalTransactionId: id))
            return try #require(status.data.flatMap(\.lastTransactions).first { $0.originalTransactionId == id })
        }
        #expect(try item().status == SubscriptionState.gracePeriod.rawValue)
        let renewal = NotificationCodec.open(
            RenewalInfo.self, from: try item().signedRenewalInfo, with: world.store.verifyingKey)
        #expect(renewal?.gracePeriodExpiresDate != nil && renewal?.isInBillingRetryPeriod == true)
        #expect(world.isUnlocked)
        world.familySharing = false
        world.scheduler.runUntilIdle()
        #expect(try item().status == SubscriptionState.revoked.rawValue)
    }

    @Test func aProductThatIsNotShareableGivesTheFamilyNothing() throws {
        let (world, _, _) = try sharedWorld(offer: "premium-monthly")
        #expect(world.store.familySharedTransactions(appleId: member).isEmpty)
        #expect(!world.isUnlocked)
    }

    @Test func thePurchaserCannotJoinTheirOwnFamilyNorAMemberTwice() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        #expect(throws: WorldSetupError.self) { try world.addFamilyMember(world.appleId) }
        try world.addFamilyMember(member)
        #expect(throws: WorldSetupError.self) { try world.addFamilyMember(member) }
    }

    @Test func invariant14FlagsABackendThatStillGrantsARevokedShare() throws {
        let (world, _, _) = try sharedWorld()
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        world.familySharing = false
        world.scheduler.runUntilIdle()
        #expect(monitor.didRun().isEmpty)
        // A backend that missed the REVOKE with no fault to excuse it: access after revocation is flagged.
        let id = try #require(
            world.store.familySharedTransactions(appleId: member).first?.originalTransactionIdentifier)
        var purchase = try #require(try world.backend.ledger.purchase(id))
        purchase.revoked = false
        try world.backend.ledger.applyAppleState(purchase, at: world.scheduler.now, why: "test")
        monitor.willRun(.other)
        let violations = monitor.didRun()
        #expect(violations.map(\.invariant) == [.familySharedFollowsSharing])
        #expect(violations.first?.detail.contains("still grants it") == true)
    }

    @Test func theFamilyStepsReadAndPrintAsWritten() throws {
        let text =
            "app daily-news\nlaunch\nfamily add kid@icloud.test\nfamily sharing off\nfamily remove kid@icloud.test\n"
        let scenario = try ScenarioParser.parse(text, file: "family.scenario")
        let printed = scenario.steps.compactMap { step -> String? in
            if case .world(let world) = step.kind { return world.text }
            return nil
        }
        #expect(printed == ["family add kid@icloud.test", "family sharing off", "family remove kid@icloud.test"])
        #expect(throws: ConfigError.self) {
            try ScenarioParser.parse("app daily-news\nfamily join x\n", file: "bad.scenario")
        }
        do {
            _ = try ScenarioParser.parse("app daily-news\nfamily join x\n", file: "bad.scenario")
        } catch {
            #expect("\(error)".contains("bad.scenario:2"))
            #expect("\(error)".contains("family add APPLE_ID"))
        }
    }
}
