import AppFlow
import Foundation
import Scenarios
import StoreSim
import Testing
import WhiteLabel

@testable import Simulation

/// Promotional, win-back and offer-code offers from a `.storekit` file: imported with their terms, shown only
/// to a reader the store makes eligible, and charged at their price for their periods.
@Suite struct SubscriptionOfferTests {
    private static let podcastStoreKit = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"
    private static let fixtures = "\(TestSupport.packageRoot)/../shared/fixtures/storekit"

    private func run(_ text: String) throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(text, file: "inline.scenario")
        return ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
    }

    /// Podcast Club's file with `change` applied to its monthly subscription, decoded.
    private func monthly(_ change: (inout [String: Any]) -> Void) throws -> StoreKitConfiguration {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastStoreKit))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var groups = try #require(json["subscriptionGroups"] as? [[String: Any]])
        var subscriptions = try #require(groups[0]["subscriptions"] as? [[String: Any]])
        change(&subscriptions[0])
        groups[0]["subscriptions"] = subscriptions
        json["subscriptionGroups"] = groups
        return try StoreKitConfiguration.decode(try JSONSerialization.data(withJSONObject: json), file: "pc.storekit")
    }

    @Test func promotionalWinBackAndCodeOffersAreImportedWithTheirTerms() throws {
        let config = try monthly { subscription in
            subscription["winbackOffers"] = [
                [
                    "offerID": "welcome-back", "paymentMode": "free", "subscriptionPeriod": "P1M",
                    "numberOfPeriods": 1,
                ]
            ]
        }
        let spec = try #require(config.products.first { $0.productId == "com.podcastclub.listener.monthly" })
        let offers = try #require(spec.promotionalOffers)
        #expect(offers.map(\.id) == ["com.podcastclub.listener.monthly.comeback", "welcome-back"])
        #expect(
            offers[0].paymentMode == .payAsYouGo && offers[0].periodCount == 3 && offers[0].prices?["USA"] == "1.99")
        #expect(offers[1].winBack == true)
        let code = try #require(spec.offerCodes?.first)
        #expect(code.code == "LISTEN-FREE" && code.eligibility == [.new, .expired] && code.paymentMode == .freeTrial)
        // Spread to every storefront the app sells in, as the product's own price is.
        let part = config.storePart(storefronts: ["FRA"])
        let sold = try #require(part.products.first { $0.productId == spec.productId })
        #expect(sold.promotionalOffers?[0].prices == ["USA": "1.99", "FRA": "1.99"])
    }

    /// The file's In-App Purchase key ID is the one the backend signs under and App Store Connect knows.
    @Test func theFilesOfferKeyIDIsTheBackendsKeyID() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastStoreKit))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        json["subscriptionOffersKeyPair"] = ["id": "KEY1", "privateKey": "not used"]
        let file = try StoreKitConfiguration.decode(
            try JSONSerialization.data(withJSONObject: json), file: "pc.storekit")
        #expect(file.settings.offerKeyIdentifier == "KEY1")
        var config = try TestSupport.demoConfig("podcast-club")
        config.store.storekitSettings?.offerKeyIdentifier = "KEY1"
        let world = try World(config: config, options: WorldOptions(latency: .none))
        #expect(world.backend.offerKeyIdentifier == "KEY1")
    }

    @Test func anOfferCodeForNobodyAndAPromotionalOfferWithoutIDAreErrorsNamingTheField() throws {
        #expect(
            throws: ConfigError(
                file: "pc.storekit", location: "subscriptionGroups[0].subscriptions[0].codeOffers[0].eligibility[0]",
                message: "\"lapsed\" is not new, expired or existing")
        ) {
            try monthly { subscription in
                subscription["codeOffers"] = [
                    [
                        "referenceName": "X", "paymentMode": "free", "subscriptionPeriod": "P1M",
                        "eligibility": ["lapsed"],
                    ]
                ]
            }
        }
        #expect(
            throws: ConfigError(
                file: "pc.storekit", location: "subscriptionGroups[0].subscriptions[0].adHocOffers[0].offerID",
                message: "is missing: the app applies a promotional offer by its ID")
        ) {
            try monthly { subscription in
                subscription["adHocOffers"] = [["paymentMode": "free", "subscriptionPeriod": "P1M"]]
            }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: fixtures), "../shared/fixtures is absent"))
    func theFixturesOffersAreImported() throws {
        let food = try StoreKitConfiguration.load(path: "\(Self.fixtures)/apple-food-truck-Products.storekit")
        let yearly = try #require(food.products.first { $0.productId == "socialfeedplus.yearly" })
        #expect(yearly.offerCodes?.first?.code == "Half off first year")
        #expect(yearly.offerCodes?.first?.eligibility == [.new])
        let revenueCat = try StoreKitConfiguration.load(
            path: "\(Self.fixtures)/revenuecat-UnitTestsConfiguration.storekit")
        #expect(revenueCat.products.compactMap(\.promotionalOffers).joined().count == 2)
    }

    @Test func aReaderWhoNeverSubscribedIsNotShownTheWinBackOffer() throws {
        let world = try World(
            config: try TestSupport.demoConfig("podcast-club"), options: WorldOptions(latency: .none))
        world.launch()
        world.scheduler.runUntilIdle()
        try world.perform(.openPaywall)
        world.scheduler.runUntilIdle()
        let text = world.screen.rows.map(\.text).joined(separator: "\n")
        #expect(text.contains("Listener+ Monthly: 1 week free, then $4.99 per month"))
        #expect(!text.contains("Welcome back"))
        #expect(!text.contains("$1.99"))
    }

    /// The server signs only for someone it knows: a lapsed Apple ID on a new phone with no identity yet is
    /// shown the plain price, and Apple's sheet asks that.
    @Test func aPhoneTheServerDoesNotKnowIsNotShownTheWinBackOffer() throws {
        let result = try run(
            """
            app podcast-club
            latency fast
            launch
            open paywall
            select offer listener-monthly
            confirm payment
            cancel auto-renew
            advance 40d
            new device ipad
            open paywall
            expect text "Listener+ Monthly: $4.99 per month"
            select offer listener-monthly
            expect text "$4.99 per month. Renews automatically"
            expect invariants
            """)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    @Test func aRunningSubscribersOfferCodeStartsAtTheNextRenewal() throws {
        let result = try run(
            """
            app podcast-club
            latency fast
            launch
            open paywall
            select offer listener-yearly
            confirm payment
            expect levels listener
            redeem code LOYAL-YEAR
            expect timeline "(offer code LOYAL-YEAR) applies from the renewal"
            store renew
            expect timeline "at $29.99 (offer code LOYAL-YEAR)"
            expect charges 2
            """)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    @Test func anUnknownCodeIsRefusedNamingTheCodesThereAre() throws {
        let result = try run(
            """
            app podcast-club
            launch
            redeem code NOPE
            """)
        #expect(!result.passed)
        #expect(result.failure?.actual == "no offer code \"NOPE\" (codes: LISTEN-FREE, LOYAL-YEAR)")
    }

    @Test func theRedeemStepReadsAndPrintsACodeWithSpaces() throws {
        let scenario = try ScenarioParser.parse("app podcast-club\nlaunch\nredeem code Free month\n", file: "x")
        let step = try #require(scenario.steps.last)
        #expect(step.kind == .world(.redeemCode("Free month")))
        #expect(WorldAction.redeemCode("Free month").text == "redeem code Free month")
    }
}
