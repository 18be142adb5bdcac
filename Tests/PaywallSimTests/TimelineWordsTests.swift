import Simulation
import Testing

/// The timeline's words for what the reader and the controls did (session 28, a tester's findings).
struct TimelineWordsTests {
    /// Enter on a free article read in full chose nothing, and the line read `select "" on content`.
    @Test func enterOnAScreenWithNothingToChooseSaysSo() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.choose("City approves the new harbour bridge")
        world.send(.select)
        let said = world.timeline.entries.last { $0.source == .reader }?.text
        #expect(said == "Enter on content: nothing to select")
    }

    /// Esc on the feed closes nothing: it was said "back on feed", as if a screen had closed (session 43).
    @Test func escWhereItDoesNothingSaysSo() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.send(.back)
        let said = world.timeline.entries.last { $0.source == .reader }?.text
        #expect(said == "Esc on feed: nothing to go back to")
        world.choose("City approves the new harbour bridge")
        world.send(.back)
        #expect(world.timeline.entries.last { $0.source == .reader }?.text == "back on content")
    }

    /// "+1 month" said where it landed and "+1d" did not: every time travel says it.
    @Test func timeTravelByADurationSaysWhereItLands() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.travel(by: .days(1))
        #expect(world.timeline.entries.contains { $0.text.hasPrefix("time travel +1d, to 2026-03-03 ") })
    }
}
