import AppFlow
import Scenarios
import Simulation
import WhiteLabel

@testable import TerminalUI

/// Walks for the tests: a session over scenario text with the package's own resources, and the tester's keys.
extension WalkSession {
    /// A walk over `scenarios`; its report goes where no test reads it unless one says otherwise.
    static func over(_ scenarios: [Scenario], reportPath: String = "unused.md") -> WalkSession {
        WalkSession(
            scenarios: scenarios, resources: ResourceLocator(root: TestSupport.packageRoot), reportPath: reportPath)
    }

    /// The first scenario chosen: its world launched, and the walk's state on it.
    func started() throws -> (World, WalkState) {
        var state = initialState
        guard let world = choose(0, state: &state) else { throw WalkNotStarted(message: state.message ?? "") }
        return (world, state)
    }

    /// The tester does `actions` on the phone, each answered before the next; `eachTurn`: a turn of the walk's loop
    /// after every one (else none: the caller settles when it wants).
    func doByHand(
        _ actions: [ReaderAction], on world: World, _ state: inout WalkState, eachTurn: Bool = true
    ) throws {
        for action in actions {
            try world.perform(action)
            world.scheduler.runUntilIdle()
            if eachTurn { settle(world, state: &state) }
        }
    }
}

/// The reader's purchase of Daily News's night-trains article, as most walks do it by hand.
let buyingNightTrains: [ReaderAction] = [
    .openContent("night-trains"), .subscribe, .selectOffer("premium-monthly"), .confirmPayment,
]

struct WalkNotStarted: Error {
    let message: String
}
