import AppFlow
import Simulation
import Testing

/// The highlight stays on the choice the reader left it on when the screen's choices change under it, or goes to the
/// first choice where that one went; the phone's rows rendered as the terminal prints them (session 30).
struct KeptHighlightTests {
    private let email = "reader@example.com"

    /// The row the phone highlights, as rendered.
    private func highlighted(_ world: World) -> String? {
        ScreenRenderer.plainText(world.screen).split(separator: "\n").first { $0.hasPrefix("> ") }.map(String.init)
    }

    /// After logging in, the profile opened on "> [ Restore purchase ]": the guest's "Log in" was its second choice,
    /// and the account's second is Restore. Log in is not on the account's profile: its first choice is highlighted.
    @Test func theProfileAfterLoggingInHighlightsItsFirstChoice() throws {
        let world = try TestSupport.launchedWorld()
        try world.perform(.signUp(email: email, password: "correct-horse"))
        world.scheduler.runUntilIdle()
        try world.subscribe()
        try world.perform(.logOut)
        world.scheduler.runUntilIdle()
        try world.perform(.openProfile)
        world.scheduler.runUntilIdle()
        #expect(!world.screen.rows.contains { $0.text.contains("Manage my subscription") })
        try world.perform(.logIn(email: email, password: "correct-horse"))
        world.scheduler.runUntilIdle()
        #expect(world.screen.visibleID == .profile)
        #expect(highlighted(world) == "> [ Manage my subscription ]")
    }

    /// A choice that changes its place under the highlight keeps it: the subscription, cancelled, ends while the
    /// profile is up, the server's answer takes "Manage my subscription" off, and the highlight stays on "Log in", not
    /// on "Create an account", which took its place.
    @Test func aChoiceThatMovesUnderTheHighlightKeepsIt() throws {
        let world = try TestSupport.launchedWorld()
        try world.subscribe()
        try world.perform(.setAutoRenew(false))
        world.scheduler.runUntilIdle()
        try world.perform(.back)
        world.scheduler.runUntilIdle()
        #expect(world.screen.visibleID == .profile)
        try world.highlightChoice("Log in")
        #expect(highlighted(world) == "> [ Log in ]")
        #expect(world.travelToNextRenewal())
        world.scheduler.runUntilIdle()
        #expect(!world.screen.rows.contains { $0.text.contains("Manage my subscription") })
        #expect(highlighted(world) == "> [ Log in ]")
    }
}
