import AppFlow
import SimKernel
import StoreSim
import Subscriptions
import WhiteLabel

/// One phone: its storage, its view of the App Store, the subscription coordinator, and the app
/// on screen. Events go through `reduce`; effects come back here to be run.
final class Device {
    let name: String
    let queue: PaymentQueue
    let storage: PhoneStorage
    let coordinator: SubscriptionCoordinator
    let network: SimulatedNetwork
    private(set) var state: AppState {
        didSet {
            builtScreen = nil
            builtChoices = nil
        }
    }
    /// The screen built from `state`, kept until the state changes: a scenario step or a key press
    /// reads it many times (to find a row, to move the highlight), and building the paywall is not free.
    private var builtScreen: ScreenModel?
    /// The screen's choices, kept across an input that only moves the highlight or edits a field's text
    /// (`ReaderInput.keepsChoices`): typing an address would otherwise build the screen once a character.
    private var builtChoices: [Choice]?

    /// A rule of the app broken on purpose (the fuzzer's proof): the coordinator's, the owner's account
    /// requirement read as optional, or the owner's ads kept for subscribers read as hidden.
    var defect: CoordinatorDefect? {
        didSet {
            coordinator.defect = defect
            state.app.account.mode = defect == .skipAccountRequired ? .optional : ownersAccountMode
            state.app.ads.hideForSubscribers = defect == .adsHiddenFromEverySubscriber || ownersAdsHiddenForSubscribers
            state.namesPlansByIdentifier = defect == .titleByIdentifier
            state.readsOnlySwitchesForSale = defect == .unsoldPlanSaidToRenew
            state.trialToldAsRenewal = defect == .profileTrialToldAsRenewal
            state.keepsGoneGuestsList = defect == .profileKeepsMovedGuestPlans
            keptFeed = nil
        }
    }
    private let ownersAccountMode: AccountPolicy.Mode
    private let ownersAdsHiddenForSubscribers: Bool

    var screen: ScreenModel {
        if let builtScreen { return builtScreen }
        let screen = state.screen
        assert(screen.id == state.screenID, "\(screen.id) built for a state whose screenID is \(state.screenID)")
        builtScreen = screen
        return screen
    }

    /// The feed's rows for the reader's access, whatever is on screen: invariant 7 reads its ads after every step
    /// (session 28: building it was more than a hundredth of a fuzz step). The feed reads only the owner's config,
    /// fixed for the phone's life, and the access, so it is kept by access.
    var feedRows: [Row] {
        if let keptFeed, keptFeed.access == state.access { return keptFeed.rows }
        var feed = state
        feed.stack = [.feed]
        feed.selections = [0]
        feed.paymentSheet = nil
        feed.alert = nil
        let rows = feed.screen.rows
        keptFeed = (state.access, rows)
        return rows
    }
    private var keptFeed: (access: AccessSnapshot, rows: [Row])?

