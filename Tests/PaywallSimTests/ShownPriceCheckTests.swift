import AppFlow
import SimKernel
import Testing

@testable import Simulation

/// Invariant 13 on the amounts: Apple's sheet charges what it shows. A yen price of 0.49 was shown "¥0" and charged
/// 0.49 (session 34); the monitor now says so wherever such a catalog comes from.
@Suite struct ShownPriceCheckTests {
    private func sheetUp(jpn price: String) throws -> World {
        var config = try TestSupport.demoConfig()
        config.store.storefront = "JPN"
        for index in config.store.products.indices { config.store.products[index].prices["JPN"] = price }
        let world = try World(config: config, options: WorldOptions(seed: 1, latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly")] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        return world
    }

    @Test func aSheetShowingAnAmountItDoesNotChargeBreaksIt() throws {
        let violations = try sheetUp(jpn: "0.49").shownPriceViolations()
        #expect(violations.map(\.invariant) == [.sheetsTellTheTruth], "\(violations)")
        #expect(violations.first?.detail.contains("0.49 JPY is charged") == true, "\(violations)")
    }

    @Test func aSheetInWholeYenKeepsIt() throws {
        #expect(try sheetUp(jpn: "480").shownPriceViolations().isEmpty)
    }
}
