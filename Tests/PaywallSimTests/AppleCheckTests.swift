import SimKernel
import Testing

@testable import BackendSim
@testable import Simulation

/// The server asks Apple about a purchase it has not heard of for a day (`LapsedRenewals`), and remembers when it
/// asked: with a column added before `apple_checked_ms` was read by its index, it read a neighbour instead and
/// asked Apple again on every request.
@Suite struct AppleCheckTests {
    @Test func askingApplesStatusIsRememberedForADay() throws {
        let world = try TestSupport.launchedWorld()
        try world.subscribe()
        try WorldAction.advance(.fixed(.days(2))).apply(to: world)
        world.scheduler.runUntilIdle()
        let asked = world.scheduler.now
        try WorldAction.foreground.apply(to: world)
        world.scheduler.runUntilIdle()
        let owner = try #require(world.backend.ledger.allPurchases().first?.ownerId)
        let checked = try #require(world.backend.ledger.purchasesWithAppleCheck(ownedBy: owner).first).appleChecked
        #expect(checked >= asked.milliseconds)
    }
}
