import AppFlow
import SimKernel
import Testing

@testable import Simulation

/// Invariant 7 after a kill: the app started again from the phone's disk keeps the anonymous identity that
/// paid, as after a restart.
@Suite struct RelaunchCheckTests {
    /// A guest who bought Premium Monthly, the app killed, and `beforeLaunch` done to the phone; then the
    /// app comes back to the foreground. What invariant 7 says of that step.
    private func relaunch(_ beforeLaunch: (World) -> Void) throws -> [InvariantViolation] {
        let world = try TestSupport.launchedWorld()
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly"), .confirmPayment] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        #expect(world.appState.access.levels.map(\.rawValue) == ["premium"])
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.kill)
        try WorldAction.kill.apply(to: world)
        world.scheduler.runUntilIdle()
        #expect(monitor.didRun().isEmpty)
        beforeLaunch(world)
        monitor.willRun(.foreground)
        try WorldAction.foreground.apply(to: world)
        world.scheduler.runUntilIdle()
        return monitor.didRun().filter { $0.invariant == .survivesRestartAndAds }
    }

    @Test func theGuestWhoPaidIsTheSameAfterAKill() throws {
        #expect(try relaunch { _ in }.isEmpty)
    }

    /// A dead app cannot die again: the second kill is refused (a recording's comment), and the timeline says one kill
    /// (session 34: the control pane's second press wrote "app killed" again and a step into the recording).
    @Test func aKilledAppIsNotKilledAgain() throws {
        let world = try TestSupport.launchedWorld()
        try WorldAction.kill.apply(to: world)
        #expect(throws: WorldActionRefusal.self) { try WorldAction.kill.apply(to: world) }
        #expect(world.timeline.entries.filter { $0.text.contains("app killed") }.count == 1)
        try WorldAction.foreground.apply(to: world)
        #expect(world.isAppRunning)
    }

    @Test func anIdentityLostWhileTheAppWasDeadIsReported() throws {
        let found = try relaunch { world in world.device.storage.anonymousIdentity = nil }
        #expect(found.first?.detail.contains("was lost when the app started again") == true, "\(found)")
    }
}
