import Foundation
import SimKernel
import Simulation
import Testing

/// A state directory reopened carries on: the virtual clock never goes back to the first morning.
@Suite struct StateOnDiskTests {
    private func world(_ directory: String) throws -> World {
        try World(
            config: try TestSupport.demoConfig(), options: WorldOptions(latency: .fast, stateDirectory: directory))
    }

    @Test func timeTravelledIsWhereTheNextRunStarts() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try world(directory)
        let start = first.scheduler.now
        first.launch()
        first.travel(by: .days(40))
        let stopped = first.scheduler.now

        let second = try world(directory)
        #expect(second.scheduler.now == stopped)
        #expect(second.scheduler.now > start)
        #expect(second.timeline.entries.contains { $0.text.hasPrefix("state reopened: the clock carries on") })
    }

    @Test func aRunKilledBeforeSavingStillCarriesOnFromItsLastPurchase() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try world(directory)
        first.launch()
        first.scheduler.runUntilIdle()
        first.scheduler.advance(by: .days(3))  // no control: nothing saves the clock
        try first.subscribe()
        let purchase = try #require(first.store.transactions(appleId: first.appleId).first?.purchaseDate)

        let second = try world(directory)
        #expect(second.scheduler.now >= purchase)
        second.launch()
        second.scheduler.runUntilIdle()
        #expect(second.appState.access.levels.map(\.rawValue) == ["premium"])
    }

    /// Issue 12, defect 15: the process dies after the reader confirmed on Apple's sheet, before the
    /// charge. The payment is Apple's once confirmed: it goes through, and the next launch's observer
    /// hears of it, as StoreKit's queue delivers an unfinished transaction.
    @Test func aPaymentConfirmedBeforeTheProcessDiedGoesThroughAtTheNextLaunch() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try world(directory)
        first?.launch()
        first?.scheduler.runUntilIdle()
        try first?.perform(.openPaywall)
        first?.scheduler.runUntilIdle()
        try first?.perform(.selectOffer("premium-monthly"))
        first?.scheduler.runUntilIdle()
        try first?.perform(.confirmPayment)  // the charge is still on its way when the process dies
        #expect(first?.charges == 0)
        first = nil

        let second = try world(directory)
        second.launch()
        second.scheduler.runUntilIdle()
        #expect(second.charges == 1)
        #expect(second.appState.access.levels.map(\.rawValue) == ["premium"])
        #expect(
            second.timeline.entries.contains { $0.text.hasPrefix("a payment confirmed before the last run stopped") })
    }

    @Test func aNewPhoneInALaterRunIsNeverOneAnEarlierRunLeftOnDisk() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try world(directory)
        first.launch()
        try first.newDevice(named: "iphone-2")
        first.scheduler.runUntilIdle()
        try first.subscribe()
        #expect(first.appState.access.levels.map(\.rawValue) == ["premium"])

        let second = try world(directory)
        second.launch()
        #expect(throws: WorldSetupError.self) { try second.newDevice(named: "iphone-2") }
        try second.newDevice(named: "iphone-3")
        second.scheduler.runUntilIdle()
        #expect(second.appState.access.identity == .none)
    }

    @Test func aFreshDirectoryStartsOnTheWorldsFirstMorning() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try world(directory).scheduler.now == .worldStart)
    }
}
