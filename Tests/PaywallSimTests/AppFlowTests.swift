import AppFlow
import SimKernel
import Subscriptions
import Testing
import WhiteLabel

/// The reducer alone: every event's new state and effects, with no store or backend behind it.
@Suite struct AppFlowTests {
    private func launchedState() throws -> AppState {
        var state = AppState(app: try TestSupport.demoConfig().app)
        #expect(reduce(&state, .launched) == [.loadCatalog, .reloadAccess])
        #expect(reduce(&state, .accessChanged(AccessSnapshot(identity: .none, levels: [], isKnown: true))) == [])
        return state
    }

    private let offer = TestSupport.premiumMonthly

    /// From the feed to the paywall of the first locked article.
    private func onPaywall() throws -> AppState {
        var state = try launchedState()
        _ = reduce(&state, .catalogLoaded([offer]))
        _ = reduce(&state, .reader(.down))
        _ = reduce(&state, .reader(.select))
        #expect(state.route == .content(id: "night-trains"))
        // Asked again on every opening: a failed request is retried, a trial already taken is not promised.
        #expect(reduce(&state, .reader(.select)) == [.loadCatalog])
        #expect(state.route == .paywall(fromContent: "night-trains"))
        return state
    }

    /// The phone's language chooses the paywall's words: a state in another language is another state, so a
    /// test that compares states sees a change of language.
    @Test func statesInTwoLanguagesDiffer() throws {
        let english = try onPaywall()
        var french = english
        french.locale = "fr_FR"
        #expect(french != english)
        #expect(french.screen != english.screen)
    }

    @Test func choosingAnOfferAsksForThePurchaseAndShowsWhatItWaitsFor() throws {
        var state = try onPaywall()
        #expect(reduce(&state, .reader(.select)) == [.purchase(offerId: "premium-monthly", parentalGatePassed: false)])
        #expect(state.screen.waiting == "Waiting for the App Store")
        _ = reduce(&state, .purchaseStage(.checkingWithServer))
        #expect(state.screen.waiting == "Checking your purchase with the server")
    }

    /// The paywall's and the feed's choices made without their rows (the highlight kept after each event reads them) are
    /// the rows' own: loading, with offers, none sold, waiting, under an alert, signed in; none are made under Apple's
    /// sheet, where the screen is built.
    @Test func theFeedsAndThePaywallsChoicesWithoutRowsAreTheRowsOwn() throws {
        var state = try onPaywall()
        var seen: [[Choice]] = []
        func same() {
            #expect(state.choicesWithoutRows == state.screen.choices)
            seen.append(state.screen.choices)
        }
        same()
        _ = reduce(&state, .catalogLoaded([]))
        same()
        _ = reduce(&state, .catalogLoaded([offer]))
        same()
        _ = reduce(&state, .reader(.select))
        same()
        _ = reduce(&state, .paymentSheet(PaymentSheetInfo(appleId: "a", productTitle: "P", price: "$1", terms: "")))
        #expect(state.screen.id == .appStoreSheet)
        #expect(state.choicesWithoutRows == nil)
        _ = reduce(&state, .paymentSheet(nil))
        _ = reduce(&state, .purchaseFinished(.refused(.purchaseInProgress)))
        #expect(state.alert != nil)
        same()
        _ = reduce(
            &state, .accessChanged(AccessSnapshot(identity: .account(email: "a@b.test"), levels: [], isKnown: true)))
        same()
        #expect(Set(seen.map(\.count)).count > 1)
        // The feed's, with the ads shown to a reader and hidden from a subscriber.
        var feed = try launchedState()
        #expect(feed.choicesWithoutRows == feed.screen.choices)
        _ = reduce(
            &feed,
            .accessChanged(
                AccessSnapshot(identity: .anonymous(id: "x"), levels: [AccessLevel("premium")], isKnown: true)))
        #expect(feed.route == .feed)
        #expect(feed.choicesWithoutRows == feed.screen.choices)
    }

