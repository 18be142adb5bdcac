import AppFlow
import SimKernel
import Simulation
import Testing

/// A purchase of a product whose charge the server is checking (a parent's approval, an old charge delivered
/// again) waits for that check instead of paying a second time, and pays after all when it gives no access.
@Suite struct PurchaseWhileAChargeIsCheckedTests {
    /// A kids app's world watched by the invariant monitor, step by step as the fuzzer watches it.
    private final class Watched {
        let world: World
        let monitor: InvariantMonitor
        var violations: [InvariantViolation] = []

        init(faults: String? = nil) throws {
            world = try World(
                config: try TestSupport.demoConfig("kids-stories"), options: WorldOptions(seed: 7, latency: .typical))
            monitor = InvariantMonitor(world: world)
            if let faults { try world.inject(try FaultPlan.parse(faults)) }
            step(.other) { world.launch() }
        }

        /// One step: `body` runs, then the world settles unless `settles` is false.
        func step(_ step: MonitoredStep, settles: Bool = true, _ body: () throws -> Void) rethrows {
            monitor.willRun(step, waits: settles)
            try body()
            if settles { world.scheduler.runUntilIdle() }
            violations += monitor.didRun()
        }

        func perform(_ action: ReaderAction, settles: Bool = true) throws {
            try step(.reader(action), settles: settles) { try world.perform(action) }
        }
    }

    /// Up to the parental gate of a second try, with the first payment interrupted; then it is resolved outside the
    /// app and the reader answers the gate while its receipt is with the server. (The first payment waited for a
    /// parent until session 26, when a purchase of the group came to be refused while a request waits.)
    private func answerTheGateWhileTheApprovalIsChecked(faults: String? = nil) throws -> Watched {
        let watched = try Watched(
            faults: ["payment interrupted times 1", faults].compactMap { $0 }.joined(separator: "; "))
        let world = watched.world
        try watched.perform(.openPaywall)
        try watched.perform(.selectOffer("stories-monthly"))
        try watched.perform(.answerGate(nil))
        try watched.perform(.confirmPayment)
        #expect(world.screen.alert?.title == "Purchase failed")
        try watched.perform(.selectOffer("stories-monthly"))
        #expect(world.screen.id == .parentalGate)
        let sent = { world.timeline.entries.contains { $0.text == "sending the receipt to the server" } }
        watched.step(.paymentReleased, settles: false) {
            #expect(world.resolveInterruptedPurchase())
            for _ in 0..<1_000 where !sent() { world.scheduler.advance(by: .millis(10)) }
            world.scheduler.advance(by: .millis(10))
        }
        #expect(sent())
        try watched.perform(.answerGate(nil))
        return watched
    }

    @Test func thePurchaseTakesTheApprovedChargesAccessWithoutASecondPayment() throws {
        let watched = try answerTheGateWhileTheApprovalIsChecked()
        let world = watched.world
        #expect(watched.violations.isEmpty)
        #expect(world.charges == 1)
        #expect(world.timeline.entries.contains { $0.text.contains("waiting for its check instead of paying again") })
        #expect(world.appState.access.unlocks(["stories"]))
        #expect(world.screen.id != .paywall && world.screen.id != .appStoreSheet)
    }

    /// Told "Your payment went through" of a charge made before the reader answered the gate: true, and
    /// judged so (the purchase's act began with the charge it waited for).
    @Test func aFailedCheckTellsThePaymentWentThrough() throws {
        let watched = try answerTheGateWhileTheApprovalIsChecked(faults: "receipts error times 1")
        #expect(watched.violations.isEmpty)
        #expect(watched.world.charges == 1)
        #expect(watched.world.screen.alert?.message.hasPrefix("Your payment went through") == true)
    }

    /// An unfinished charge of a subscription that has since ended, delivered again at launch, is checked while
    /// the reader buys the same plan: the check gives no access (it times out), so the old charge is told as any
    /// charge carried on and the purchase goes on to Apple's sheet.
    @Test func anOldChargeOfAnEndedSubscriptionDoesNotStopANewPurchase() throws {
        let world = try newsWorld()
        let monitor = InvariantMonitor(world: world)
        var violations: [InvariantViolation] = []
        world.finishPolicy = .afterServerCheck
        try world.inject(try FaultPlan.parse("receipts error times 1"))
        world.launchAndSettle()
        try world.subscribe()
        let charged = try #require(world.transactionRows.first?.id)
        #expect(world.expire(transactionId: charged))
        world.scheduler.runUntilIdle()
        try world.inject(try FaultPlan.parse("receipts slow times 1"))
        monitor.willRun(.restartApp)
        world.restartApp()
        violations += monitor.didRun()
        // The old charge's check is slow; the reader opens the paywall and chooses the plan meanwhile.
        for _ in 0..<1_000 where world.appState.offers == nil { world.scheduler.advance(by: .millis(10)) }
        monitor.willRun(.reader(.selectOffer("premium-monthly")), waits: false)
        try world.perform(.openPaywall)
        try world.perform(.selectOffer("premium-monthly"))
        #expect(world.timeline.entries.contains { $0.text.contains("waiting for its check instead of paying again") })
        world.scheduler.runUntilIdle()
        violations += monitor.didRun()
        #expect(
            world.timeline.entries.contains {
                $0.text == "the earlier payment's check gave no access: paying as the reader asked"
            })
        #expect(world.screen.id == .appStoreSheet)
        // The old charge is told as any charge carried on: never silent (to a guest, the account's way too). Apple's
        // sheet is over the app: the alert waits beneath it, first to show once it closes (session 32).
        #expect(world.screen.alert == nil)
        #expect(
            world.appState.alertsWaiting.first?.message
                == "Your purchase could not be confirmed. Use Restore purchase to get it back. If an account holds it, "
                + "log in to that account.")
        monitor.willRun(.reader(.confirmPayment))
        try world.perform(.confirmPayment)
        world.scheduler.runUntilIdle()
        violations += monitor.didRun()
        #expect(violations.isEmpty)
        #expect(world.charges == 2)
        #expect(world.isUnlocked)
    }
}
