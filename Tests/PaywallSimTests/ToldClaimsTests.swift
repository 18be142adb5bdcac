import AppFlow
import SimKernel
import Subscriptions
import Testing

@testable import Simulation

/// Invariant 9's claims about money and owners, judged on a world where the claim is false and on one where
/// it is true: the check must be able to fail.
@Suite struct ToldClaimsTests {
    private static let monthly = "com.dailynews.premium.monthly"

    /// A guest on the iPhone bought Premium Monthly; `began` is when the purchase began.
    private func boughtWorld() throws -> (World, began: SimInstant) {
        let world = try TestSupport.launchedWorld()
        let began = world.scheduler.now
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly"), .confirmPayment] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        return (world, began)
    }

    private func outcome(_ told: ReaderOutcome.Told, _ world: World, began: SimInstant) -> ReaderOutcome {
        ReaderOutcome(
            told: told, device: world.deviceName, launch: world.currentLaunch, at: world.scheduler.now, began: began,
            levelsBefore: [], productId: Self.monthly)
    }

    @Test func notChargedIsFalseAfterTheActsOwnCharge() throws {
        let (world, began) = try boughtWorld()
        let failed = outcome(
            .purchase(.failed(message: "The App Store could not complete the payment. You were not charged.")), world,
            began: began)
        let found = ToldCheck.chargedWhileToldNot(failed, world)
        #expect(found?.detail.contains("but Apple charged reader@icloud.test for \(Self.monthly)") == true)
        // The same words for an act that began after the charge: true.
        let later = outcome(failed.told, world, began: world.scheduler.now)
        #expect(ToldCheck.chargedWhileToldNot(later, world) == nil)
    }

    @Test func heldElsewhereIsFalseWhenTheReaderHoldsIt() throws {
        let (world, began) = try boughtWorld()
        var told = outcome(.purchase(.ownedByAnotherAccount(canMove: true)), world, began: began)
        told.identityWhenBegan = world.appState.access.identity
        told.identityWhenTold = world.appState.access.identity
        let found = try ToldCheck.heldElsewhereViolation(told, world)
        #expect(
            found?.detail.contains("belongs to someone else than the reader") == true, "\(String(describing: found))")
    }

    @Test func alreadyPaysIsTrueWhileTheSubscriptionRuns() throws {
        let (world, _) = try boughtWorld()
        let told = outcome(.purchase(.alreadySubscribedOnAppleId()), world, began: world.scheduler.now)
        #expect(ToldCheck.alreadyPaysViolation(told, world) == nil)
        let before = outcome(.purchase(.alreadySubscribedOnAppleId()), world, began: SimInstant(milliseconds: 0))
        try WorldAction.refund.apply(to: world)
        world.scheduler.runUntilIdle()
        #expect(ToldCheck.alreadyPaysViolation(before, world) != nil)
    }

    /// "Purchases are off" is judged against the phone's setting when told: true with payments restricted
    /// (the monitor finds nothing), false with them allowed.
    @Test func paymentsOffIsTrueOnlyWhileTheyAreOff() throws {
        let world = try TestSupport.launchedWorld()
        world.canMakePayments = false
        let monitor = InvariantMonitor(world: world)
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly")] {
            monitor.willRun(.reader(action))
            try world.perform(action)
            world.scheduler.runUntilIdle()
            #expect(monitor.didRun() == [])
        }
        #expect(world.screen.alert?.title == "Purchases are off")
        let told = try #require(world.readerOutcomes.last)
        #expect(told.told == .purchase(.refused(.paymentsNotAllowed)) && !told.couldPayWhenTold)
        var untrue = told
        untrue.couldPayWhenTold = true
        #expect(
            ToldCheck.paymentsOffViolation(untrue, world)?.detail
                == "iphone was told it cannot make payments, but payments were allowed on it")
    }

    /// "Your payment went through" needs a charge for the product while the act ran: the purchase's own, or a
    /// renewal (StoreKit 1 answers a payment for a plan already paid with the latest transaction).
    @Test func wentThroughNeedsAChargeWhileTheActRan() throws {
        let (world, began) = try boughtWorld()
        let told = outcome(.purchase(.paymentNotConfirmed), world, began: began)
        #expect(ToldCheck.wentThroughViolation(told, world) == nil)
        let later = outcome(told.told, world, began: world.scheduler.now)
        #expect(
            ToldCheck.wentThroughViolation(later, world)?.detail
                == "iphone was told the payment for \(Self.monthly) went through, but the App Store charged nothing for it"
        )
        #expect(world.travelToNextRenewal())
        #expect(ToldCheck.wentThroughViolation(later, world) == nil)
    }
}

/// Invariant 9 of who pays, as a restore says it: judged on a world where the organiser's iPad holds only a family
/// member's share (session 33: "Your subscription is back" of a plan the member bought and shares), and where it holds
/// its own plan: each claim fails where it is false.
@Suite struct WhoPaysToldTests {
    /// `shared`: the member buys and shares the yearly plan, and the organiser's iPad restores it; else the
    /// organiser's phone buys it itself.
    private func restoredWorld(shared: Bool) throws -> World {
        let world = try TestSupport.launchedWorld()
        var actions: [ReaderAction] = [.openPaywall, .selectOffer("premium-yearly"), .confirmPayment]
        if shared {
            try world.addFamilyMember("kid@icloud.test")
            world.scheduler.runUntilIdle()
            try world.perform(.openPaywall)
            world.scheduler.runUntilIdle()
            actions = [.selectOffer("premium-yearly"), .confirmPayment]
        }
        for action in actions {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        if shared {
            try world.newDevice(named: "parent-ipad")
            world.scheduler.runUntilIdle()
            try world.perform(.openProfile)
            try world.perform(.restore)
            world.scheduler.runUntilIdle()
        }
        #expect(!world.appState.access.levels.isEmpty)
        return world
    }

    private func outcome(_ told: ReaderOutcome.Told, _ world: World) -> ReaderOutcome {
        var outcome = ReaderOutcome(
            told: told, device: world.deviceName, launch: world.currentLaunch, at: world.scheduler.now,
            began: world.scheduler.now, levelsBefore: [], productId: nil)
        outcome.identityWhenTold = world.appState.access.identity
        return outcome
    }

    @Test func backIsFalseOfAShareAndSharedIsFalseOfAnOwnPlan() throws {
        let share = try restoredWorld(shared: true)
        let back = try ToldCheck.whoPaysToldViolation(outcome(.restore(.restored), share), share)
        #expect(back?.detail.contains("is a family member's purchase shared with the Apple ID") == true)
        #expect(
            try ToldCheck.whoPaysToldViolation(outcome(.restore(.sharedByFamily(alsoOwn: false)), share), share) == nil)
        #expect(
            try ToldCheck.whoPaysToldViolation(outcome(.restore(.sharedByFamily(alsoOwn: true)), share), share) != nil)
        #expect(try ToldCheck.whoPaysToldViolation(outcome(.purchase(.restoredInsteadOfCharging), share), share) != nil)
        let own = try restoredWorld(shared: false)
        #expect(try ToldCheck.whoPaysToldViolation(outcome(.restore(.restored), own), own) == nil)
        let shared = try ToldCheck.whoPaysToldViolation(outcome(.restore(.sharedByFamily(alsoOwn: false)), own), own)
        #expect(shared?.detail.contains("is no family share") == true)
        #expect(try ToldCheck.whoPaysToldViolation(outcome(.purchase(.sharedInsteadOfCharging), own), own) != nil)
    }
}