    /// The feed's and the paywall's are made without their rows when no screen is built for this state
    /// (`choicesWithoutRows`): the highlight is kept after every event, and most events change the state again before
    /// anything reads a screen built for it (the keeper's builds were 1.5 % of a fuzz run, most of them these two).
    private var choices: [Choice] {
        if let builtChoices { return builtChoices }
        let choices: [Choice]
        if builtScreen == nil, let quick = state.choicesWithoutRows {
            assert(quick == state.screen.choices, "\(state.screenID)'s choices differ from its rows'")
            choices = quick
        } else {
            choices = screen.choices
        }
        builtChoices = choices
        return choices
    }
    private let timeline: Timeline
    private let backend: BackendClient
    /// This process's requests, watched from outside the app: what a quit loses, what the server accepted.
    let transport: PhoneTransport
    private let store: SimulatedStoreAdapter
    /// Told what each reader input means before the app handles it, for recordings.
    var onAction: ((ReaderAction) -> Void)?
    /// Told each backend answer the app accepted, for the invariant checks.
    var onAnswer: ((HTTPResponse) -> Void)? {
        didSet {
            backend.onAnswer = { [weak self] answer in
                guard let self else { return }
                if transport.handingInspectAnswer { inspectAnswersTaken += 1 }
                transport.answerTaken()
                onAnswer?(answer)
            }
        }
    }
    /// How many of the server's answers to what a restore here would do this process took: an act heard one only if
    /// the count grew after it began (an answer at the very instant a purchase began may be the act before's).
    private var inspectAnswersTaken = 0
    /// Told when the app gives up on a request after its timeout, with the request's path.
    var onGiveUp: ((String) -> Void)? {
        didSet { backend.onGiveUp = onGiveUp }
    }
    /// False once the app was quit: answers still on their way are dropped, as a dead process would.
    private(set) var isRunning = true
    /// Which launch of the app this is in the world (a restart is a new one), for `ReaderOutcome`.
    var launchNumber = 0
    /// The alerts telling a charge (`Alert.charge == .made`) the app last told (shown, or queued behind one up), when
    /// and in which launch: a message the reader saw even if a later step dismissed it before the world settled
    /// (invariant 11). The last few only: a step tells one or two.
    private(set) var chargesTold = ChargeAlertsTold()
    /// The alerts telling a charge that a launch told again (`ChargeAlertsUnseen`), in the words it told them, which
    /// launch, and who the phone showed then: invariant 9 judges those words against Apple's records (`ToldAgainCheck`).
    private(set) var toldAgain: (launch: Int, at: SimInstant, identity: AccessSnapshot.Identity, alerts: [Alert])?
    /// When the alert on screen reached it: handed to `onAlertSeen` as the reader dismisses it.
    private var alertUpAt: SimInstant?
    /// The reader dismissed this alert, which reached the screen at this instant: they saw it, whatever the app does
    /// after (a kill before the world settled, fuzz seed 1616), which `chargesTold`, of one launch, cannot say.
    var onAlertSeen: ((Alert, SimInstant) -> Void)?
    private let kids: Bool
    /// Whether Apple's manage sheet on screen was opened through the parental gate.
    private var sheetGatePassed = false
    /// The reader's age on this phone (Screen Time's), nil for an adult: under 18, purchases need the
    /// parental gate as in a kids app (seed 000: "in apps for children, or when the reader is under age").
    var readerAge: Int? {
        didSet { coordinator.requiresParentalGate = kids || readerAge.map { $0 < Self.adultAge } == true }
    }
    static let adultAge = 18
    /// Told every purchase, restore and account outcome before the app handles it, for the invariants.
    var onOutcome: ((ReaderOutcome) -> Void)?
    /// The levels of the backend's newest word this phone heard about an identity (`BackendWords`), for
    /// `TransferOffer`; nil when no world listens.
    var heardLevels: ((String) -> Set<String>)?
    /// The backend's ledger's latest write (`BackendLedger.auditMark`), noted as an act begins: the ledger keeps
    /// milliseconds, and a step settled at the instant the reader taps wrote before the tap (long fuzz seed 1838).
    var ledgerMark: (() -> Int64?)?
    private let clock: () -> SimInstant
    /// When the running purchase, and the running restore or account step, began, with the levels then.
    /// `mark`: the backend's ledger as it stood then (`ledgerMark`), to order what it wrote at that very instant.
    private typealias Beginning = (
        at: SimInstant, levels: Set<String>, identity: AccessSnapshot.Identity, mark: Int64?
    )
    private var purchaseBegan:
        (
            at: SimInstant, levels: Set<String>, identity: AccessSnapshot.Identity, productId: String?, inspected: Int,
            mark: Int64?
        )?
    /// A restore and an account step can run at once (one asked without waiting for the other): each keeps its own.
    private var restoreBegan: Beginning?
    private var accountBegan: Beginning?
    /// The phone's guest a move to the account (a transfer) was to move from, when the account act under way is one.
    private var transferFrom: String?
    /// The sign-in the account act under way sends (a log-in or a sign-up; nil for another act), whose failure
    /// `ToldCheck+SignIn` judges, and when it began on the transport's `signInTicks`.
    private var signingIn: SignInRequest?
    private var signInBegan = 0
    /// When Apple took the payment whose check the running purchase waits for (`checkingEarlierPayment`): the
    /// purchase's act began then if that check's end is what it tells; nil again once it goes to Apple itself.
    private var joinedChargeAt: SimInstant?
    /// When each piece of content's full text was last asked for, so a fault since then excuses a failure.
    private(set) var contentRequested: [String: SimInstant] = [:]

    init(
        name: String, app: AppPart, queue: PaymentQueue, storage: PhoneStorage,
        network: SimulatedNetwork, scheduler: Scheduler, timeline: Timeline, gateDraws: SeededGenerator,
        lastGateQuestion: String? = nil
    ) {
        self.name = name
        kids = app.kids
        self.queue = queue
        self.storage = storage
        self.timeline = timeline
        self.network = network
        let transport = PhoneTransport(network)
        self.transport = transport
        clock = { scheduler.now }
        state = AppState(app: app)
        state.gateDraws = gateDraws
        state.lastGateQuestion = lastGateQuestion
        ownersAccountMode = app.account.mode
        ownersAdsHiddenForSubscribers = app.ads.hideForSubscribers
        let backend = BackendClient(
            transport: transport, deviceId: queue.deviceId,
            timer: { delay, action in
                let event = scheduler.schedule(after: delay, action)
                return { scheduler.cancel(event) }
            })
        self.backend = backend
        let store = SimulatedStoreAdapter(queue: queue)
        self.store = store
        coordinator = SubscriptionCoordinator(
            store: store, backend: backend, storage: storage,
            configured: app.subscriptions.map { ConfiguredOffer(id: $0.id, productId: $0.productId) },
            log: { timeline.log(.app, $0) })
        coordinator.requiresParentalGate = app.kids
        coordinator.clock = { [scheduler] in scheduler.now }
        // A background event: a month away, it runs when the clock passes it and keeps nothing busy; a quit app's
        // timer does nothing.
        coordinator.timer = { [weak self, scheduler] instant, action in
            let event = scheduler.schedule(after: instant - scheduler.now, background: true) {
                if self?.isRunning == true { action() }
            }
            return { scheduler.cancel(event) }
        }
        coordinator.contentLevels = Set(app.content.flatMap(\.requiredLevels).map(AccessLevel.init))
        coordinator.onAccessChange { [weak self] access in self?.dispatch(.accessChanged(access)) }
        coordinator.onCatalogChange = { [weak self] catalog in
            self?.dispatch(.catalogLoaded(catalog.offers, notSold: catalog.notSold))
        }
        coordinator.onSubscriptionsListed = { [weak self] list in self?.dispatchList(list) }
        coordinator.onSessionEnded = { [weak self] outcome in self?.dispatch(.accountFinished(outcome)) }
        coordinator.onParentAnswered = { [weak self] in self?.dispatch(.parentAnswered) }
        coordinator.onNoRequestWaits = { [weak self] in self?.dispatch(.noRequestWaits) }
        coordinator.onPurchaseCarriedOn = { [weak self] outcome, transaction, fresh in
            self?.dispatch(
                .purchaseCarriedOn(
                    outcome, productId: transaction.productIdentifier, transactionId: transaction.transactionIdentifier,
                    freshCharge: fresh,
                    kind: Self.carriedOnKind(transaction)))
        }
        queue.onSheetChange = { [weak self] sheet in
            self?.dispatch(
                .paymentSheet(
                    sheet.map {
                        var info = PaymentSheetInfo(
                            appleId: $0.appleId, productTitle: $0.productTitle, price: $0.localizedPrice,
                            terms: $0.terms, isPriceConsent: $0.kind == .priceConsent)
                        info.confirmLabel = $0.confirmLabel
                        info.cancelLabel = $0.cancelLabel
                        info.appleIdLine = $0.appleIdLine
                        return info
                    }))
        }
    }

