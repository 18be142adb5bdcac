import AppFlow
import SimKernel
import Simulation
import Testing

/// After a restore on the profile, two identical `GET /v1/me` left at once (session 34): the profile asks when its
/// levels change, and the restore's end asks for what it brought. One request answers both.
@Suite struct AccessReloadTests {
    @Test func aRestoreOnTheProfileSendsOneRequestForTheAccessItChanged() throws {
        let world = try subscribedWorld()
        try WorldAction.newDevice("iphone-2").apply(to: world)
        world.scheduler.runUntilIdle()
        try world.perform(.openProfile)
        world.scheduler.runUntilIdle()
        let lines = try timelineLines(of: .restore, in: world)
        #expect(lines.filter { $0.contains("→ GET /v1/me") }.count == 1, "\(lines.joined(separator: "\n"))")
        // Both askers heard the answer: the profile lists the plan the restore brought back.
        #expect(world.appState.access.levels.map(\.rawValue) == ["premium"])
        #expect(world.appState.subscriptions.count == 1, "\(lines.joined(separator: "\n"))")
    }

    /// The profile's own `GET /v1/me` took a refunded level away, and its change asked `GET /v1/me` again for the
    /// plan lines that answer had just listed (session 43): the answer arriving serves the ask it raised.
    @Test func anAnswerThatTakesALevelAwayOnTheProfileIsNotAskedAgain() throws {
        let world = try subscribedWorld()
        try WorldAction.refund.apply(to: world)
        world.scheduler.runUntilIdle()
        let lines = try timelineLines(of: .openProfile, in: world)
        #expect(lines.filter { $0.contains("→ GET /v1/me") }.count == 1, "\(lines.joined(separator: "\n"))")
        #expect(world.appState.access.levels.isEmpty)
        #expect(world.appState.subscriptions.allSatisfy { !$0.active }, "\(lines.joined(separator: "\n"))")
    }

    /// The timeline lines written while the reader's act ran, until the world settled.
    private func timelineLines(of action: ReaderAction, in world: World) throws -> [String] {
        let before = world.timeline.entries.count
        try world.perform(action)
        world.scheduler.runUntilIdle()
        return world.timeline.entries.dropFirst(before).map(\.description)
    }

    /// A demo world whose reader bought the monthly plan on the first phone.
    private func subscribedWorld() throws -> World {
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 3, latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly"), .confirmPayment] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        return world
    }
}
