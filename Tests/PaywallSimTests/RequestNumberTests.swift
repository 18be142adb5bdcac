import AppFlow
import Database
import Foundation
import SimKernel
import Testing

@testable import Simulation
@testable import StoreSim

/// An Ask to Buy request's handle counts requests alone, 1, 2, 3…, across every run on one state folder: numbered by
/// its row, which payments confirmed on Apple's sheet share, the first request read ask-to-buy-2 (h1, session 30).
@Suite struct RequestNumberTests {
    private func launched(_ directory: String) throws -> World {
        let world = try TestSupport.demoWorld(in: directory, latency: .fast)
        world.launch()
        world.scheduler.runUntilIdle()
        world.askToBuy = true
        return world
    }

    /// The reader asks for the monthly plan; the handle of the request that waits for a parent.
    private func request(on world: World) throws -> String? {
        for action in [ReaderAction.openPaywall, .selectOffer("premium-monthly"), .confirmPayment] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        return world.pendingPayments.last?.identifier
    }

    @Test func requestsAreNumberedOneAfterAnotherAcrossRuns() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        #expect(try request(on: #require(first)) == "ask-to-buy-1")
        #expect(first?.declineAskToBuy() == true)
        first?.scheduler.runUntilIdle()
        #expect(try request(on: #require(first)) == "ask-to-buy-2")
        #expect(first?.declineAskToBuy() == true)
        first = nil

        let second = try launched(directory)
        #expect(try request(on: second) == "ask-to-buy-3")
    }

    /// A folder the build before wrote: the request it holds keeps the handle it was shown with (its row's), and the next
    /// one is numbered past every row that build numbered, so no handle comes back.
    @Test func aFolderWrittenBeforeKeepsItsHandlesAndNeverRepeatsThem() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        _ = try request(on: #require(first))
        first = nil
        do {
            let old = try Database(path: "\(directory)/appstore.sqlite")
            let version = StoreLedger.migrations.firstIndex { $0.contains("held_numbers") } ?? 0
            // Written before the handles had their serials, so before Apple's retries were kept too (the next migration).
            try old.execute(
                "DROP TABLE held_numbers; DELETE FROM serials WHERE name LIKE 'held %'; "
                    + "ALTER TABLE notifications_on_their_way DROP COLUMN attempts; PRAGMA user_version = \(version)")
        }
        let second = try launched(directory)
        // Its row: the payment confirmed on the sheet before it was 1.
        #expect(second.pendingPayments.map(\.identifier) == ["ask-to-buy-2"])
        #expect(second.declineAskToBuy())
        second.scheduler.runUntilIdle()
        #expect(try request(on: second) == "ask-to-buy-3")
    }
}