    @Test func cancellingOnApplesSheetReturnsToThePaywallWithNoError() throws {
        var state = try onPaywall()
        _ = reduce(&state, .reader(.select))
        let sheet = PaymentSheetInfo(
            appleId: "a@icloud.test", productTitle: "Premium Monthly", price: "$4.99", terms: "")
        _ = reduce(&state, .paymentSheet(sheet))
        #expect(state.screen.id == .appStoreSheet)
        #expect(reduce(&state, .reader(.back)) == [.answerPaymentSheet(confirm: false)])
        _ = reduce(&state, .paymentSheet(nil))
        _ = reduce(&state, .purchaseFinished(.cancelled))
        #expect(state.screen.visibleID == .paywall)
        #expect(state.alert == nil)
        #expect(state.screen.waiting == nil)
    }

    /// Session 26: a second Enter on an offer, pressed as Apple's sheet came up, confirmed it and charged the reader.
    /// Apple's sheets open on the choice that moves no money; Subscribe (or Agree) is a deliberate move away.
    @Test func applesSheetsOpenOnTheChoiceThatMovesNoMoney() throws {
        var state = try onPaywall()
        _ = reduce(&state, .reader(.select))
        let sheet = PaymentSheetInfo(
            appleId: "a@icloud.test", productTitle: "Premium Monthly", price: "$4.99", terms: "")
        _ = reduce(&state, .paymentSheet(sheet))
        #expect(reduce(&state, .reader(.select)) == [.answerPaymentSheet(confirm: false)])
        _ = reduce(&state, .reader(.up))
        #expect(reduce(&state, .reader(.select)) == [.answerPaymentSheet(confirm: true)])
        // Another sheet in its place (the price-consent sheet) is new to the reader: on Not now again.
        let consent = PaymentSheetInfo(
            appleId: "a@icloud.test", productTitle: "Premium Monthly", price: "$4.99 → $5.99 per month", terms: "",
            isPriceConsent: true)
        _ = reduce(&state, .paymentSheet(consent))
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Not now")
    }

    /// The manage sheet opens on Done, loading or loaded, and after a change it made: "Enter Enter" on "Manage my
    /// subscription" turned auto-renew off (session 26). The same sheet shown again keeps the reader's highlight.
    @Test func applesManageSheetOpensOnDone() throws {
        var state = try annOnHerProfile()
        _ = try choose(.manageSubscription, &state)
        let monthly = ManagedSubscription(
            productId: "com.dailynews.premium.monthly", title: "Premium Monthly", expires: 1_775_120_400_000,
            willAutoRenew: true)
        _ = reduce(&state, .manageSheetShown([monthly]))
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Done")
        _ = reduce(&state, .reader(.up))
        _ = reduce(&state, .reader(.up))
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Cancel subscription")
        _ = reduce(&state, .manageSheetShown([monthly]))
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Cancel subscription")
        _ = reduce(&state, .reader(.select))
        let cancelled = ManagedSubscription(
            productId: "com.dailynews.premium.monthly", title: "Premium Monthly", expires: 1_775_120_400_000,
            willAutoRenew: false)
        _ = reduce(&state, .manageSheetShown([cancelled]))
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Done")
    }

    @Test func thePaywallClosesOnlyWhenThePurchaseIsDoneAndTheArticleThenLoads() throws {
        var state = try onPaywall()
        _ = reduce(&state, .reader(.select))
        let levels = AccessSnapshot(
            identity: .anonymous(id: "anon-000001"), levels: [AccessLevel("premium")], isKnown: true)
        #expect(reduce(&state, .accessChanged(levels)) == [])
        #expect(state.route == .paywall(fromContent: "night-trains"))
        let effects = reduce(&state, .purchaseFinished(.purchased))
        #expect(state.route == .content(id: "night-trains"))
        #expect(effects == [.loadFullContent(id: "night-trains", requiredLevels: ["premium"])])
        #expect(state.screen.waiting == "Loading the full article")
        _ = reduce(&state, .fullContentLoaded(id: "night-trains", body: "The whole story."))
        #expect(state.screen.rows.contains { $0.text == "The whole story." })
    }

    /// Types `text` at the end of the form's `field`, the highlight moved onto it.
    private func fill(_ field: TextField, adding text: String, _ state: inout AppState) throws {
        state.selection = try #require(state.screen.choices.firstIndex(of: .edit(field)))
        for character in text { _ = reduce(&state, .reader(.character(character))) }
    }

