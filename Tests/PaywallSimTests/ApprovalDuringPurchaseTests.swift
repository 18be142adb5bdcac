import AppFlow
import SimKernel
import Simulation
import Testing

/// A parent approves an old request while the reader, in a kids app, is buying the same plan again: Apple
/// has just charged it, so the purchase waits for that charge's check instead of paying a second time.
@Suite struct ApprovalDuringPurchaseTests {
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

    /// Up to the parental gate of a second try, with the first request waiting for a parent; then the parent
    /// approves and the reader answers the gate while the approval's receipt is with the server.
    private func answerTheGateWhileTheApprovalIsChecked(faults: String? = nil) throws -> Watched {
        let watched = try Watched(faults: faults)
        let world = watched.world
        try watched.perform(.openPaywall)
        try watched.perform(.selectOffer("stories-monthly"))
        try watched.perform(.answerGate("56"))
        try watched.perform(.confirmPayment)
        #expect(world.screen.alert?.title == "Waiting for approval")
        try watched.perform(.selectOffer("stories-monthly"))
        #expect(world.screen.id == .parentalGate)
        let sent = { world.timeline.entries.contains { $0.text == "sending the receipt to the server" } }
        watched.step(.paymentReleased, settles: false) {
            #expect(world.approveAskToBuy())
            for _ in 0..<1_000 where !sent() { world.scheduler.advance(by: .millis(10)) }
            world.scheduler.advance(by: .millis(10))
        }
        #expect(sent())
        try watched.perform(.answerGate("56"))
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
}
