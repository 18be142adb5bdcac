import Foundation
import Testing
import WhiteLabel

@testable import Simulation

/// A kept folder reopened with an owner's catalog that dropped a plan its Apple ID pays for: Apple's manage sheet read
/// "Plan: com.podcastclub.listener.yearly" and "Ends on 2027-03-02: com.podcastclub.listener.yearly is not sold in
/// this country or region" (session 39, by hand in the terminal, a `.storekit` file edited between two runs). The
/// store's catalog no longer titles it, so the sheet says "Subscription" in the store's words, never the identifier.
@Suite struct DroppedPlanTitleTests {
    @Test func applesSheetNamesAPlanTheCatalogDroppedWithoutItsIdentifier() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dropped = "com.dailynews.premium.monthly"
        do {
            let world = try TestSupport.demoWorld(in: directory, latency: .none)
            world.launchAndSettle()
            world.buyFromFeed()
            try #require(world.problems.isEmpty)
            try #require(world.appState.access.isSubscriber)
        }
        var config = try TestSupport.demoConfig()
        config.store.products.removeAll { $0.productId == dropped }
        config.app.subscriptions.removeAll { $0.productId == dropped }
        let world = try World(config: config, options: WorldOptions(latency: .none, stateDirectory: directory))
        world.launchAndSettle()
        try world.perform(.manageSubscription)
        world.scheduler.runUntilIdle()
        let rows = world.screen.rows.map(\.text)
        #expect(world.visibleScreenID == .manageSubscription, "\(rows)")
        #expect(rows.contains("Plan: Subscription"), "\(rows)")
        #expect(!rows.contains { $0.contains(dropped) }, "\(rows)")
    }
}
