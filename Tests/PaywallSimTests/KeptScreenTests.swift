import AppFlow
import Testing

@testable import Simulation

/// A phone keeps its screen built until its state changes, and hands that screen's choices to `reduce`
/// and to the recorder: after every key and every answer, the kept screen must be the state's own.
@Suite struct KeptScreenTests {
    @Test func theKeptScreenIsAlwaysTheOneTheStateShows() throws {
        let world = try TestSupport.launchedWorld()
        var actions: [ReaderAction] = []
        world.onReaderAction = { actions.append($0) }
        let keys: [ReaderInput] = [.down, .down, .up, .select, .back, .down, .select, .down, .select, .back, .back]
        for key in keys {
            let expected = ReaderAction.of(key, in: world.appState)  // from a screen built now
            let heard = actions.count
            world.send(key)
            #expect(actions.dropFirst(heard).first == expected)
            #expect(world.screen == world.appState.screen)
            world.scheduler.runUntilIdle()
            #expect(world.screen == world.appState.screen)
        }
        #expect(!actions.isEmpty)  // the recorder heard the selects, read from the kept choices
    }

    /// A move of the highlight keeps the screen built before it, highlighted again: on the paywall (offer lines and
    /// all), past its first and its last choice too, it must be the screen the state shows.
    @Test func aMovedHighlightKeepsTheScreenAsTheStateShowsIt() throws {
        let world = try TestSupport.launchedWorld()
        try world.perform(.openPaywall)
        world.scheduler.runUntilIdle()
        #expect(world.screen.id == .paywall)
        let count = world.screen.choices.count
        #expect(count > 2)
        for key in [ReaderInput.up] + Array(repeating: .down, count: count + 1) + Array(repeating: .up, count: 2) {
            world.send(key)
            #expect(world.screen == world.appState.screen)
        }
    }
}
