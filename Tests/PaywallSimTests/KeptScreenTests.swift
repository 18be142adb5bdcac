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
}
