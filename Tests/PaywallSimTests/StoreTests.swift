import Signing
import SimKernel
import StoreSim
import Testing
import WhiteLabel

@testable import Simulation

/// A fake App Store for the bundled app, on its own scheduler: in memory, or its records a file at `databasePath`.
struct StoreFixture {
    let scheduler = Scheduler()
    let timeline: Timeline
    let store: AppStore
    let config: DemoConfig

    init(latency: LatencyProfile = .none, databasePath: String? = nil) throws {
        config = try TestSupport.demoConfig()
        let scheduler = scheduler
        timeline = Timeline(clock: { scheduler.now })
        store = try AppStore(
            store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
            random: SeededGenerator(seed: 1), latency: latency, databasePath: databasePath)
    }
}

final class ReceiptBox: ReceiptSlot {
    var receipt: String?
    func load() -> String? { receipt }
    func save(_ receipt: String?) { self.receipt = receipt }
}

@Suite struct CatalogTests {
    @Test func aProductsRequestReturnsOnlyWhatTheStorefrontSellsAndNamesTheRest() throws {
        let fixture = try StoreFixture()
        let ids = ["com.dailynews.premium.weekly", "com.dailynews.premium.yearly", "com.dailynews.premium.monthly"]
        let usa = fixture.store.catalog.products(for: ids, storefront: Storefront.named("USA")!, locale: "en_US")
        #expect(
            usa.products.map(\.productIdentifier) == ["com.dailynews.premium.monthly", "com.dailynews.premium.yearly"])
        #expect(usa.invalidProductIdentifiers == ["com.dailynews.premium.weekly"])
        let japan = fixture.store.catalog.products(for: ids, storefront: Storefront.named("JPN")!, locale: "ja_JP")
        #expect(japan.products.isEmpty)
    }

    @Test(arguments: [
        ("USA", "en_US", "$4.99", "Premium Monthly"),
        ("FRA", "fr_FR", "4,99\u{a0}€", "Premium mensuel"),
        ("GBR", "en_GB", "£3.99", "Premium Monthly"),
    ])
    func pricesAndTitlesAreLocalized(storefront: String, locale: String, price: String, title: String) throws {
        let fixture = try StoreFixture()
        let response = fixture.store.catalog.products(
            for: ["com.dailynews.premium.monthly"], storefront: Storefront.named(storefront)!, locale: locale)
        let product = try #require(response.products.first)
        #expect(product.localizedPrice == price)
        #expect(product.localizedTitle == title)
        #expect(product.subscriptionPeriod == CalendarPeriod(unit: .month, value: 1))
    }

    @Test func theYearlyPlanCarriesItsFreeTrial() throws {
        let fixture = try StoreFixture()
        let response = fixture.store.catalog.products(
            for: ["com.dailynews.premium.yearly"], storefront: Storefront.named("USA")!, locale: "en_US")
        let offer = try #require(response.products.first?.introductoryOffer)
        #expect(offer.paymentMode == .freeTrial)
        #expect(offer.subscriptionPeriod == CalendarPeriod(unit: .week, value: 1))
    }

    /// A free trial of one week × 2 is "2 weeks free" on the paywall, as Apple's sheet says "Free for 2 weeks": the
    /// paywall said "1 week free" of it.
    @Test func aTrialOfSeveralPeriodsIsItsWholeLengthOnThePaywall() throws {
        var specs = try TestSupport.demoConfig().store.products
        let index = try #require(specs.firstIndex { $0.productId == "com.dailynews.premium.yearly" })
        specs[index].introductoryOffer?.periodCount = 2
        let product = try #require(
            Catalog(specs: specs).products(
                for: ["com.dailynews.premium.yearly"], storefront: Storefront.named("USA")!, locale: "en_US"
            ).products.first)
        let offered = SimulatedStoreAdapter.product(product)
        #expect(offered.freeTrialPeriod == CalendarPeriod(unit: .week, value: 2))
        #expect(offered.words?.freeTrial == "2 weeks free")
        #expect(offered.words?.trialTerms == "Free for 2 weeks, then ")
    }

    /// A paid introductory offer priced for one storefront only is not sold elsewhere: it was sold at £0.00,
    /// periods the owner never priced given away.
    @Test func aPaidOfferIsSoldOnlyWhereTheOwnerPricedIt() throws {
        var specs = try TestSupport.demoConfig().store.products
        let index = try #require(specs.firstIndex { $0.productId == "com.dailynews.premium.monthly" })
        specs[index].introductoryOffer = IntroductoryOfferSpec(
            paymentMode: .payUpFront, period: "P3M", periodCount: 1, prices: ["USA": "5.00"])
        let catalog = Catalog(specs: specs)
        func product(_ storefront: String, _ locale: String) throws -> Product {
            try #require(
                catalog.products(
                    for: ["com.dailynews.premium.monthly"], storefront: Storefront.named(storefront)!, locale: locale
                ).products.first)
        }
        #expect(try product("USA", "en_US").introductoryOffer?.localizedPrice == "$5.00")
        let british = try product("GBR", "en_GB")
        #expect(british.localizedPrice == "£3.99")
        #expect(british.introductoryOffer == nil)
    }
}

