import AppFlow
import SimKernel
import Simulation
import Testing

/// The coordinator's rules that play out over the store's lifecycle: parents, refunds, billing, prices.
@Suite struct LifecycleRulesTests {
    @Test func aPurchaseWaitingForAParentCarriesOnWhenApprovedWhileTheReaderReadsTheFeed() throws {
        let world = try newsWorld()
        world.askToBuy = true
        world.launchAndSettle()
        world.buyFromFeed()
        #expect(world.screen.alert?.title == "Waiting for approval")
        #expect(world.charges == 0)
        world.dismissAlert()
        world.backToFeed()
        world.travel(by: .hours(3))
        #expect(world.approveAskToBuy())
        world.scheduler.runUntilIdle()
        #expect(world.charges == 1)
        #expect(world.isUnlocked)
        #expect(world.screen.id == .feed)
        #expect(world.screen.rows.contains { $0.text == "The return of the night trains" && $0.badge == .unlocked })
    }

    @Test func aDeclinedRequestChargesNothingAndUnlocksNothing() throws {
        let world = try newsWorld()
        world.askToBuy = true
        world.launchAndSettle()
        world.buyFromFeed()
        world.dismissAlert()
        #expect(world.declineAskToBuy())
        world.scheduler.runUntilIdle()
        #expect(world.charges == 0)
        #expect(!world.isUnlocked)
    }

    @Test func aFailedPaymentShowsAPlainMessageWithNoCode() throws {
        let world = try newsWorld()
        try world.inject(try FaultPlan.parse("payment error:paymentInvalid"))
        world.launchAndSettle()
        world.buyFromFeed()
        let message = try #require(world.screen.alert?.message)
        #expect(message == "The App Store could not complete the payment. You were not charged.")
        #expect(!message.contains("paymentInvalid"))
        #expect(world.charges == 0)
    }

    @Test func aRefundTakesAccessAndTheCachedArticleAwayOnceTheAppIsBack() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        #expect(!world.cachedLevels.isEmpty)
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        #expect(!world.isUnlocked)
        #expect(world.cachedLevels.isEmpty)
        #expect(world.screen.rows.contains { $0.text == "Subscribe" })
    }

    @Test func renewalsKeepAccessMonthAfterMonth() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        for _ in 0..<3 { #expect(world.travelToNextRenewal()) }
        world.scheduler.runUntilIdle()
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        #expect(world.isUnlocked)
        #expect(world.charges == 4)
    }

    @Test func aBillingIssueInTheGracePeriodKeepsAccessAndShowsOnTheProfile() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        world.setBillingIssue(true)
        #expect(world.travelToNextRenewal())
        world.scheduler.runUntilIdle()
        world.openProfile()
        #expect(world.isUnlocked)
        #expect(world.screen.rows.contains { $0.kind == .banner && $0.text.contains("payment method failed") })
    }

    @Test func manageMySubscriptionTurnsAutoRenewOffAndTheProfileSaysWhenItEnds() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        world.openProfile()
        world.choose("Manage my subscription")
        #expect(world.screen.id == .manageSubscription)
        world.choose("Cancel subscription")
        world.choose("Done")
        world.send(.back)
        world.choose("Profile")
        #expect(world.screen.rows.contains { $0.text.contains("Premium Monthly: ends on 2026-04-02") })
        #expect(world.isUnlocked)
    }

    /// A parent's control or an interrupted purchase's with nothing waiting writes only that nothing waits, never first
    /// a line saying it was done (session 44's walk; found-by-hand/554 for the price increase).
    @Test func aControlWithNothingWaitingSaysOnlyThat() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        let before = world.timeline.entries.count
        #expect(!world.approveAskToBuy())
        #expect(!world.declineAskToBuy())
        #expect(!world.resolveInterruptedPurchase())
        #expect(
            world.timeline.entries[before...].map(\.text) == [
                "no request waits for a parent", "no request waits for a parent", "no interrupted purchase waits",
            ])
    }

    @Test func aPriceIncreaseAsksForConsentWhenTheAppBecomesActive() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        world.raisePrices()
        world.scheduler.runUntilIdle()
        world.returnToForeground()
        world.scheduler.runUntilIdle()
        #expect(world.screen.id == .appStoreSheet)
        #expect(world.screen.rows.first?.text.hasPrefix("Price increase") == true)
        world.choose("Agree")
        #expect(world.timeline.text.contains("price increase accepted"))
    }
}

@Suite struct PurchaseGuardTests {
    @Test func aRestrictedDeviceRefusesBeforeApplesSheetWithAPlainMessage() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.canMakePayments = false
        world.choose("The return of the night trains")
        world.choose("Subscribe")
        world.choose("Premium Monthly")
        #expect(world.screen.alert?.title == "Purchases are off")
        #expect(!world.timeline.text.contains("payment added"))
    }
}

@Suite struct StoreTestSettingsTests {
    @Test func aKidsAppCanTurnAskToBuyOnInItsOwnConfig() throws {
        let world = try World(config: try TestSupport.demoConfig("kids-stories"), options: WorldOptions())
        #expect(world.askToBuy)
        let news = try World(config: try TestSupport.demoConfig(), options: WorldOptions())
        #expect(!news.askToBuy)
    }
}