    /// The app starts: the coordinator reads the stored identity and starts the transaction observer.
    func launch() {
        // Read before anything the launch does keeps the alerts up, none yet.
        let unseen = storage.chargeAlertsUnseen
        timeline.log(.app, "launch on \(name)", event: activation)
        coordinator.start()
        dispatch(.launched)
        guard !unseen.isEmpty else { return }
        let titles = unseen.map { "\"\($0.title)\"" }.joined(separator: ", ")
        timeline.log(.app, "telling again what the last launch told of a charge and the reader never saw: \(titles)")
        // Refunded or ended since the quit, "Your subscription is active" would not be true: it is told as not active, and
        // as first told once Apple entitles it again. A store that cannot be read says so on the timeline, and the words
        // are told as they were.
        let told = unseen.map { alert in
            guard defect != .chargeToldAgainAsFirstTold else { return alert }
            switch alert.transactionId.flatMap({ queue.stillEntitles(transaction: $0) }) {
            case false?:
                timeline.log(.app, "the charge told in \"\(alert.title)\" is not active now: told so")
                return alert.endedSinceTold
            case true? where alert.firstTold != nil:
                // Told not active at an earlier launch, and Apple entitles it again (a billing issue recovered).
                timeline.log(.app, "the charge told in \"\(alert.title)\" is active again: told as first told")
                return alert.activeSinceTold
            default:
                return alert
            }
        }
        toldAgain = (launchNumber, clock(), identity, told)
        dispatch(.chargeAlertsKept(told))
    }

    /// The app becomes active (a launch, a return to the foreground), as the invariants read it: whether Apple's
    /// price-increase consent sheet is due (`PaymentQueue.priceConsentDue`), before the app does anything of its own.
    var activation: WorldEvent {
        .becameActive(deviceId: queue.deviceId, consentDue: queue.priceConsentDue)
    }

    /// The app quits: no more payment updates, and the App Store's and the backend's answers in flight never arrive.
    /// Returns whether a receipt this process sent was still on its way.
    @discardableResult
    func terminate() -> Bool {
        isRunning = false
        queue.stopObserving()
        store.stopAnswering()
        coordinator.quit()
        backend.cancelAll()
        return transport.receiptsOnTheirWay > 0
    }

    /// Events waiting for `reduce`: an effect's synchronous answer (a refusal, a cache hit, the access
    /// listener, log out) waits here until the event that caused it and all its effects are done.
    private var queued: [AppEvent] = []
    private var draining = false

    /// Queues an event; unless an event is being handled, handles every queued one in turn (as TCA and
    /// bubbletea do), so the order of events is the order they were sent, never the call stack's.
    func dispatch(_ event: AppEvent) {
        guard isRunning else { return }
        queued.append(event)
        guard !draining else { return }
        draining = true
        defer { draining = false }
        // Read in place and emptied once drained, its buffer kept: taking each from the front moved the rest, and
        // emptying freed the buffer, allocated again by the next key press.
        var next = 0
        while isRunning, next < queued.count {
            let gate = gateOnScreen
            let event = queued[next]
            next += 1
            handle(event)
            noteIdentity()
            keepCursor()
            if let shown = gateOnScreen, shown != gate {
                timeline.record(.parentalGateShown(deviceId: queue.deviceId, question: shown))
            }
        }
        queued.removeAll(keepingCapacity: true)
        // A quit app keeps what it last kept: the alerts it had up are the ones the reader never saw.
        if isRunning { storage.chargeAlertsUnseen = state.chargeAlertsUp }
    }

