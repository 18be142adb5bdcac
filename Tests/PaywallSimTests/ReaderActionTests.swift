import AppFlow
import Simulation
import Testing

/// `World.perform` does each reader action from wherever the reader is, and the device reports the
/// same actions back as they happen: one vocabulary both ways.
@Suite struct ReaderActionTests {
    @Test func opensTheSignUpFormFromTheFeedByWayOfTheProfile() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        try world.perform(.openSignup)
        world.scheduler.runUntilIdle()
        #expect(world.screen.id == .signup)
    }

    @Test func turnsAutoRenewOffAndBackOn() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        try world.perform(.setAutoRenew(false))
        world.scheduler.runUntilIdle()
        try world.perform(.setAutoRenew(true))
        world.scheduler.runUntilIdle()
        try world.perform(.back)
        try world.perform(.manageSubscription)
        world.scheduler.runUntilIdle()
        #expect(world.screen.rows.contains { $0.text.hasPrefix("Next renewal") })
    }

    @Test func theActionsAReaderTakesByKeyAreReportedInTheSameWords() throws {
        let world = try newsWorld()
        var reported: [ReaderAction] = []
        world.onReaderAction = { reported.append($0) }
        world.launchAndSettle()
        world.buyFromFeed()
        #expect(
            reported == [.openContent("night-trains"), .subscribe, .selectOffer("premium-monthly"), .confirmPayment])
    }
}