@Suite struct PaymentQueueTests {
    @Test func subscribingChargesWritesASignedReceiptAndTellsTheObserver() throws {
        let fixture = try StoreFixture(latency: .typical)
        let box = ReceiptBox()
        let queue = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: box)
        var seen: [TransactionState] = []
        queue.startObserving { seen.append($0.state) }
        var sheets: [PaymentSheet?] = []
        queue.onSheetChange = { sheets.append($0) }
        queue.add(productIdentifier: "com.dailynews.premium.monthly")
        fixture.scheduler.runUntilIdle()
        #expect(seen == [.purchasing])
        #expect(sheets.first??.localizedPrice == "$4.99")
        #expect(fixture.store.charges(appleId: "a@icloud.test") == 0)
        queue.answerSheet(confirm: true)
        fixture.scheduler.runUntilIdle()
        #expect(seen == [.purchasing, .purchased])
        #expect(fixture.store.charges(appleId: "a@icloud.test") == 1)
        let receipt = try #require(box.receipt)
        let payload = try #require(ReceiptCodec.open(receipt, with: fixture.store.verifyingKey))
        #expect(payload.bundleId == "com.paywallsim.dailynews")
        #expect(payload.wasIssued(for: "phone-1"))
        #expect(!payload.wasIssued(for: "phone-2"))
        // The device's identifier is not in the receipt, only its hash with the nonce.
        let json = String(decoding: try #require(Base64URL.decode(receipt.split(separator: ".")[1])), as: UTF8.self)
        #expect(!json.contains("phone-1"))
        #expect(payload.inApp.map(\.productId) == ["com.dailynews.premium.monthly"])
    }

    @Test func cancellingOnTheSheetFailsThePaymentAsCancelledAndChargesNothing() throws {
        let fixture = try StoreFixture()
        let queue = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: ReceiptBox())
        var last: PaymentTransaction?
        queue.startObserving { last = $0 }
        queue.add(productIdentifier: "com.dailynews.premium.monthly")
        fixture.scheduler.runUntilIdle()
        queue.answerSheet(confirm: false)
        fixture.scheduler.runUntilIdle()
        #expect(last?.state == .failed)
        #expect(last?.error == .paymentCancelled)
        #expect(fixture.store.charges(appleId: "a@icloud.test") == 0)
    }

    @Test func aRestrictedDeviceCannotPay() throws {
        let fixture = try StoreFixture()
        let queue = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: ReceiptBox())
        queue.canMakePayments = false
        var last: PaymentTransaction?
        queue.startObserving { last = $0 }
        queue.add(productIdentifier: "com.dailynews.premium.monthly")
        fixture.scheduler.runUntilIdle()
        #expect(last?.error == .paymentNotAllowed)
        #expect(queue.sheet == nil)
    }

    @Test func anUnfinishedTransactionIsDeliveredAgainAtTheNextLaunch() throws {
        let fixture = try StoreFixture()
        let box = ReceiptBox()
        let queue = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: box)
        queue.startObserving { _ in }
        queue.add(productIdentifier: "com.dailynews.premium.monthly")
        fixture.scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        fixture.scheduler.runUntilIdle()
        // The app dies before finishing; a new launch opens a new queue on the same device.
        let relaunched = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: box)
        var redelivered: [PaymentTransaction] = []
        relaunched.startObserving { redelivered.append($0) }
        fixture.scheduler.runUntilIdle()
        #expect(redelivered.map(\.state) == [.purchased])
        relaunched.finish(redelivered.first?.transactionIdentifier)
        let third = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: box)
        var again: [PaymentTransaction] = []
        third.startObserving { again.append($0) }
        fixture.scheduler.runUntilIdle()
        #expect(again.isEmpty)
    }
}

@Suite struct ReceiptVerificationTests {
    private func purchasedReceipt(_ fixture: StoreFixture) -> String? {
        let box = ReceiptBox()
        let queue = fixture.store.paymentQueue(deviceId: "phone-1", appleId: "a@icloud.test", receipt: box)
        queue.startObserving { _ in }
        queue.add(productIdentifier: "com.dailynews.premium.yearly")
        fixture.scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        fixture.scheduler.runUntilIdle()
        return box.receipt
    }

    @Test func aGenuineReceiptVerifiesAndTheStoreAnswersFromItsOwnRecords() throws {
        let fixture = try StoreFixture()
        let receipt = try #require(purchasedReceipt(fixture))
        guard case .valid(_, let transactions, _) = fixture.store.verifyReceipt(receipt, expecting: .sandbox) else {
            Issue.record("a genuine receipt was refused")
            return
        }
        #expect(transactions.map(\.productIdentifier) == ["com.dailynews.premium.yearly"])
        // The free week: the first period ends a week after purchase.
        #expect(transactions.first?.expiresDate == SimInstant.worldStart + .days(7))
    }

    @Test func aTamperedReceiptIsNotAuthenticated() throws {
        let fixture = try StoreFixture()
        let receipt = try #require(purchasedReceipt(fixture))
        var parts = receipt.split(separator: ".").map(String.init)
        let forged =
            #"{"bundleId":"com.paywallsim.dailynews","creationDate":0,"deviceId":"phone-1","environment":"Sandbox","inApp":[]}"#
        parts[1] = Base64URL.encode(Array(forged.utf8))
        #expect(
            fixture.store.verifyReceipt(parts.joined(separator: "."), expecting: .sandbox)
                == .invalid(status: .notAuthenticated))
        #expect(fixture.store.verifyReceipt("not a receipt", expecting: .sandbox) == .invalid(status: .malformed))
    }

    @Test func aSandboxReceiptSentToProductionIsRefusedAsAppleRefusesIt() throws {
        let fixture = try StoreFixture()
        let receipt = try #require(purchasedReceipt(fixture))
        #expect(
            fixture.store.verifyReceipt(receipt, expecting: .production)
                == .invalid(status: .sandboxReceiptSentToProduction))
    }
}