    /// What Apple delivered, for the words the app tells it in: a trial's start and a first paid renewal are told as
    /// what they cost (session 44's walk).
    static func carriedOnKind(_ transaction: StoreTransaction) -> CarriedOnCharge.Kind {
        if transaction.isRenewal {
            if transaction.isFamilyShared { return .familyShareRenewal }
            return transaction.isPaidBefore ? .renewal : .firstPaidRenewal
        }
        return transaction.isTrialPeriod ? .trialStart : .purchase
    }

    /// The planted `charge-hidden-behind-another-alert`: the charges just told are dropped where another alert is up
    /// or waiting (`before`: the alerts up before the event).
    private func hideChargeBehindAnother(told before: [Alert]) {
        let isNewCharge = { (alert: Alert) in alert.charge?.tellsTransaction == true && !before.contains(alert) }
        let up = [state.alert].compactMap { $0 } + state.alertsWaiting
        guard up.contains(where: isNewCharge), up.contains(where: { !isNewCharge($0) }) else { return }
        state.alertsWaiting.removeAll(where: isNewCharge)
        if let shown = state.alert, isNewCharge(shown) {
            state.alert = state.alertsWaiting.isEmpty ? nil : state.alertsWaiting.removeFirst()
        }
    }

    /// The highlight on the choice it was on, where the event changed the choices under it (`CursorKeeper`).
    private func keepCursor() {
        guard isRunning else { return }
        guard let index = cursor.keep(stack: state.stack, selections: state.selections, choices: { choices }) else {
            return
        }
        let shown = choices
        state.selection = index
        builtChoices = shown
    }
    private var cursor = CursorKeeper()

    /// The gate's verdict on an answer, as an `app` line: the timeline said the reader pressed Continue and then
    /// nothing of whether the gate let them through (session 32, h13 04).
    private func logGateAnswer(_ asked: ParentalGate, _ effects: [AppEffect]) {
        let passed = effects.contains {
            switch $0 {
            case .purchase(_, parentalGatePassed: true), .showManageSubscriptions(parentalGatePassed: true): true
            default: false
            }
        }
        if passed {
            timeline.log(.app, "parental gate answered right (\"\(asked.question)\"): the grown-up goes on")
        } else if let gate = state.gate, gate.question != asked.question {
            timeline.log(.app, "parental gate answered wrong (\"\(asked.question)\"): another question is asked")
        }
    }

    /// The question of the parental gate on screen, nil when none is: the gate check reads every gate shown as it
    /// comes up, for one a parent's approval closes within the step was the next gate all the same (fuzz --seed 4123).
    private var gateOnScreen: String? { state.route == .parentalGate ? state.gate?.question : nil }

    /// OK (or Esc) on the last alert up is a scenario's `back`, which dismisses the alerts up (`World.perform`): a
    /// recording that left it out replayed with the alert still over the screen. One with more alerts waiting is
    /// not a step: that one `back` dismisses them all.
    private static func dismissal(_ input: ReaderInput, _ state: AppState) -> ReaderAction? {
        guard state.alert != nil, input == .select || input == .back, state.alertsWaiting.isEmpty else { return nil }
        return .back
    }

