import AppFlow
import Simulation
import Testing

/// Issue 15: a reader's action finds its row by the choice the row carries, never by the row's place,
/// so scenarios and the fuzzer drive a screen whatever order its rows come in.
@Suite struct ActionRowTests {
    /// Each selectable row of the screen shown: the action choosing it means leads back to that very row (in a form's
    /// last field, Enter is the form's button: the row that follows, `Choice.entered`).
    private func mismatches(_ state: AppState) -> [String] {
        let screen = state.screen
        let selectable = screen.rows.indices.filter { screen.rows[$0].isSelectable }
        return selectable.enumerated().compactMap { index, row in
            var here = state
            here.selection = index
            let pressed =
                Choice.entered(at: index, among: screen.choices) == screen.choices[index] ? row : selectable[index + 1]
            // A text field before another means no action of its own: Enter moves on, characters go into it.
            guard let action = ReaderAction.of(.select, in: here), here.row(doing: action) != pressed else {
                return nil
            }
            return
                "\(screen.id.rawValue): \"\(screen.rows[row].text)\" is \(action), found at \(String(describing: here.row(doing: action)))"
        }
    }

    @Test func everyRowAReaderCanChooseIsFoundByItsAction() throws {
        // A kids app, so the gate shows too; the feed has an ad between its articles.
        let world = try newsWorld { $0.app.kids = true }
        var seen: Set<ScreenID> = []
        var found: [String] = []
        func step(_ action: ReaderAction?) throws {
            if let action { try world.perform(action) }
            world.scheduler.runUntilIdle()
            seen.insert(world.screen.visibleID)
            found += mismatches(world.appState)
        }
        world.launch()
        try step(nil)
        try step(.openContent("night-trains"))
        try step(.subscribe)
        try step(.selectOffer("premium-monthly"))
        try step(.answerGate(nil))
        try step(.confirmPayment)
        try step(.openLogin)
        try step(.openSignup)
        try step(.signUp(email: "ana@example.com", password: "correct horse"))
        try step(.openProfile)
        try step(.manageSubscription)
        try step(.answerGate(nil))
        #expect(found == [])
        let expected: Set<ScreenID> = [
            .feed, .content, .paywall, .parentalGate, .appStoreSheet, .login, .signup, .profile, .manageSubscription,
        ]
        #expect(expected.isSubset(of: seen), "screens seen: \(seen.map(\.rawValue).sorted())")
    }
}