    /// A double Enter on "Create account" sends the sign-up once: its button is busy while the answer is on its way
    /// (the second's "email taken" won over the first's account, session 38). Other words typed are another request.
    @Test func createAccountPressedAgainWaitsForTheSignUpOnItsWay() throws {
        var state = try launchedState()
        _ = try choose(.openProfile, &state)
        _ = try choose(.openSignup, &state)
        try fill(.email, adding: "quinn@example.com", &state)
        try fill(.password, adding: "correct-horse-9", &state)
        // Enter in the last field is the button's press.
        let sent = (
            effect: AppEffect.signUp(email: "quinn@example.com", password: "correct-horse-9"),
            action: ReaderAction.signUp(email: "quinn@example.com", password: "correct-horse-9")
        )
        #expect(reduce(&state, .reader(.select)) == [sent.effect])
        #expect(state.screen.rows.contains { $0.text == "Creating account…" })
        #expect(reduce(&state, .reader(.select)) == [])
        #expect(try choose(sent.action, &state) == [])
        // Typed again as it was: the same request, still waited for.
        try fill(.password, adding: "0", &state)
        _ = reduce(&state, .reader(.deleteBackward))
        #expect(try choose(sent.action, &state) == [])
        // Another password is another sign-up, which the reader may send.
        try fill(.password, adding: "0", &state)
        #expect(state.screen.rows.contains { $0.text == "Create account" })
        #expect(try choose(sent.action, &state) == [.signUp(email: "quinn@example.com", password: "correct-horse-90")])
        // Its answer frees the button.
        _ = reduce(&state, .accountFinished(.failed(message: "An account with this email already exists.")))
        _ = reduce(&state, .reader(.select))
        #expect(state.screen.rows.contains { $0.text == "Create account" })
    }

    @Test func aSecondPurchaseWhileOneRunsIsRefusedAndTheFirstGoesOn() throws {
        var state = try onPaywall()
        _ = reduce(&state, .reader(.select))
        #expect(reduce(&state, .reader(.select)) == [.purchase(offerId: "premium-monthly", parentalGatePassed: false)])
        _ = reduce(&state, .purchaseFinished(.refused(.purchaseInProgress)))
        #expect(state.alert?.title == "Purchase in progress")
        #expect(state.purchase?.offerId == "premium-monthly")
        _ = reduce(&state, .reader(.select))
        #expect(state.alert == nil)
    }

    @Test func losingALevelDropsTheFullVersionAndLocksTheArticleAgain() throws {
        var state = try onPaywall()
        let subscriber = AccessSnapshot(identity: .anonymous(id: "x"), levels: [AccessLevel("premium")], isKnown: true)
        _ = reduce(&state, .accessChanged(subscriber))
        // The subscription page is for readers who have not subscribed: it closes on the article.
        #expect(state.route == .content(id: "night-trains"))
        _ = reduce(&state, .fullContentLoaded(id: "night-trains", body: "Full"))
        _ = reduce(&state, .accessChanged(AccessSnapshot(identity: .anonymous(id: "x"), levels: [], isKnown: true)))
        #expect(state.fullContent["night-trains"] == nil)
        #expect(state.screen.rows.contains { $0.kind == .button && $0.text == "Subscribe" })
    }

    @Test func adsShowForReadersAndHideForSubscribersWhenTheOwnerSaysSo() throws {
        var state = try launchedState()
        #expect(state.screen.rows.contains { $0.kind == .ad })
        _ = reduce(
            &state,
            .accessChanged(
                AccessSnapshot(identity: .anonymous(id: "x"), levels: [AccessLevel("premium")], isKnown: true)))
        #expect(!state.screen.rows.contains { $0.kind == .ad })
    }

