import AppFlow
import Signing
import SimKernel
import Subscriptions
import Testing

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// The monitor's own checks, with the world broken by hand where the app and the store never break it.
@Suite struct InvariantMonitorTests {
    /// What invariant 12 says of the ledger's moves made by `move` while `step` runs.
    private func movesJudged(in world: World, during step: MonitoredStep, _ move: () throws -> Void) throws
        -> [String]
    {
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(step)
        try move()
        return monitor.didRun().filter { $0.invariant == .movesOnlyAsAsked }.map(\.detail)
    }

    private func subscribedWorld() throws -> World {
        let world = try TestSupport.launchedWorld()
        try world.subscribe()
        #expect(world.charges == 1)
        return world
    }

    @Test func aStoreChargingTheSameGroupTwiceBreaksInvariantThree() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        // A store that forgot the reader already pays: a second new subscription in the group.
        let product = try #require(world.store.product("com.dailynews.premium.monthly"))
        _ = try world.store.recordTransaction(product: product, appleId: world.appleId, deviceId: "iphone")
        let found = monitor.didRun().filter { $0.invariant == .noDoubleCharge }
        #expect(found.count == 1)
        #expect(found.first?.detail.contains("of the same group was paid for until") == true)
    }

    @Test func buyingAgainAfterARefundIsNoDoubleCharge() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        world.returnToForeground()  // the app hears of the refund
        world.scheduler.runUntilIdle()
        monitor.willRun(.other)
        try world.subscribe()
        #expect(world.charges == 2)
        #expect(monitor.didRun() == [])
    }

    /// A check that cannot read the ledger reports it: "every invariant held" never stands on an unread ledger.
    @Test func aLedgerTheChecksCannotReadIsAViolationNeverAPass() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        try world.backend.ledger.database.execute(
            "ALTER TABLE purchases RENAME TO purchases_gone; ALTER TABLE ownership_moves RENAME TO moves_gone")
        let unread = monitor.didRun().filter { $0.detail.hasPrefix("cannot be checked, the ledger cannot be read") }
        #expect(Set(unread.map(\.invariant)) == [.payingKeepsAccess, .movesOnlyAsAsked])
    }

    /// 10, seed 001's "a paying user ... should simply retain the access they purchased": with refresh tokens of 30
    /// days planted (session 32, h13 03), a month's renewal signs the monthly subscriber out by time alone; with the
    /// server's own lifetime it does not.
    @Test(arguments: [true, false])
    func aPayingSubscriberSignedOutByTimeAloneBreaksInvariantTen(planted: Bool) throws {
        let world = try TestSupport.launchedWorld()
        if planted { world.backend.refreshTokenLife = .days(30) }
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        world.openProfile()
        world.signUp("ana@example.com")
        world.buyFromFeed()
        world.scheduler.runUntilIdle()
        #expect(monitor.didRun() == [])
        monitor.willRun(.foreground)
        world.travel(by: .days(31))
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        let found = monitor.didRun().filter { $0.invariant == .payingKeepsAccess }.map(\.detail)
        #expect(world.charges == 2)
        if planted {
            #expect(found.count == 1)
            #expect(found.first?.contains("was signed out of ana@example.com, with premium, by time alone") == true)
        } else {
            #expect(found == [])
            #expect(world.appState.access.identity == .account(email: "ana@example.com"))
        }
    }

    /// 12, seed 003's "the subscription follows who paid": a move by a purchase to a customer no purchase of the
    /// subscription names (a backend that gave it to whoever reported it) is caught, even when a purchase was asked.
    @Test func aPurchaseMovedToSomeoneWhoDidNotPayBreaksInvariantTwelve() throws {
        let world = try subscribedWorld()
        let original = try #require(world.chargedTransactions.first?.originalTransactionIdentifier)
        let ledger = world.backend.ledger
        let owner = try #require(try ledger.purchase(original)?.ownerId)
        let other = try ledger.createAnonymousIdentity(at: world.scheduler.now)
        let found = try movesJudged(in: world, during: .reader(.confirmPayment)) {
            try ledger.move(original, from: owner, to: other.id, via: .purchase, at: world.scheduler.now)
        }
        #expect(
            found == [
                "\(original) moved by purchase to \(other.id), whom no purchase of it names as who paid"
            ])
    }

    /// 12: a transfer goes to the account that accepted it, not to one signed in since (a client that sent it again
    /// as whoever was signed in when its token refresh came back).
    @Test func aTransferToAnotherAccountThanTheOneThatAcceptedItBreaksInvariantTwelve() throws {
        let world = try subscribedWorld()
        let original = try #require(world.chargedTransactions.first?.originalTransactionIdentifier)
        let ledger = world.backend.ledger
        let guest = try #require(try ledger.purchase(original)?.ownerId)
        let password = PasswordHash(salt: [1, 2, 3], iterations: 1, hash: [4, 5, 6])
        let ana = try ledger.createAccount(email: "ana@example.com", password: password, at: world.scheduler.now)
        let ben = try ledger.createAccount(email: "ben@example.com", password: password, at: world.scheduler.now)
        world.device.storage.accountSession = AccountSession(
            identityId: ana.id, email: "ana@example.com", token: "token", refreshToken: "refresh", levels: [])
        let found = try movesJudged(in: world, during: .reader(.acceptTransfer)) {
            try ledger.move(original, from: guest, to: ben.id, via: .transfer, at: world.scheduler.now)
        }
        #expect(
            found == [
                "\(original) moved by transfer to \(ben.id), but the transfer was asked for \(ana.id)"
            ])
    }

    /// 15: an under-age reader's payment reaches Apple only after a right answer to the gate, judged against
    /// the question shown; a wrong answer lets nothing through, and a coordinator that skips the gate is caught.
    @Test(arguments: [
        (CoordinatorDefect?.none, [ReaderAction.answerGate(nil)], true), (nil, [.answerGate("35")], false),
        (.skipParentalGate, [], true),
    ])
    func aPaymentOfAnUnderAgeReaderFollowsARightAnswerToTheGate(
        defect: CoordinatorDefect?, answer: [ReaderAction], paid: Bool
    ) throws {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(latency: .fast))
        world.defect = defect
        world.readerAge = 15
        world.launch()
        world.scheduler.runUntilIdle()
        let monitor = InvariantMonitor(world: world)
        var found: [InvariantViolation] = []
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly")] + answer {
            monitor.willRun(.reader(action))
            try world.perform(action)
            world.scheduler.runUntilIdle()
            found += monitor.didRun()
        }
        #expect(world.device.queue.sheet != nil || !paid)
        #expect((world.screen.id == .appStoreSheet) == paid, "\(world.screen.id)")
        let gate = found.filter { $0.invariant == .parentalGateFirst }
        #expect(
            gate.map(\.detail)
                == (defect == nil
                    ? []
                    : [
                        "a payment for com.dailynews.premium.monthly reached the App Store from iphone-reader@icloud.test "
                            + "(a reader aged 15) with no right answer to the parental gate before it"
                    ]))
    }

    /// 15's question: the next gate does not ask what a grown-up was just seen answering. The app that asked "7 × 8"
    /// every time (session 27) is caught; the app holds.
    @Test(arguments: [CoordinatorDefect?.none, .gateAsksOneQuestion])
    func theNextGateAsksANewQuestion(defect: CoordinatorDefect?) throws {
        let world = try World(config: try TestSupport.demoConfig("kids-stories"), options: WorldOptions(latency: .fast))
        world.defect = defect
        world.launch()
        world.scheduler.runUntilIdle()
        let monitor = InvariantMonitor(world: world)
        var found: [InvariantViolation] = []
        for action: ReaderAction in [
            .openPaywall, .selectOffer("stories-monthly"), .answerGate(nil), .cancelPayment,
            .selectOffer("stories-monthly"),
        ] {
            monitor.willRun(.reader(action))
            try world.perform(action)
            world.scheduler.runUntilIdle()
            found += monitor.didRun()
        }
        let question = try #require(world.appState.gate?.question)
        #expect(
            found.filter { $0.invariant == .parentalGateFirst }.map(\.detail)
                == (defect == nil
                    ? []
                    : [
                        "the parental gate on iphone-reader@icloud.test asks \"\(question)\" again, the question a "
                            + "grown-up was just seen answering right"
                    ]))
    }

    /// 15 on Apple's manage sheet: a switch there that charges at once (an upgrade) is a payment started from the
    /// phone. An under-age reader reaches the sheet through the gate; an app that opens it without is caught.
    @Test(arguments: [CoordinatorDefect?.none, .skipParentalGate])
    func anUpgradeOnTheManageSheetOfAnUnderAgeReaderFollowsTheGate(defect: CoordinatorDefect?) throws {
        let world = try World(config: try TestSupport.demoConfig("fit-track"), options: WorldOptions(latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        for action: ReaderAction in [
            .signUp(email: "kid@example.com", password: "password-kid"), .openPaywall,
            .selectOffer("workouts-monthly"), .confirmPayment,
        ] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        world.defect = defect
        world.readerAge = 12
        let monitor = InvariantMonitor(world: world)
        var found: [InvariantViolation] = []
        for action: ReaderAction in [.openProfile, .manageSubscription]
            + (defect == nil ? [.answerGate(nil)] : []) + [.changePlan("com.fittrack.coach.yearly")]
        {
            monitor.willRun(.reader(action))
            try world.perform(action)
            world.scheduler.runUntilIdle()
            found += monitor.didRun()
        }
        #expect(world.store.charges(appleId: world.appleId) == 2)
        #expect(
            found.filter { $0.invariant == .parentalGateFirst }.map(\.detail)
                == (defect == nil
                    ? []
                    : [
                        "a switch on Apple's manage sheet, charged at once, for com.fittrack.coach.yearly reached the "
                            + "App Store from iphone-reader@icloud.test (a reader aged 12) with no right answer to the "
                            + "parental gate before it"
                    ]))
    }

    /// 16: once Apple's refund has reached the backend, it grants nothing from the purchase; a ledger that
    /// still grants it is caught.
    @Test func aRefundTheBackendStillGrantsBreaksInvariantSixteen() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        let refunds = { () -> [InvariantViolation] in
            monitor.willRun(.other)
            return monitor.didRun().filter { $0.invariant == .refundTakesAccessBack }
        }
        #expect(refunds() == [])
        try world.backend.ledger.database.execute("UPDATE purchases SET revoked = 0")
        let found = refunds()
        #expect(found.count == 1)
        #expect(found.first?.detail.hasSuffix("but the backend still grants it") == true)
    }

    /// 16 with the refund's news lost: the fault excuses the backend only until it asks Apple about the purchase
    /// (a day on, when the app loads access); a ledger that then still grants it is caught.
    @Test func aLostRefundIsExcusedOnlyUntilTheBackendHearsFromApple() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        let refunds = { () -> [InvariantViolation] in
            monitor.willRun(.other)
            return monitor.didRun().filter { $0.invariant == .refundTakesAccessBack }
        }
        try world.inject(FaultPlan.parse("notification dropped"))
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        let id = try #require(world.chargedTransactions.last?.originalTransactionIdentifier)
        #expect(try world.backend.ledger.purchase(id)?.revoked == false)  // the news was lost
        #expect(refunds() == [])
        #expect(world.travel(by: .days(2)))
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        #expect(try world.backend.ledger.purchase(id)?.revoked == true)  // asked Apple
        #expect(refunds() == [])
        try world.backend.ledger.database.execute("UPDATE purchases SET revoked = 0")
        let found = refunds()
        #expect(found.count == 1)
        #expect(found.first?.detail.hasSuffix("still grants it after asking Apple since") == true)
    }
}
