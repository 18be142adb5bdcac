import AppFlow
import Foundation
import Scenarios
import Simulation
import Testing
import WhiteLabel

/// Issue 15: plan changes with Apple's timing, a price increase with its new price, and controls that
/// act on a chosen transaction; each as a scenario step, read back as it is written.
@Suite struct TransactionManagerTests {
    private func result(_ text: String) throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(text, file: "t.scenario")
        return ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
    }

    private static let subscribed = """
        app fit-track
        seed 5
        latency fast
        launch
        open paywall
        select offer workouts-monthly
        confirm payment

        """

    @Test func theNewStepsReadBackAsWritten() throws {
        let text = """
            store upgrade com.fittrack.coach.yearly
            store downgrade com.fittrack.workouts.monthly
            store crossgrade com.dailynews.premium.yearly
            store price-increase com.dailynews.premium.monthly 12.99
            store refund 2000000000000001
            store revoke 2000000000000001
            store expire 2000000000000001
            store approve ask-to-buy-2
            store decline ask-to-buy-2
            store resolve-interrupted interrupted-3
            """
        let steps = try ScenarioParser.parse(text, file: "t.scenario").steps.compactMap { step -> WorldAction? in
            if case .world(let world) = step.kind { world } else { nil }
        }
        #expect(steps.count == 10)
        #expect(steps[3] == .raisePrice(product: "com.dailynews.premium.monthly", price: Decimal(string: "12.99")!))
        #expect(steps.map(\.text) == text.split(separator: "\n").map(String.init))
    }

    @Test func switchPlanIsTheReadersStepOnApplesSheet() throws {
        let kinds = try ScenarioParser.parse("switch plan com.fittrack.coach.yearly", file: "t.scenario").steps
            .map(\.kind)
        #expect(kinds == [.reader(.changePlan("com.fittrack.coach.yearly"))])
        #expect(StepText.reader(.changePlan("com.fittrack.coach.yearly")) == "switch plan com.fittrack.coach.yearly")
    }

    @Test(arguments: [
        ("store upgrade", "t.scenario:1: write store"),
        ("store upgrade a b", "t.scenario:1: write store upgrade PRODUCT"),
        (
            "store price-increase com.x cheap",
            "t.scenario:1: \"cheap\" is not a decimal price above 0 such as 12.99: write store price-increase PRODUCT PRICE"
        ),
        ("store refund-all 1", "t.scenario:1: write store refund|revoke|expire|approve|decline|resolve-interrupted ID"),
    ])
    func malformedControlsSayHowToWriteThem(_ text: String, _ message: String) {
        do {
            _ = try ScenarioParser.parse(text, file: "t.scenario")
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func anUpgradeUnlocksAtOnceAndRefundsTheRestOfTheMonthProRata() throws {
        let result = try result(
            Self.subscribed + """
                advance 15d
                store upgrade com.fittrack.coach.yearly
                expect levels coaching, workouts
                expect timeline "prorated refund $4.12 of transaction 2000000000000001"
                expect charges 2
                expect invariants
                """)
        #expect(result.failure == nil, "\(String(describing: result.failure))")
    }

    @Test func aChangeWrittenAsTheWrongKindIsRefusedAndChargesNothing() throws {
        let result = try result(
            Self.subscribed + """
                store downgrade com.fittrack.coach.yearly
                """)
        #expect(result.failure?.actual == "Apple classes it as an upgrade")
    }

    @Test func aControlNamingAnotherTransactionIsRefusedWithWhatWaits() throws {
        let result = try result(
            Self.subscribed + """
                store refund 2000000000000099
                """)
        #expect(result.failure?.actual.hasPrefix("nothing of the reader's by that id") == true)
    }
}

/// A raised price is the store's, kept in `appstore.sqlite`: a reopened folder renews at the price agreed to.
@Suite struct PriceIncreaseOnDiskTests {
    @Test func aReopenedFolderRenewsAtTheNewPriceTheReaderAgreedTo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = WorldOptions(latency: .fast, stateDirectory: directory)
        let first = try World(config: try TestSupport.demoConfig(), options: options)
        first.launch()
        first.scheduler.runUntilIdle()
        try first.subscribe()
        #expect(first.raisePrice(of: "com.dailynews.premium.monthly", to: Decimal(string: "5.99")!))
        first.returnToForeground()
        first.scheduler.runUntilIdle()
        #expect(first.screen.rows.contains { $0.text == "$4.99 → $5.99 per month" })
        try first.perform(.confirmPayment)
        first.scheduler.runUntilIdle()

        let second = try World(config: try TestSupport.demoConfig(), options: options)
        second.launch()
        second.scheduler.runUntilIdle()
        #expect(second.travelToNextRenewal())
        #expect(second.timeline.entries.contains { $0.text.hasPrefix("renewed ") && $0.text.hasSuffix(" for $5.99") })
    }
}

/// The control pane's "Price increase" raises by about a fifth, to a price a store would show.
@Suite struct ControlPriceIncreaseTests {
    @Test(arguments: [("4.99", "5.99"), ("39.99", "47.99"), ("2.49", "2.99"), ("600", "720"), ("1", "2")])
    func aRaiseIsAboutAFifthToTheNextStorePrice(price: String, raised: String) throws {
        #expect(World.raised(try #require(Decimal(string: price))) == Decimal(string: raised))
    }
}

/// The store sells in its currency's minor units: a raise to 5.999 dollars is refused, said on the timeline, and the
/// price stays (1200.5 in the yen was shown ¥1,200 and charged 1200.5, session 34's note).
@Suite struct PriceIncreaseMinorUnitsTests {
    @Test func aRaiseFinerThanTheCurrencyIsRefusedAndThePriceStays() throws {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(latency: .fast))
        world.launch()
        world.scheduler.runUntilIdle()
        try world.subscribe()
        #expect(!world.raisePrice(of: "com.dailynews.premium.monthly", to: Decimal(string: "5.999")!))
        #expect(world.currentPrice("com.dailynews.premium.monthly") == Decimal(string: "4.99"))
        #expect(world.timeline.entries.contains { $0.text.hasSuffix("refused: USD prices have 2 decimals in USA") })
        #expect(world.raisePrice(of: "com.dailynews.premium.monthly", to: Decimal(string: "5.99")!))
    }
}
