import AppFlow
import SimKernel
import Testing

@testable import Simulation

/// Faults on the app's calls to the backend, through the whole world: what the reader sees, what the ledger holds.
@Suite struct BackendFaultTests {
    /// Launches, injects `faults`, and buys the first offer of the first locked article.
    private func buy(injecting faults: String) throws -> World {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(seed: 3, latency: .fast))
        try world.inject(try FaultPlan.parse(faults))
        world.launch()
        world.scheduler.runUntilIdle()
        for input in [ReaderInput.down, .select, .select] { world.send(input) }
        world.scheduler.runUntilIdle()
        world.send(.select)
        world.scheduler.runUntilIdle()
        // Subscribe, above Cancel, where Apple's sheet opens.
        world.send(.up)
        world.send(.select)
        world.scheduler.runUntilIdle()
        return world
    }

    @Test(arguments: ["receipts error", "receipts timeout", "backend malformed", "receipts unauthorized"])
    func aFailedServerCheckAfterPayingShowsAnErrorAndUnlocksNothing(_ fault: String) throws {
        let world = try buy(injecting: fault)
        #expect(world.charges == 1)
        #expect(world.screen.alert?.title == "Something went wrong")
        #expect(world.screen.alert?.message.contains("Restore purchase") == true)
        #expect(!world.appState.access.unlocks(["premium"]))
        #expect(world.timeline.text.contains("fault: \(fault.split(separator: " ")[0])"))
    }

    @Test func aLostAnswerLeavesThePurchaseInTheLedgerForARestoreToFind() throws {
        let world = try buy(injecting: "receipts lost-response")
        #expect(world.screen.alert?.title == "Something went wrong")
        #expect(!world.appState.access.unlocks(["premium"]))
        #expect(try world.backend.ledger.allPurchases().map(\.ownerId) == ["anon-000001"])
    }

    @Test func aSlowServerIsWaitedForOnTheVirtualClock() throws {
        let world = try buy(injecting: "receipts slow:15s")
        #expect(world.screen.alert == nil)
        #expect(world.appState.access.unlocks(["premium"]))
        #expect(world.scheduler.now - SimInstant.worldStart > .seconds(15))
    }

    @Test(arguments: ["payments error", "receipts explode", "receipts slow:soon"])
    func anUnknownTargetOrFaultIsRefusedWithItsName(_ rule: String) throws {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions())
        #expect(throws: FaultPlanError.self) { try world.inject(try FaultPlan.parse(rule)) }
    }
}
