import Database
import Scenarios
import SimKernel
import Testing
import WhiteLabel

@testable import StoreSim

/// Renewal dates count from the anniversary of the purchase, not from the period before (session 28).
@Suite struct RenewalAnniversaryTests {
    /// 2026-01-31 10:00 UTC.
    private static let january31 = SimInstant(milliseconds: 1_769_853_600_000)

    @Test func monthsFromTheLastDayOfFebruaryEndOnTheAnniversarysDay() {
        let month = CalendarPeriod(unit: .month, value: 1)
        let february28 = month.added(to: Self.january31)
        #expect(february28.description == "2026-02-28 10:00:00.000")
        #expect(month.added(to: february28, anniversary: Self.january31).description == "2026-03-31 10:00:00.000")
        #expect(month.added(to: february28).description == "2026-03-28 10:00:00.000")
        // Days and weeks count from the start.
        let week = CalendarPeriod(unit: .week, value: 1)
        #expect(week.added(to: february28, anniversary: Self.january31).description == "2026-03-07 10:00:00.000")
    }

    @Test func anAnniversaryIsTheAnchorsDayClampedAtItsTimeOfDay() {
        let february28 = CalendarPeriod(unit: .month, value: 1).added(to: Self.january31)
        #expect(CalendarPeriod.isAnniversary(Self.january31, of: Self.january31))
        #expect(CalendarPeriod.isAnniversary(february28, of: Self.january31))
        #expect(!CalendarPeriod.isAnniversary(february28 + .seconds(1), of: Self.january31))
        #expect(!CalendarPeriod.isAnniversary(february28 + .days(1), of: Self.january31))
        #expect(!CalendarPeriod.isAnniversary(Self.january31, of: february28))
    }

    /// An `appstore.sqlite` an older build wrote (no `anchor_ms`) opens, and its subscriptions count from the current
    /// period's start.
    @Test func aFileWrittenBeforeAnniversariesWereKeptCountsFromTheCurrentPeriodsStart() throws {
        let path = try TestSupport.temporaryDirectory() + "/appstore.sqlite"
        let original: String
        let bought: SimInstant
        do {
            let (store, scheduler) = try Self.store(path)
            scheduler.advance(by: .days(29))
            let product = try #require(store.product(StoreHarness.monthly))
            let record = try store.purchase(product, appleId: "a@icloud.test", deviceId: "phone-1")
            original = record.originalTransactionIdentifier
            bought = record.purchaseDate
            #expect(bought.dateDescription == "2026-03-31")
        }
        do {
            let old = try Database(path: path)
            let version = try #require(StoreLedger.migrations.firstIndex { $0.contains("anchor_ms INTEGER") })
            // The file as the build before `anchor_ms` wrote it: the migrations from it on (`apple_id_settings`,
            // `notifications_on_their_way`) undone too; the later ones run again harmlessly.
            try old.execute(
                "ALTER TABLE subscriptions DROP COLUMN anchor_ms; DROP TABLE apple_id_settings; "
                    + "DROP TABLE notifications_on_their_way; PRAGMA user_version = \(version)")
        }
        let (store, scheduler) = try Self.store(path)
        #expect(store.subscription(originalTransactionId: original)?.renewalAnchor == bought)
        scheduler.run(until: bought + .days(31))
        let renewed = try #require(store.subscription(originalTransactionId: original))
        #expect(renewed.latestTransactionId != original)
        #expect(renewed.expiresDate.dateDescription == "2026-05-31")
    }

    /// An upgrade starts a new period now, and its anniversary: made on Apr 30 of a plan bought on Mar 31, it renews on
    /// May 30, not on the 31st the old plan counted from.
    @Test func anUpgradeCountsFromItsOwnDay() throws {
        let text = """
            storekit \(TestSupport.packageRoot)/scenarios/found-by-hand/tiers.storekit
            seed 5
            latency fast
            launch
            advance 29d
            open paywall
            select offer com.t.lite.monthly
            confirm payment
            store renew
            expect timeline "transaction 2000000000000002 until 2026-05-31"
            store upgrade com.t.pro.monthly
            store renew
            expect timeline "time travel to the next renewal, 2026-05-30"
            expect timeline "transaction 2000000000000004 until 2026-06-30"
            expect invariants
            """
        let scenario = try ScenarioParser.parse(text, file: "inline.scenario")
        let result = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    private static func store(_ path: String) throws -> (AppStore, Scheduler) {
        let config = try TestSupport.demoConfig()
        let scheduler = Scheduler()
        let store = try AppStore(
            store: config.store, bundleId: config.app.bundleId, scheduler: scheduler,
            timeline: Timeline(clock: { scheduler.now }), random: SeededGenerator(seed: 1), latency: .none,
            databasePath: path)
        return (store, scheduler)
    }
}
