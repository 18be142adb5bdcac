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