    @Test func theSelectionStaysOnChoosableRows() throws {
        var state = try launchedState()
        for _ in 0..<10 { _ = reduce(&state, .reader(.down)) }
        let screen = state.screen
        #expect(screen.selection.map { screen.rows[$0].text } == "Profile")
        for _ in 0..<10 { _ = reduce(&state, .reader(.up)) }
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "City approves the new harbour bridge")
    }

    /// A screen that loses choices under the highlight (the guest's profile, then the account's after signing
    /// up) highlights one still there, and Enter chooses the row highlighted: before, nothing was highlighted
    /// and Enter did nothing.
    @Test func enterChoosesTheHighlightedRowAfterTheScreenLostChoices() throws {
        var state = try launchedState()
        for _ in 0..<10 { _ = reduce(&state, .reader(.down)) }
        #expect(reduce(&state, .reader(.select)) == [.reloadAccess])
        #expect(state.route == .profile)
        for _ in 0..<2 { _ = reduce(&state, .reader(.down)) }
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Create an account")
        _ = reduce(&state, .reader(.select))
        #expect(state.route == .signup(.plain))
        let signedIn = AccessSnapshot(identity: .account(email: "ana@example.test"), levels: [], isKnown: true)
        _ = reduce(&state, .accessChanged(signedIn))
        _ = reduce(&state, .accountFinished(.signedIn(offerTransfer: false)))
        #expect(state.route == .profile)
        let screen = state.screen
        #expect(screen.selection.map { screen.rows[$0].text } == "Restore purchase")
        #expect(ReaderAction.of(.select, in: state) == .restore)
        #expect(reduce(&state, .reader(.select)) == [.restore(confirmMoveFromAccount: false)])
        _ = reduce(&state, .reader(.down))
        #expect(state.screen.selection.map { state.screen.rows[$0].text } == "Log out")
    }

    /// Moves the highlight to the row that does `action` and presses Enter.
    private func choose(_ action: ReaderAction, _ state: inout AppState) throws -> [AppEffect] {
        let row = try #require(state.row(doing: action), "no row does \(action) on \(state.route)")
        while let selection = state.screen.selection, selection != row {
            _ = reduce(&state, .reader(selection < row ? .down : .up))
        }
        return reduce(&state, .reader(.select))
    }

    /// Ann, signed in with premium, on her profile.
    private func annOnHerProfile() throws -> AppState {
        var state = try launchedState()
        let ann = AccessSnapshot(
            identity: .account(email: "ann@example.test"), levels: [AccessLevel("premium")], isKnown: true)
        _ = reduce(&state, .accessChanged(ann))
        _ = try choose(.openProfile, &state)
        return state
    }

    /// A list of subscriptions is the backend's answer about one identity: after a log-out, or a sign-in as another
    /// reader, the profile shows none of it, and a list asked as someone else is not shown when it lands.
    @Test func theProfileShowsAPlanOnlyToTheReaderItWasListedFor() throws {
        var state = try annOnHerProfile()
        let ann = state.access
        let monthly = SubscriptionSummary(
            originalTransactionId: "2000000000000001", productId: "com.dailynews.premium.monthly",
            expires: 1_775_120_400_000, active: true, autoRenew: true, billingIssue: false)
        _ = reduce(&state, .subscriptionsLoaded(SubscriptionList(identity: ann.identity, subscriptions: [monthly])))
        #expect(state.subscriptions == [monthly])
        // No products answer titled the plan in this state: it is "Subscription", never its identifier (session 38).
        #expect(state.screen.rows.contains { $0.text.hasPrefix("Subscription: renews on") })

        _ = reduce(&state, .accessChanged(AccessSnapshot(identity: .none, levels: [], isKnown: true)))
        #expect(state.subscriptions == [])
        #expect(!state.screen.rows.contains { $0.text.contains("renews on") })
        // Ann's list landing after she logged out is still hers.
        _ = reduce(&state, .subscriptionsLoaded(SubscriptionList(identity: ann.identity, subscriptions: [monthly])))
        #expect(state.subscriptions == [])

        _ = reduce(&state, .accessChanged(ann))
        #expect(state.subscriptions == [monthly])
    }

    /// A guest's monthly whose renewal Apple is retrying: what the phone's list holds in the two tests below.
    private static let monthlyInBillingRetry = SubscriptionSummary(
        originalTransactionId: "2000000000000001", productId: "com.dailynews.premium.monthly",
        expires: 1_775_120_400_000, active: false, autoRenew: true, billingIssue: true)

    /// The guest's list stays the phone's across a sign-in and comes back to the guest at a log-out: the profile on
    /// screen keeps the plan Apple still retries, and "Manage my subscription", until the server is asked again
    /// (session 36: it read "free articles only" with nothing to cancel until opened again).
    @Test func aSignInKeepsTheGuestsListAsThePhones() throws {
        var state = try launchedState()
        var guest = AccessSnapshot(identity: .anonymous(id: "g"), levels: [], isKnown: true)
        guest.phoneGuest = "g"
        _ = reduce(&state, .accessChanged(guest))
        _ = try choose(.openProfile, &state)
        let retried = Self.monthlyInBillingRetry
        _ = reduce(&state, .subscriptionsLoaded(SubscriptionList(identity: guest.identity, subscriptions: [retried])))
        #expect(state.profileSubscriptions == [retried])

        var ann = AccessSnapshot(identity: .account(email: "ann@example.test"), levels: [], isKnown: true)
        ann.phoneGuest = "g"
        _ = reduce(&state, .accessChanged(ann))
        #expect(state.profileSubscriptions == [retried], "signed in, the phone's own plan is still on the profile")
        #expect(state.screen.rows.contains { $0.text == "Manage my subscription" })

        _ = reduce(&state, .accessChanged(guest))
        #expect(state.profileSubscriptions == [retried], "logged out, the guest's plan is the profile's again")
    }

    /// The phone's list is only the guest's the phone holds now: a guest moved to an account is forgotten, and its
    /// plan is on no later reader's profile, whoever signs in (long 2413: ben's profile said ana's renewal failed).
    @Test func aMovedGuestsListIsNobodysAfterTheMove() throws {
        var state = try launchedState()
        var ann = AccessSnapshot(identity: .account(email: "ann@example.test"), levels: [], isKnown: true)
        ann.phoneGuest = "g"
        _ = reduce(&state, .accessChanged(ann))
        _ = try choose(.openProfile, &state)
        let retried = Self.monthlyInBillingRetry
        _ = reduce(
            &state, .subscriptionsLoaded(SubscriptionList(identity: .anonymous(id: "g"), subscriptions: [retried])))
        #expect(state.profileSubscriptions == [retried])

        ann.phoneGuest = nil
        _ = reduce(&state, .accessChanged(ann))
        #expect(state.phoneSubscriptionList == nil, "moved, the guest is forgotten and so is its list")
        let ben = AccessSnapshot(identity: .account(email: "ben@example.test"), levels: [], isKnown: true)
        _ = reduce(&state, .accessChanged(AccessSnapshot(identity: .none, levels: [], isKnown: true)))
        _ = reduce(&state, .accessChanged(ben))
        #expect(state.profileSubscriptions == [])
        #expect(!state.screen.rows.contains { $0.text.contains("renewal failed") })

        // A late answer about a guest the phone no longer holds is not shown either.
        _ = reduce(
            &state, .subscriptionsLoaded(SubscriptionList(identity: .anonymous(id: "g"), subscriptions: [retried])))
        #expect(state.profileSubscriptions == [])
    }

    /// Where a grown-up must answer first, the manage sheet opens behind the gate (a switch there can charge): the
    /// gate replaces the sheet, stays up for the subscriber it is for, and a right answer opens the sheet.
    @Test func theManageSheetOfAChildOpensBehindTheParentalGate() throws {
        var state = try annOnHerProfile()
        _ = try choose(.manageSubscription, &state)
        #expect(reduce(&state, .manageSheetNeedsParentalGate) == [])
        #expect(state.route == .parentalGate)
        #expect(state.gate?.purpose == .manageSubscription)
        let question = try #require(state.gate?.question)
        #expect(state.screen.rows.map(\.text).contains("Changing a subscription needs a grown-up. \(question)"))
        _ = reduce(&state, .accessChanged(state.access))
        #expect(state.route == .parentalGate, "the gate before the sheet is a subscriber's: it stays")

        let right = try #require(ParentalGate.answer(to: question))
        for digit in right { _ = reduce(&state, .reader(.character(digit))) }
        #expect(try choose(.answerGate(right), &state) == [.showManageSubscriptions(parentalGatePassed: true)])
        #expect(state.route == .manageSubscription)
        #expect(state.gate == nil)
        _ = reduce(&state, .reader(.back))
        #expect(state.route == .profile, "the gate left the stack when the sheet opened")
    }

    /// "Manage my subscription" hands over to Apple's sheet, which lists what the App Store answers for the phone's
    /// Apple ID, and shows its own answer again after a press: nothing the backend said is on it.
    @Test func applesManageSheetListsWhatTheAppStoreAnswers() throws {
        var state = try annOnHerProfile()
        #expect(try choose(.manageSubscription, &state) == [.showManageSubscriptions(parentalGatePassed: false)])
        #expect(state.route == .manageSubscription)
        #expect(state.screen.rows.map(\.text).contains("Loading…"))
        #expect(state.row(doing: .setAutoRenew(false)) == nil)

        // Another Apple ID paid for the account's subscription: this one's sheet has nothing to cancel.
        #expect(reduce(&state, .manageSheetShown([])) == [])
        #expect(state.manageSheet == [])
        #expect(state.screen.rows.map(\.text).contains("This Apple ID pays for no subscription to Daily News."))
        #expect(state.row(doing: .setAutoRenew(false)) == nil)

        let monthly = ManagedSubscription(
            productId: "com.dailynews.premium.monthly", title: "Premium Monthly", expires: 1_775_120_400_000,
            willAutoRenew: true)
        _ = reduce(&state, .manageSheetShown([monthly]))
        #expect(
            state.screen.rows.map(\.text).prefix(3) == [
                "Manage my subscription", "Plan: Premium Monthly",
                "Next renewal: 2026-04-02",
            ])
        // The press goes to Apple; the sheet changes when Apple answers with it, not before. The profile under it asks
        // the server to read Apple's records, so it says the change without waiting for Apple's notification.
        let before = state
        #expect(
            try choose(.setAutoRenew(false), &state) == [
                .setAutoRenew(false, productId: "com.dailynews.premium.monthly"), .reloadAccessAskingApple,
            ])
        #expect(state.manageSheet == before.manageSheet)

        // A raised price waiting for consent renews only if agreed to: the sheet says so rather than "Next renewal".
        let waiting = ManagedSubscription(
            productId: "com.dailynews.premium.monthly", title: "Premium Monthly", expires: 1_775_120_400_000,
            willAutoRenew: true, waitsForPriceConsent: true)
        _ = reduce(&state, .manageSheetShown([waiting]))
        #expect(state.screen.rows.map(\.text).contains("Ends on 2026-04-02 unless you agree to the new price"))

        // Past its grace, Apple retries the payment: the sheet says so and offers the cancel, not a switch.
        var retrying = ManagedSubscription(
            productId: "com.dailynews.premium.monthly", title: "Premium Monthly", expires: 1_775_120_400_000,
            willAutoRenew: true)
        retrying.inBillingRetry = true
        _ = reduce(&state, .manageSheetShown([retrying]))
        let rows = state.screen.rows.map(\.text)
        #expect(rows.contains("Renewal failed on 2026-04-02: no access while Apple retries the payment"))
        #expect(rows.contains("[ Cancel subscription ]") || rows.contains("Cancel subscription"))
        #expect(!rows.contains { $0.contains("Switch to") })
    }

    /// Two messages at once (a session ended, then the purchase it stopped): each is read, in turn, not the later
    /// one over the earlier.
    @Test func anAlertToldWhileAnotherIsUpComesNext() throws {
        var state = try annOnHerProfile()
        _ = reduce(&state, .accountFinished(.sessionEnded(email: "ann@example.test")))
        _ = reduce(&state, .restoreFinished(.nothingToRestore))
        #expect(state.alert?.title == "Signed out")
        _ = reduce(&state, .reader(.select))
        #expect(state.alert?.message == "There is no purchase to restore on this Apple ID.")
        _ = reduce(&state, .reader(.back))
        #expect(state.alert == nil)
        #expect(state.alertsWaiting.isEmpty)
    }

    /// The phone's own subscription gaining levels after the sign-in (a parent's approval landing late) is asked about
    /// as the sign-in would have asked, once.
    @Test func levelsThePhoneGainsAfterASignInAreOfferedToTheAccountOnce() throws {
        var state = try annOnHerProfile()
        var gained = state.access
        gained.levels.insert(AccessLevel("archive"))
        gained.unmovedLevels = [AccessLevel("archive")]
        #expect(reduce(&state, .accessChanged(gained)) == [.reloadAccess])
        #expect(state.route == .transferPrompt(.anonymousToAccount))
        _ = try choose(.declineTransfer, &state)
        #expect(state.route == .profile)
        #expect(reduce(&state, .accessChanged(gained)) == [])
        #expect(state.route == .profile)
    }

    /// Back from Apple's sheet, or from Done on it, the profile asks its server to read Apple's records again: what
    /// the reader changed or saw at Apple reaches it (session 27). New levels under the profile ask again, and the
    /// same levels again ask nothing.
    @Test func theProfileAsksAgainAfterApplesSheetAndWhenTheLevelsChange() throws {
        var state = try annOnHerProfile()
        _ = try choose(.manageSubscription, &state)
        #expect(reduce(&state, .reader(.back)) == [.reloadAccessAskingApple])
        #expect(state.route == .profile)
        _ = try choose(.manageSubscription, &state)
        _ = reduce(&state, .manageSheetShown([]))
        let done = try #require(state.screen.rows.firstIndex { $0.text == "Done" })
        while state.screen.selection != done { _ = reduce(&state, .reader(.down)) }
        #expect(reduce(&state, .reader(.select)) == [.reloadAccessAskingApple])
        #expect(state.route == .profile)

        let more = AccessSnapshot(
            identity: state.access.identity, levels: [AccessLevel("premium"), AccessLevel("archive")], isKnown: true)
        #expect(reduce(&state, .accessChanged(more)) == [.reloadAccess])
        #expect(reduce(&state, .accessChanged(more)) == [])
    }
}

