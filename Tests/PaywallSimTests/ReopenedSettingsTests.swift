import AppFlow
import Database
import Foundation
import SimKernel
import Testing

@testable import Simulation
@testable import StoreSim

/// A relaunch on the same state folder keeps what the control pane set: Ask to Buy was kept, but the billing issue,
/// the storefront and the language came back as the config's, and the renewal the tester set up to fail was charged
/// (session 28).
@Suite struct ReopenedSettingsTests {
    private static func options(_ directory: String) -> WorldOptions {
        var options = WorldOptions(latency: .fast, stateDirectory: directory)
        options.reopensLastPhone = true
        return options
    }

    /// A guest's monthly plan, then Ask to Buy, a billing issue, France and French set as the tester set them.
    private static func setUp(_ directory: String) throws {
        let world = try World(config: try TestSupport.demoConfig(), options: options(directory))
        world.launch()
        world.scheduler.runUntilIdle()
        for action: ReaderAction in [.openPaywall, .selectOffer("premium-monthly"), .confirmPayment] {
            try world.perform(action)
            world.scheduler.runUntilIdle()
        }
        #expect(world.store.transactions(appleId: world.appleId).count == 1)
        world.askToBuy = true
        world.setBillingIssue(true)
        world.storefront = "FRA"
        world.locale = "fr_FR"
    }

    @Test func theBillingIssueStorefrontAndLanguageAreKeptWithAskToBuy() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.setUp(directory)
        let reopened = try World(config: try TestSupport.demoConfig(), options: Self.options(directory))
        #expect(reopened.askToBuy)
        #expect(reopened.hasBillingIssue)
        #expect(reopened.store.billingGracePeriodEnabled)
        #expect(reopened.storefront == "FRA")
        #expect(reopened.locale == "fr_FR")
        #expect(
            reopened.timeline.text.contains(
                "state reopened: Ask to Buy on, billing issue with grace period, storefront FRA, locale fr_FR, "
                    + "as the last run left them"))
        // The next renewal fails, as the tester set it up to.
        reopened.launch()
        reopened.travel(by: .days(31))
        reopened.scheduler.runUntilIdle()
        #expect(reopened.store.transactions(appleId: reopened.appleId).count == 1)
        #expect(reopened.store.subscriptions(appleId: reopened.appleId).first?.state == .gracePeriod)
    }

    /// A folder written before these were kept (no table, no language file) opens on the config's settings, and keeps
    /// them from then on.
    @Test func aFolderWrittenBeforeOpensOnTheDefaults() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.setUp(directory)
        do {
            let old = try Database(path: "\(directory)/appstore.sqlite")
            let version = try #require(StoreLedger.migrations.firstIndex { $0.contains("apple_id_settings") })
            // Written before the settings were kept, so before the notifications on their way were (the next migration);
            // the later ones run again harmlessly.
            try old.execute(
                "DROP TABLE apple_id_settings; DROP TABLE notifications_on_their_way; PRAGMA user_version = \(version)")
        }
        try FileManager.default.removeItem(atPath: "\(directory)/devices/iphone/locale")
        let reopened = try World(config: try TestSupport.demoConfig(), options: Self.options(directory))
        #expect(!reopened.hasBillingIssue)
        #expect(reopened.storefront == "USA")
        #expect(reopened.locale == "en_US")
        #expect(reopened.timeline.text.contains("state reopened: Ask to Buy on, as the last run left them"))
        reopened.storefront = "GBR"
        let again = try World(config: try TestSupport.demoConfig(), options: Self.options(directory))
        #expect(again.storefront == "GBR")
    }
}