    /// One event: logged, reported, reduced; then its effects run, and what they answer at once is queued.
    private func handle(_ event: AppEvent) {
        if state.clock != clock().milliseconds { state.clock = clock().milliseconds }
        if case .reader(let input) = event, !input.keepsChoices, let text = Self.describe(input, on: screen) {
            // Esc where it does nothing: "back on feed" said the screen closed while it stayed (session 43).
            let refused = input == .back && screen.alert == nil && ReaderAction.of(input, in: state) == nil
            timeline.log(.reader, refused ? "Esc on \(screen.visibleID.rawValue): \(backRefusal)" : text)
        }
        // A move or a keystroke names no action (`ReaderAction.of` is nil for them): the state, copied to be
        // handed over, is not (it was a copy per character typed).
        if case .reader(let input) = event, !input.keepsChoices, let onAction,
            let action = ReaderAction.of(input, in: state, choices: choices) ?? Self.dismissal(input, state)
        {
            onAction(action)
        }
        // The reader acts past the end the server gave the levels on screen: the app asks again (`LevelsEnd`).
        if case .reader(let input) = event, !input.keepsChoices { coordinator.askAgainIfLevelsEnded() }
        record(event)
        // The phone's language is a setting the app reads, as `Locale.current`.
        if state.locale != queue.locale { state.locale = queue.locale }
        // The kept choices (built again if the state changed): reduce need not build the screen again.
        guard case .reader(let input) = event else {
            let paywallReturn = PaywallReturn(event, stack: state.stack)
            let transferOffer = heardLevels.flatMap {
                TransferOffer(event, anonymous: storage.anonymousIdentity, heard: $0)
            }
            let landing = SubscribeLanding(pending: state.pendingSubscribe, event: event)
            let sheetFocus = SheetFocus(event, state)
            let alertsBefore = [state.alert].compactMap { $0 } + state.alertsWaiting
            let alertBefore = state.alert
            if defect == .gateAsksOneQuestion {
                // The app before session 27: every gate drew the same first question.
                state.gateDraws = SeededGenerator(seed: 0)
                state.lastGateQuestion = nil
            }
            let effects = reduce(&state, event)
            if defect == .chargeHiddenBehindAnotherAlert { hideChargeBehindAnother(told: alertsBefore) }
            chargesTold.note(
                ([state.alert].compactMap { $0 } + state.alertsWaiting).filter {
                    $0.charge?.tellsTransaction == true && !alertsBefore.contains($0)
                }, launch: launchNumber, at: clock())
            if state.alert != alertBefore { alertUpAt = state.alert == nil ? nil : clock() }
            if let sheetFocus {
                // The app before session 26: the sheet opened on its first choice, Subscribe, Agree or the manage
                // sheet's first button.
                if defect == .sheetOpensOnItsFirstChoice && sheetFocus.appeared(state) { state.selection = 0 }
                report(sheetFocus.broken(after: state)) { .sheetOpenedOnMoney(deviceId: $0, detail: $1) }
            }
            if let transferOffer {
                report(transferOffer.broken(after: state, effects: effects)) {
                    .transferNotOffered(deviceId: $0, detail: $1)
                }
            }
            if let paywallReturn {
                if defect == .closePaywallToFeed {
                    state.stack = [.feed]
                    state.selections = [state.selections[0]]
                }
                report(paywallReturn.broken(after: state)) { .paywallClosedElsewhere(deviceId: $0, detail: $1) }
            }
            if let landing { judge(landing) }
            if case .manageSheetShown = event {
                let sheet = queue.manageSheet()
                let untrue =
                    ManageSheetTruth.broken(shown: state.manageSheet, store: sheet)
                    ?? ManageSheetTruth.leftOut(sheet, holding: queue.subscriptionsHeld)
                    ?? ManageSheetTruth.saysOtherwise(state)
                report(untrue) { .manageSheetUntrue(deviceId: $0, detail: $1) }
            }
            for effect in effects { run(effect) }
            return
        }
        let choices = choices
        // Only Enter taps Subscribe (`ReaderAction.of` names nothing else `.subscribe`): the state, copied whole to
        // be handed over, is not copied for each move and keystroke.
        let landing = input == .select ? SubscribeLanding(input, state, choices: choices) : nil
        let asked = state.route == .parentalGate ? state.gate : nil
        let alertBefore = state.alert
        // A move of the highlight changes nothing the rows are built from: the screen kept is the moved one once
        // highlighted again (a reader's choice moves row by row, and each move built the screen again, the paywall's
        // offer lines and all).
        let shownBefore = input == .up || input == .down ? builtScreen : nil
        let effects = reduce(&state, event, choices: choices)
        // The app before session 38: the form's button never waited for what it sent.
        if defect == .formSendsTwice && state.form.sent != nil { state.form.sent = nil }
        if state.alert != alertBefore {
            if let alertBefore, let alertUpAt { onAlertSeen?(alertBefore, alertUpAt) }
            alertUpAt = state.alert == nil ? nil : clock()
        }
        if let asked { logGateAnswer(asked, effects) }
        if input.keepsChoices && effects.isEmpty {
            assert(state.screen.choices == choices, "\(input) changed the screen's choices")
            builtChoices = choices
            if var shown = shownBefore {
                shown.highlight(state)
                assert(shown == state.screen, "\(input) changed more of the screen than its highlight")
                builtScreen = shown
            }
        }
        if let landing { judge(landing) }
        for effect in effects { run(effect) }
    }

    /// Apple's manage sheet shows the store as it is now: read again, if it is up, after anything done to the world
    /// from outside the phone (time travel, a refund, a renewal, a storefront move), under a prompt or an alert that
    /// covers it too. Read only while on top, the sheet a transfer prompt covered during a move to France still
    /// offered the yearly plan at its US price, and Apple refused the switch chosen there (long fuzz seed 2272).
    func readManageSheetAgain() {
        guard isRunning, state.stack.contains(.manageSubscription), state.manageSheet != nil else { return }
        dispatch(.manageSheetShown(manageSheet()))
    }

    /// Apple's manage sheet as it reaches the app: the store's, or the planted `manage-sheet-from-account`'s.
    private func manageSheet(autoRenew: Bool? = nil) -> [ManagedSubscription] {
        guard defect == .manageSheetFromAccount else { return ManageSheetTruth.shown(queue.manageSheet()) }
        return accountsSheet(state.subscriptions, autoRenew: autoRenew)
    }

    /// A reload the app asked for ended: its list reached the app already (`onSubscriptionsListed`, as every answer's
    /// does); nil: the backend did not answer, and the last list stays.
    private func listed(_ list: SubscriptionList?) {
        if list == nil, state.pendingSubscribe?.awaitsList == true {
            // A subscriber's Subscribe waits for it: the list kept decides.
            dispatch(.subscriptionsUnanswered)
        }
    }

