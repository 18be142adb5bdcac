import AppFlow
import SimKernel
import Simulation
import Testing

/// Issue 15: the invariant monitor reads what happened as recorded events, never the timeline's words,
/// so rewording a store line cannot switch a check off.
@Suite struct WorldEventTests {
    private func launchedWorld() throws -> World {
        let world = try TestSupport.launchedWorld()
        return world
    }

    @Test func aCancelByAFaultIsSeenFromItsEvent() throws {
        let world = try launchedWorld()
        try world.inject(FaultPlan.parse("payment cancelled times 1"))
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        try world.perform(.openPaywall)
        world.scheduler.runUntilIdle()
        try world.perform(.selectOffer("premium-monthly"))
        world.scheduler.runUntilIdle()
        try world.perform(.confirmPayment)
        world.scheduler.runUntilIdle()
        #expect(
            world.timeline.events.contains { $0.event == .paymentCancelled(productId: "com.dailynews.premium.monthly") }
        )
        // Planted by hand: an alert over the cancelled payment in the same step (a restricted phone's next tap).
        world.canMakePayments = false
        try world.perform(.selectOffer("premium-monthly"))
        let found = monitor.didRun().filter { $0.invariant == .onePaymentAtATime }
        #expect(found.first?.detail.contains("a cancelled payment showed an alert") == true)
    }

    @Test func aPartialProductsAnswerIsExcusedByItsRecordedFault() throws {
        let world = try launchedWorld()
        try world.inject(FaultPlan.parse("products-request partial always"))
        let monitor = InvariantMonitor(world: world)
        monitor.willRun(.other)
        try world.perform(.openPaywall)
        world.scheduler.runUntilIdle()
        #expect(world.timeline.events.contains { $0.event == .faultFired(.store, target: "products-request") })
        // The paywall shows what the faulty answer had: excused, because the monitor read the fault's event.
        #expect(monitor.didRun().filter { $0.invariant == .paywallOffers }.isEmpty)
    }
}