@Suite struct AccessLoadingTests {
    @Test func noPaywallIsOfferedWhileTheReadersAccessIsStillLoading() throws {
        var state = AppState(app: try TestSupport.demoConfig().app)
        _ = reduce(&state, .launched)
        _ = reduce(&state, .reader(.down))
        _ = reduce(&state, .reader(.select))
        #expect(reduce(&state, .reader(.select)) == [])
        #expect(state.route == .content(id: "night-trains"))
        #expect(state.screen.waiting == "Checking your subscription")
        // The stored identity turns out to hold the level: no paywall, the article opens.
        let subscriber = AccessSnapshot(identity: .anonymous(id: "x"), levels: [AccessLevel("premium")], isKnown: true)
        #expect(
            reduce(&state, .accessChanged(subscriber)) == [
                .loadFullContent(id: "night-trains", requiredLevels: ["premium"])
            ])
        #expect(state.route == .content(id: "night-trains"))
    }

    /// Launched with the reader's access still loading, then Subscribe tapped on the first locked article: the tap is
    /// kept until the access arrives.
    private func subscribeTappedWhileAccessLoads() throws -> AppState {
        var state = AppState(app: try TestSupport.demoConfig().app)
        _ = reduce(&state, .launched)
        _ = reduce(&state, .reader(.down))
        _ = reduce(&state, .reader(.select))
        _ = reduce(&state, .reader(.select))
        return state
    }

    @Test func aReaderWithoutLevelsGetsThePaywallOnceAccessIsKnown() throws {
        var state = try subscribeTappedWhileAccessLoads()
        _ = reduce(&state, .accessChanged(AccessSnapshot(identity: .none, levels: [], isKnown: true)))
        #expect(state.route == .paywall(fromContent: "night-trains"))
    }

    /// Back off the article drops the tap kept on it: the access arriving pushes no paywall over the feed (h1).
    @Test func backDropsASubscribeTapStillWaiting() throws {
        var state = try subscribeTappedWhileAccessLoads()
        #expect(state.pendingSubscribe != nil)
        _ = reduce(&state, .reader(.back))
        #expect(state.pendingSubscribe == nil)
        _ = reduce(&state, .accessChanged(AccessSnapshot(identity: .none, levels: [], isKnown: true)))
        #expect(state.route == .feed)
    }
}