    /// A list of the backend's subscriptions, with the App Store's titles of the plans the paywall does not sell, as
    /// the app asks the store for the products its server lists (`Product.products(for:)`); none where the store does
    /// not return one (session 28: the profile named a plan the owner dropped by its identifier).
    private func dispatchList(_ list: SubscriptionList) {
        var titled = list
        let sold = Set((state.offers ?? []).map(\.productId))
        for productId in list.subscriptions.flatMap({ [$0.productId] + ($0.renewsAs.map { [$0] } ?? []) })
        where !sold.contains(productId) {
            if let title = queue.product(productId)?.localizedTitle { titled.titles[productId] = title }
        }
        dispatch(.subscriptionsLoaded(titled))
    }

    /// The planted `manage-sheet-from-account`'s sheet: the backend's list, `autoRenew` changed as a press showed it.
    private func accountsSheet(_ subscriptions: [SubscriptionSummary], autoRenew: Bool? = nil) -> [ManagedSubscription]
    {
        ManageSheetTruth.fromAccount(subscriptions, autoRenew: autoRenew) { productId in
            state.offers?.first { $0.productId == productId }?.product.localizedTitle ?? productId
        }
    }

    /// Where a Subscribe tap left the reader (the planted `subscriber-tap-ignored` takes a subscriber's tap back).
    private func judge(_ landing: SubscribeLanding) {
        if defect == .subscriberTapIgnored, state.route == .profile, state.access.isSubscriber, state.stack.count > 1 {
            state.stack.removeLast()
            state.selections.removeLast()
        }
        let (unheld, lacked) = unheldGroups
        report(landing.broken(after: state, unheld: unheld, lacked: lacked)) {
            .subscriberNotOnProfile(deviceId: $0, detail: $1)
        }
    }

    /// The subscription groups the store sells on the paywall here that neither the App Store (this Apple ID's
    /// subscriptions giving access) nor the server's lists that reached the phone hold, and those the server's lists
    /// do not hold. The lists are the profile's: the reader's and, signed in, the phone's own subscription not moved
    /// to the account. The App Store takes a revoked subscription back at once, before the server's word reaches the
    /// phone: a reader whose phone still held the only group on sale went to the profile and was judged as left
    /// there with a group unheld (default fuzz seed 4850).
    private var unheldGroups: (unheld: Set<String>, lacked: Set<String>) {
        let held = queue.subscriptionsHeld.filter(\.state.isEntitled).map(\.groupId)
        let listed = state.profileSubscriptions.filter(\.active).compactMap {
            queue.subscriptionGroup(of: $0.productId)
        }
        let sold = (state.offers ?? []).compactMap { queue.subscriptionGroup(of: $0.productId) }
        let lacked = Set(sold).subtracting(listed)
        return (lacked.subtracting(held), lacked)
    }

    /// Logs a rule of the app broken as it reduced an event, with the event the invariant monitor reads.
    private func report(_ broken: String?, _ event: (String, String) -> WorldEvent) {
        guard let broken else { return }
        timeline.log(.app, broken, event: event(queue.deviceId, broken))
    }

    /// Hands an outcome event to `onOutcome`, with when its act began.
    private func record(_ event: AppEvent) {
        guard let onOutcome else { return }
        let told: ReaderOutcome.Told
        var began: Beginning?
        var productId: String?
        var carriedOn = false
        var chargeWasNews = false
        var transfer: String?
        var inspectedSince: Int?
        var signInFailed: (run: Int, began: Int, told: Int)?
        switch event {
        case .purchaseStage(.checkingEarlierPayment(let paidAt)):
            joinedChargeAt = paidAt
            return
        case .purchaseStage(.waitingForStore):
            joinedChargeAt = nil
            return
        case .purchaseFinished(.refused(.parentalGateRequired)):
            // Not an end the reader is told: the gate shows, and the purchase starts again once answered.
            purchaseBegan = nil
            return
        case .purchaseFinished(let outcome):
            told = .purchase(outcome)
            // Told the end of a payment Apple took before the reader's act: the act began with that payment.
            // The ledger's mark orders only the tap's own instant.
            began = purchaseBegan.map { begun in
                let at = min(begun.at, joinedChargeAt ?? begun.at)
                return (at, begun.levels, begun.identity, at == begun.at ? begun.mark : nil)
            }
            if outcome != .refused(.purchaseInProgress) { joinedChargeAt = nil }
            productId = purchaseBegan?.productId
            inspectedSince = purchaseBegan.map { inspectAnswersTaken - $0.inspected }
            // A second tap refused while one runs leaves the running purchase's beginning in place.
            if outcome != .refused(.purchaseInProgress) { purchaseBegan = nil }
        case .purchaseCarriedOn(let outcome, let product, let transactionId, _, _):
            // Nobody on screen waited for it: it began when Apple charged for it.
            told = .purchase(outcome)
            let charged = transactionId.flatMap(queue.purchaseDate(ofTransaction:))
            began = (charged ?? clock(), levels, identity, nil)
            productId = product
            carriedOn = true
            chargeWasNews =
                charged.map { at in queue.observingSince.map { at >= $0 } ?? false } == true
                && transactionId.map { queue.deliveries[$0] == 1 } == true
        case .restoreFinished(let outcome):
            told = .restore(outcome)
            began = restoreBegan
        case .accountFinished(let outcome):
            told = .account(outcome)
            began = accountBegan
            transfer = transferFrom
            // Judged only while the transport's last sign-in is the act's own: an older one sent again after a
            // refusal (an expired token renewed) is not the one told failed (default fuzz seed 5368).
            if case .failed = outcome, let act = signingIn, let last = transport.signIn, last.request == act {
                signInFailed = (last.run, signInBegan, transport.signInTicks)
            }
        default: return
        }
        let now = clock()
        var outcome = ReaderOutcome(
            told: told, device: name, launch: launchNumber, at: now, began: began?.at ?? now,
            levelsBefore: began?.levels ?? levels, productId: productId)
        outcome.ledgerMarkWhenBegan = began?.mark
        outcome.carriedOn = carriedOn
        outcome.chargeWasNews = chargeWasNews
        outcome.levelsWhenTold = levels
        outcome.identityWhenTold = identity
        outcome.couldPayWhenTold = queue.canMakePayments
        outcome.receiptWhenTold = queue.heldReceipt
        outcome.identityWhenBegan = began?.identity ?? identity
        outcome.identitiesWhileRan = identities(since: began?.at ?? now)
        outcome.transferFrom = transfer
        outcome.signInFailed = signInFailed
        outcome.inspectAnswersSinceBegan = inspectedSince
        onOutcome(outcome)
    }

