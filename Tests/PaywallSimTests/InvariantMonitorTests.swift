import AppFlow
import Testing

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// The monitor's own checks, with the world broken by hand where the app and the store never break it.
@Suite struct InvariantMonitorTests {
    private func subscribedWorld() throws -> World {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        try world.subscribe()
        #expect(world.charges == 1)
        return world
    }

    @Test func aStoreChargingTheSameGroupTwiceBreaksInvariantThree() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        // A store that forgot the reader already pays: a second new subscription in the group.
        let product = try #require(world.store.product("com.dailynews.premium.monthly"))
        _ = try world.store.recordTransaction(product: product, appleId: world.appleId, deviceId: "iphone")
        let found = monitor.didRun().filter { $0.invariant == .noDoubleCharge }
        #expect(found.count == 1)
        #expect(found.first?.detail.contains("of the same group was paid for until") == true)
    }

    @Test func buyingAgainAfterARefundIsNoDoubleCharge() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        world.returnToForeground()  // the app hears of the refund
        world.scheduler.runUntilIdle()
        monitor.willRun(.other)
        try world.subscribe()
        #expect(world.charges == 2)
        #expect(monitor.didRun() == [])
    }

    /// A check that cannot read the ledger reports it: "every invariant held" never stands on an unread ledger.
    @Test func aLedgerTheChecksCannotReadIsAViolationNeverAPass() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        try world.backend.ledger.database.execute(
            "ALTER TABLE purchases RENAME TO purchases_gone; ALTER TABLE ownership_moves RENAME TO moves_gone")
        let unread = monitor.didRun().filter { $0.detail.hasPrefix("cannot be checked, the ledger cannot be read") }
        #expect(Set(unread.map(\.invariant)) == [.payingKeepsAccess, .movesOnlyAsAsked])
    }
}