    private var levels: Set<String> { Set(state.access.levels.map(\.rawValue)) }
    private var identity: AccessSnapshot.Identity { state.access.identity }

    /// Each identity the phone showed, from when: an act carried on (a charge the app checked after a logout) is
    /// judged by every identity shown while it ran, not only by the one shown when it was told (fuzz seed 5107).
    private var identitiesShown: [(since: SimInstant, identity: AccessSnapshot.Identity)] = []

    private func noteIdentity() {
        if identitiesShown.last?.identity != identity { identitiesShown.append((clock(), identity)) }
    }

    /// The identities shown from `instant` on, the one shown then first.
    private func identities(since instant: SimInstant) -> [AccessSnapshot.Identity] {
        let first = identitiesShown.lastIndex { $0.since < instant } ?? 0
        return identitiesShown[first...].map(\.identity)
    }

    /// Notes when an act that ends in an outcome began.
    private func noteBeginning(_ effect: AppEffect) {
        switch effect {
        case .purchase(let offerId, _) where purchaseBegan == nil:
            let productId = state.app.subscriptions.first { $0.id == offerId }?.productId
            purchaseBegan = (clock(), levels, identity, productId, inspectAnswersTaken, ledgerMark?())
            joinedChargeAt = nil
        case .restore:
            restoreBegan = (clock(), levels, identity, ledgerMark?())
        case .logIn, .signUp, .transferAnonymousPurchases, .logOut:
            accountBegan = (clock(), levels, identity, ledgerMark?())
            transferFrom = effect == .transferAnonymousPurchases ? storage.anonymousIdentity?.id : nil
            signingIn =
                switch effect {
                case .logIn(let email, let password):
                    SignInRequest(path: "/v1/sessions", email: email, password: password)
                case .signUp(let email, let password):
                    SignInRequest(path: "/v1/accounts", email: email, password: password)
                default: nil
                }
            signInBegan = transport.signInTicks
        case .loadFullContent(let id, _):
            contentRequested[id] = clock()
        default: break
        }
    }

    private func run(_ effect: AppEffect) {
        noteBeginning(effect)
        switch effect {
        case .forgetCatalog:
            coordinator.forgetCatalog()
        case .loadCatalog:
            coordinator.loadCatalog { [weak self] catalog in
                self?.dispatch(.catalogLoaded(catalog.offers, notSold: catalog.notSold))
            }
        case .purchase(let offerId, let gatePassed):
            coordinator.purchase(
                offerId: offerId, parentalGatePassed: gatePassed,
                progress: { [weak self] stage in self?.dispatch(.purchaseStage(stage)) },
                completion: { [weak self] outcome in self?.dispatch(.purchaseFinished(outcome)) })
        case .answerPaymentSheet(let confirm):
            queue.answerSheet(confirm: confirm)
        case .restore(let confirm):
            coordinator.restore(confirmMoveFromAccount: confirm) { [weak self] outcome in
                self?.dispatch(.restoreFinished(outcome))
            }
        case .logIn(let email, let password):
            coordinator.logIn(email: email, password: password) { [weak self] in self?.dispatch(.accountFinished($0)) }
        case .signUp(let email, let password):
            coordinator.signUp(email: email, password: password) { [weak self] in self?.dispatch(.accountFinished($0)) }
        case .transferAnonymousPurchases:
            coordinator.transferAnonymousPurchases { [weak self] in self?.dispatch(.accountFinished($0)) }
        case .logOut:
            dispatch(.accountFinished(coordinator.logOut()))
        case .reloadAccess:
            coordinator.reloadAccess { [weak self] in self?.listed($0) }
        case .reloadAccessAskingApple:
            coordinator.reloadAccess(askingApple: true) { [weak self] in self?.listed($0) }
        case .becomeActive:
            coordinator.appBecameActive { [weak self] in self?.listed($0) }
        case .recheckMoveQuestion:
            coordinator.recheckMoveQuestion { [weak self] in self?.dispatch(.moveQuestionRechecked($0)) }
        case .showManageSubscriptions(let gatePassed)
        where coordinator.requiresParentalGate && !gatePassed && defect != .skipParentalGate:
            // As before a purchase: a grown-up first, since a switch on the sheet can charge at once.
            dispatch(.manageSheetNeedsParentalGate)
        case .changePlan where coordinator.requiresParentalGate && !sheetGatePassed && defect != .skipParentalGate:
            // The gate became due while the sheet was up (the reader's age became known): judged again as the switch
            // is handed to Apple, as a purchase's is (fuzz, session 25).
            dispatch(.manageSheetNeedsParentalGate)
        case .showManageSubscriptions(let gatePassed) where defect == .manageSheetFromAccount:
            sheetGatePassed = gatePassed
            coordinator.reloadAccess { [weak self] list in
                guard let self, let list else { return }
                dispatch(.manageSheetShown(accountsSheet(list.subscriptions)))
            }
        case .showManageSubscriptions(let gatePassed):
            sheetGatePassed = gatePassed
            dispatch(.manageSheetShown(ManageSheetTruth.shown(queue.manageSheet())))
        case .setAutoRenew(let enabled, let productId):
            let before = queue.subscriptionsHeld
            queue.setAutoRenew(enabled, productId: productId)
            report(ManageSheetTruth.changedBeside(productId, before: before, after: queue.subscriptionsHeld)) {
                .manageSheetUntrue(deviceId: $0, detail: $1)
            }
            dispatch(.manageSheetShown(manageSheet(autoRenew: enabled)))
        case .changePlan(let productId):
            if let asked = queue.changePlan(to: productId) {
                // Waits for a parent: nothing is switched yet, so nothing to hold the sheet to.
                dispatch(.planChangeAskedParent(asked))
            } else {
                let group = queue.subscriptionGroup(of: productId)
                report(ManageSheetTruth.switchNotKept(to: productId, group: group, holding: queue.subscriptionsHeld)) {
                    .manageSheetUntrue(deviceId: $0, detail: $1)
                }
            }
        case .loadFullContent(let id, let levels):
            let unloaded = "The full \(state.app.words.one) could not be loaded."
            coordinator.fullContent(id, requiredLevels: levels) { [weak self] result in
                switch result {
                case .success(let body): self?.dispatch(.fullContentLoaded(id: id, body: body))
                case .failure:
                    self?.dispatch(.fullContentFailed(id: id, message: unloaded))
                }
            }
        }
    }

    /// The label of the button Enter in the highlighted field presses (the form's last field), nil when it moves on.
    private static func enteredButton(on screen: ScreenModel) -> String? {
        let selectable = screen.rows.indices.filter { screen.rows[$0].isSelectable }
        guard let selection = screen.selection, let index = selectable.firstIndex(of: selection),
            Choice.entered(at: index, among: screen.choices) != screen.choices[index]
        else { return nil }
        return screen.rows[selectable[index + 1]].text
    }

    /// Why Esc does nothing on the screen, as `BackRule` refuses it.
    private var backRefusal: String {
        if state.route == .accountRequired, !state.isSignedIn { return "an account is required first" }
        if case .paywall = state.route, state.purchase != nil { return "the purchase under way keeps the paywall open" }
        if let operation = state.operation {
            return "\(operation.prefix(1).lowercased())\(operation.dropFirst()) is under way"
        }
        return "nothing to go back to"
    }

    /// The reader's input as the timeline says it; typing is not logged, so a password never is.
    private static func describe(_ input: ReaderInput, on screen: ScreenModel) -> String? {
        if let alert = screen.alert {
            // The alert covers the screen: what the reader answers is the alert, not the row beneath it.
            switch input {
            case .select: return "OK on alert \"\(alert.title)\""
            case .back: return "dismiss alert \"\(alert.title)\""
            default: return nil
            }
        }
        let row = screen.selection.map { screen.rows[$0].text } ?? ""
        switch input {
        // A screen with nothing to choose (a free article read in full): Enter selected nothing, and the line said
        // `select "" on content` (session 28).
        case .select where screen.selection == nil: return "Enter on \(screen.visibleID.rawValue): nothing to select"
        case .select where screen.selection.map({ screen.rows[$0].isField }) == true:
            // Enter in a form's last field is its button's press (`Choice.entered`), said as that press.
            guard let button = enteredButton(on: screen) else { return "next field on \(screen.visibleID.rawValue)" }
            return "select \"\(button)\" on \(screen.visibleID.rawValue) (Enter in the field)"
        case .select: return "select \"\(row)\" on \(screen.visibleID.rawValue)"
        case .back: return "back on \(screen.visibleID.rawValue)"
        // A highlight moving is no message and changes nothing: the choice it leads to is the line. On the
        // timeline it scrolled the pane, and the phone beside it, on every arrow key.
        case .up, .down, .character, .deleteBackward: return nil
        }
    }
}
