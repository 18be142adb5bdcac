import SimKernel
import Subscriptions

/// The app's update function: the new state, and the effects to run. Pure: no store, no backend, no clock.
/// `choices`: the choices of `state.screen`, when the caller keeps that screen built (a phone does); nil builds it.
public func reduce(_ state: inout AppState, _ event: AppEvent, choices: [Choice]? = nil) -> [AppEffect] {
    var effects: [AppEffect] = []
    var listAgain = false
    switch event {
    case .launched:
        // The stored access shows at once; the backend is asked too, for what changed while the app was closed.
        effects += [.loadCatalog, .reloadAccess]
    case .reader(let input):
        effects.gather(handle(input, &state, choices))
    case .catalogLoaded(let offers, let notSold):
        state.offers = offers
        state.notSoldHere = notSold
        for offer in offers {
            if let group = offer.product.subscriptionGroupIdentifier { state.productGroups[offer.productId] = group }
            state.productTitles[offer.productId] = offer.product.localizedTitle
        }
        effects.gather(subscribeOnceCataloged(&state))
    case .accessChanged(let access):
        // New levels on the profile: its plan lines are asked for again, so they never contradict the access shown;
        // under a paywall kept open, its offers are the groups the reader does not hold.
        if access.isKnown, state.access.isKnown, access.levels != state.access.levels {
            if state.route == .profile {
                effects.append(.reloadAccess)
            } else if access.isSubscriber {
                listAgain = true
            }
        }
        state.keepListsAcross(identityChangeTo: access.identity)
        state.access = access
        // The phone's list is its guest's now only: one moved to an account and forgotten is nobody's to show.
        if state.phoneGuestsList == nil { state.phoneSubscriptionList = nil }
        effects.gather(subscribeOnceKnown(&state))
        requireAccountIfNeeded(&state)
    case .paymentSheet(let sheet):
        let shown = state.paymentSheet
        state.paymentSheet = sheet
        state.sheetMoved(from: shown)
        if let sheet, sheet != shown {
            if shown == nil { state.selections.append(0) }
            state.selection = harmlessChoice(ScreenBuilder.paymentSheet(sheet).choices)
        }
        if sheet == nil && shown != nil { state.selections.removeLast() }
    case .purchaseStage(let stage):
        if let purchase = state.purchase { state.purchase = (purchase.offerId, stage) }
    case .purchaseFinished(let outcome):
        finishPurchase(outcome, &state)
    case .purchaseCarriedOn(let outcome, let productId, let transactionId, let fresh, let kind):
        let charge = CarriedOnCharge(productId: productId, transactionId: transactionId, kind: kind)
        carryOn(outcome, charge, freshCharge: fresh, &state)
        // A renewal Apple delivered changes what the profile's list says of the subscription (its date, a billing
        // issue over): asked again, since within the grace period the levels, which ask again when they change, do not
        // (found-by-hand/524).
        if kind != .purchase, outcome == .purchased, !effects.contains(.reloadAccess) { effects.append(.reloadAccess) }
    case .fullContentLoaded(let id, let body):
        state.fullContent[id] = .loaded(body)
    case .fullContentFailed(let id, let message):
        // A late answer to an older request (asked as another identity) does not undo what loaded since;
        // a level really lost is purged by `settleContent` after every event.
        if case .loaded = state.fullContent[id] { break }
        state.fullContent[id] = .failed(message)
    case .restoreFinished(let outcome):
        effects.gather(finishRestore(outcome, &state))
    case .accountFinished(let outcome):
        effects.gather(finishAccount(outcome, &state))
    case .subscriptionsLoaded(let list):
        // Signed in, a guest's list is the phone's own identity's, asked beside the account's.
        if case .anonymous = list.identity, state.isSignedIn {
            state.phoneSubscriptionList = list
        } else {
            state.subscriptionList = list
            effects.gather(subscribeOnceListed(&state, answered: true))
        }
    case .subscriptionsUnanswered:
        effects.gather(subscribeOnceListed(&state, answered: false))
    case .manageSheetShown(let subscriptions):
        let index = state.stack.lastIndex(of: .manageSubscription)
        let before = index.map { _ in ScreenBuilder.manageSubscription(state).choices }
        state.manageSheet = subscriptions
        // An answer that changes the sheet's choices (its first, filling "Loading…"; one after a change) is a sheet the
        // reader has not seen: the highlight goes to Done, not to whatever row took its place ("Cancel subscription").
        // The same sheet shown again (after anything done outside the phone) keeps it where the reader put it.
        if let index, let before, case let after = ScreenBuilder.manageSubscription(state).choices, after != before {
            state.selections[index] = harmlessChoice(after)
        }
    case .manageSheetNeedsParentalGate:
        // Asked in place of the sheet it would have opened (or, for a switch chosen on a sheet opened before the gate
        // was due, after it closed); Esc goes back to the profile.
        if state.route == .manageSubscription { pop(&state) }
        showGate(.manageSubscription, &state)
    case .parentAnswered, .noRequestWaits:
        state.takeOffParentWaits()
    case .moveQuestionRechecked(let verdict):
        effects.gather(withdrawMoveQuestion(verdict, &state))
    case .chargeAlertsKept(let alerts):
        for alert in alerts { state.tell(alert) }
    case .planChangeAskedParent(let title):
        // Says a request waits, as a purchase's does: taken off when none does (a declined switch, session 28).
        var waits = Alert(
            title: "Waiting for approval",
            message: "A parent needs to approve the switch to \(title). It happens as soon as they do.",
            charge: .nothing)
        waits.parentRequest = .waiting
        state.tell(waits)
    case .becameActive:
        effects.append(.becomeActive)
        // "Move it?" of a subscription held elsewhere was the server's word when asked: asked again (session 35).
        if isMoveQuestion(state.route), state.operation == nil, state.isSignedIn {
            effects.append(.recheckMoveQuestion)
        }
        // Back in the app on an article that failed to load: it is asked for again.
        if case .content(let id) = state.route, case .failed = state.fullContent[id] { state.fullContent[id] = nil }
        // A products request that failed earlier is tried again; and the paywall on screen asks the store again, whose
        // prices may have changed meanwhile (it kept "$4.99" over a raise to $5.99 on Apple's sheet, session 26).
        // The paywall under a gate or Apple's sheet too: the reader returns to it.
        if state.stack.contains(where: { if case .paywall = $0 { true } else { false } }) {
            effects.append(.loadCatalog)
        } else if state.offers?.isEmpty ?? true {
            effects.append(.loadCatalog)
        }
    case .storeChanged:
        state.offers = nil
        state.notSoldHere = []
        effects += [.forgetCatalog, .loadCatalog]
    case .paymentsAllowed:
        state.takeOffUntrue(paymentsAllowed: true)
    }
    state.takeOffUntrue()
    closeSubscriptionPage(&state)
    // A purchase running on it closes it as it ends.
    if listAgain, state.purchase == nil, state.stack.contains(where: isPaywall), !effects.contains(.reloadAccess) {
        effects.append(.reloadAccess)
    }
    releaseAccountRequirement(&state)
    releaseTransferPrompt(&state)
    if !state.isSignedIn { effects.gather(withdrawMoveQuestion(.signedOut, &state)) }
    effects.gather(offerMoveToAccount(&state))
    effects.gather(settleContent(&state))
    return effects
}

extension [AppEffect] {
    /// `+=` that skips an empty list and takes a list whole into an empty one: most of an event's steps add
    /// nothing, and each `+=` was a call that copied nothing (40,045 in `fuzz --runs 30 --seed 5`, 2,016 steps).
    fileprivate mutating func gather(_ more: [AppEffect]) {
        if isEmpty {
            self = more
        } else if !more.isEmpty {
            append(contentsOf: more)
        }
    }
}

/// Levels the phone's own subscription gained while the reader was signed in (a parent's approval or a purchase
/// checked as the phone's guest, landing after the sign-in): asked as a sign-in asks (seed 000: "the app asks whether
/// to transfer the subscription to that account"), or moved where the owner requires an account. Once per account,
/// when nothing else is under way.
private func offerMoveToAccount(_ state: inout AppState) -> [AppEffect] {
    guard case .account(let email) = state.access.identity, !state.access.unmovedLevels.isEmpty,
        state.access.moveRefusedUntil == nil, state.transferAskedFor != email, state.operation == nil,
        state.purchase == nil, state.paymentSheet == nil, !isAccountScreen(state.route)
    else { return [] }
    state.transferAskedFor = email
    if state.app.account.mode == .requiredAfterSubscribing {
        state.operation = "Moving your subscription"
        return [.transferAnonymousPurchases]
    }
    push(.transferPrompt(.anonymousToAccount), &state)
    return []
}

/// The request for an account keeps a subscription safe: once a reader without an account holds none (refunded,
/// expired, moved away), it has nothing to keep, and it lets the reader go back to what they were reading rather
/// than thanking them for a subscription they no longer have with no way out but signing up. Signed in, it keeps
/// the phone's subscription until it is on the account (a move whose answer was lost may have put it there).
private func releaseAccountRequirement(_ state: inout AppState) {
    guard state.route == .accountRequired, state.operation == nil else { return }
    if case .account = state.access.identity {
        guard state.access.unmovedLevels.isEmpty else { return }
    } else if state.access.isSubscriber {
        return
    }
    pop(&state)
    popPurchaseAndAccountScreens(&state)
}

/// "Move your subscription?" asks about the phone's own subscription, for the account signed in: once the phone's
/// guest holds none (moved by a request whose answer was lost, ended, refunded), or no account is signed in any more
/// (the session ended), there is nothing to move, or nowhere to, and the question goes; so it does once the server
/// said it refuses the move for the limit (a guest's answer heard while it was up).
private func releaseTransferPrompt(_ state: inout AppState) {
    guard state.route == .transferPrompt(.anonymousToAccount), state.operation == nil,
        !state.isSignedIn || state.access.unmovedLevels.isEmpty || state.access.moveRefusedUntil != nil
    else { return }
    pop(&state)
}

/// "Move it to the account you are signed in with?" of a subscription held elsewhere (a restore's, a purchase's) stands
/// only while the move can be made: signed out meanwhile (a session that ended), or, asked again as the app became
/// active, ended (expired, refunded), moved here already, or kept where it is now, the question goes and the reader is
/// told why, so no "Move it" acts on a judgement that no longer holds (session 35).
private func withdrawMoveQuestion(_ verdict: MoveQuestionVerdict, _ state: inout AppState) -> [AppEffect] {
    guard isMoveQuestion(state.route), state.operation == nil, let message = verdict.message else { return [] }
    popTransferPrompts(&state)
    state.tell(Alert(title: "Nothing to move", message: message))
    return verdict == .alreadyYours ? [.reloadAccess] : []
}

/// The question of moving another's subscription here, not the phone's own guest's (`.anonymousToAccount`).
private func isMoveQuestion(_ route: AppState.Route) -> Bool {
    if case .transferPrompt(let prompt) = route { prompt != .anonymousToAccount } else { false }
}

/// The subscription page is for readers who have not subscribed (seed 000), read per level (session 27): once the
/// reader can read the article it was opened from, or holds every group it offers, and no purchase runs, the paywall
/// and the parental gate in front of it leave the stack, wherever the reader went from them (a log-in form opened on
/// the paywall, a payment that went through while it was up).
private func closeSubscriptionPage(_ state: inout AppState) {
    guard state.access.isSubscriber, state.purchase == nil,
        state.stack.dropFirst().contains(where: { isPurchaseScreen($0, state.gate) }),
        !paywallStillSells(state)
    else { return }
    for index in state.stack.indices.reversed() where index > 0 && isPurchaseScreen(state.stack[index], state.gate) {
        state.stack.remove(at: index)
        state.selections.remove(at: index)
    }
    state.gate = nil
}

/// Whether the paywall in the stack still offers a subscriber what the article it was opened from needs: the article
/// is locked and a group they do not hold is on sale (or the store's offers are loading).
public func paywallStillSells(_ state: AppState) -> Bool {
    guard case .paywall(let contentId)? = state.stack.last(where: isPaywall) else { return false }
    if let contentId, let item = state.item(contentId), state.access.unlocks(item.requiredLevels) { return false }
    return !(state.paywallOffers?.isEmpty ?? false)
}

public func isPaywall(_ route: AppState.Route) -> Bool {
    if case .paywall = route { true } else { false }
}

private func handle(_ input: ReaderInput, _ state: inout AppState, _ known: [Choice]?) -> [AppEffect] {
    if state.alert != nil {
        if input == .select || input == .back { state.dismissAlert() }
        return []
    }
    let choices = known ?? ScreenBuilder.build(state).choices
    let highlighted = state.highlighted(among: choices.count)
    let current = highlighted.map { choices[$0] }
    switch input {
    case .up:
        state.selection = max(0, (highlighted ?? 0) - 1)
    case .down:
        state.selection = min(max(0, choices.count - 1), (highlighted ?? 0) + 1)
    case .select:
        guard let highlighted else { return [] }
        return perform(Choice.entered(at: highlighted, among: choices), &state)
    case .back:
        return goBack(&state)
    case .character(let character):
        if case .edit(let field) = current {
            edit(field, &state) { if $0.count < textFieldLimit { $0.append(character) } }
        }
    case .deleteBackward:
        if case .edit(let field) = current { edit(field, &state) { if !$0.isEmpty { $0.removeLast() } } }
    }
    return []
}

/// The longest text a field takes (an email address's limit): a 20k-character paste stops here.
public let textFieldLimit = 254

private func edit(_ field: TextField, _ state: inout AppState, _ change: (inout String) -> Void) {
    switch field {
    case .email: change(&state.form.email)
    case .password: change(&state.form.password)
    case .gateAnswer: if state.gate != nil { change(&state.gate!.answer) }
    }
}

private func goBack(_ state: inout AppState) -> [AppEffect] {
    switch BackRule(state) {
    case .cancelPayment: return [.answerPaymentSheet(confirm: false)]
    case .refused: return []
    case .close:
        if state.route == .parentalGate { state.gate = nil }
        let effects = close(&state)
        // Back off the screen a Subscribe was tapped on: the tap kept while access loaded goes with it.
        if let pending = state.pendingSubscribe, state.stack.count < pending.depth { state.pendingSubscribe = nil }
        return effects
    }
}

/// Closes the screen on top. Back on the profile from Apple's manage sheet, the app asks its server to read Apple's
/// records again: what the reader changed there (auto-renew, a plan) or saw there (a renewal whose notification was
/// lost, still told as a failed payment: session 27) reaches the profile, not only the next time it opens.
private func close(_ state: inout AppState) -> [AppEffect] {
    let leaving = state.route
    pop(&state)
    // "Not now" on the request for an account, signed in: what it was pushed over (a log-in form opened
    // mid-purchase, the paywall) served the purchase it ends, as after the move (long seed 686 found a log-in form
    // there, offered to a signed-in reader).
    if leaving == .accountRequired { popPurchaseAndAccountScreens(&state) }
    return leaving == .manageSubscription && state.route == .profile ? [.reloadAccessAskingApple] : []
}

private func popPurchaseAndAccountScreens(_ state: inout AppState) {
    while (isAccountScreen(state.route) || isPurchaseScreen(state.route, state.gate)) && state.stack.count > 1 {
        pop(&state)
    }
}

private func perform(_ choice: Choice, _ state: inout AppState) -> [AppEffect] {
    switch choice {
    case .openContent(let id):
        // An article that failed to load is asked for again each time it is opened: one bad answer is not the last.
        if case .failed = state.fullContent[id] { state.fullContent[id] = nil }
        push(.content(id: id), &state)
    case .subscribe(let contentId):
        guard state.access.isKnown else {
            // No paywall while the reader's access is loading: decide once it is known.
            state.pendingSubscribe = PendingSubscribe(fromContent: contentId, depth: state.stack.count)
            return []
        }
        if state.access.isSubscriber {
            // The groups the reader holds, asked of the server first (a purchase since may be missing from the list
            // kept): a subscriber lacking this article's level buys another group's plan (session 27). The store's
            // catalog too: a plan's group is known only from it, and the catalog kept may be loading (a storefront
            // changed) or leave out the plan held (a partial answer), which read as no group held put a reader
            // holding workouts on a paywall selling coach, the same group's upgrade (fuzz --seed 4103, 4113).
            state.pendingSubscribe = PendingSubscribe(
                fromContent: contentId, depth: state.stack.count, awaitsList: true, awaitsCatalog: true)
            return [.reloadAccess, .loadCatalog]
        }
        return subscribe(from: contentId, &state)
    case .buy(let offerId):
        // Where a grown-up must answer first, the coordinator says so once payments and the offer are
        // checked (`.refused(.parentalGateRequired)`), and `finishPurchase` shows the gate.
        if state.purchase == nil { state.purchase = (offerId, .waitingForStore) }
        return [.purchase(offerId: offerId, parentalGatePassed: false)]
    case .answerGate:
        guard var gate = state.gate else { return [] }
        guard gate.isAnswered else {
            gate.askAnother(draws: &state.gateDraws)
            state.gate = gate
            state.lastGateQuestion = gate.question
            // Back in the emptied field, for the next question: the gate's first choice.
            state.selection = 0
            state.tell(Alert(title: "Not quite", message: "That answer is not right. Ask a grown-up to try again."))
            return []
        }
        state.gate = nil
        pop(&state)
        switch gate.purpose {
        case .purchase(let offerId):
            state.purchase = (offerId, .waitingForStore)
            return [.purchase(offerId: offerId, parentalGatePassed: true)]
        case .manageSubscription:
            push(.manageSubscription, &state)
            state.manageSheet = nil
            return [.showManageSubscriptions(parentalGatePassed: true)]
        }
    case .confirmPayment:
        // Agree on Apple's price-increase sheet changed the renewal there: the server reads Apple's record at once,
        // as after any change on Apple's sheets (a lost notification left "ends unless you agree", session 26).
        if state.paymentSheet?.isPriceConsent == true {
            return [.answerPaymentSheet(confirm: true), .reloadAccessAskingApple]
        }
        return [.answerPaymentSheet(confirm: true)]
    case .cancelPayment:
        return [.answerPaymentSheet(confirm: false)]
    case .openProfile:
        push(.profile, &state)
        return [.reloadAccess]
    case .restore:
        state.operation = "Restoring your purchases"
        return [.restore(confirmMoveFromAccount: false)]
    case .openLogin(let purpose):
        state.form = AccountForm()
        push(.login(purpose), &state)
    case .openSignup(let purpose):
        state.form = AccountForm()
        push(.signup(purpose), &state)
    case .edit:
        state.selection += 1
    case .submitLogIn:
        // A log-in sent again while the first is on its way asks the same of the server, which answers both alike; the
        // app keeps the later answer (a superseded sign-in: found-by-fuzzing/superseded-sign-in-for-the-same-account).
        state.operation = "Signing in"
        return [.logIn(email: state.form.email, password: state.form.password)]
    case .submitSignUp:
        // A sign-up is not: the first makes the account, and the same sent again is told "email taken", the answer
        // the app would keep. The form waits for the first (session 38, found-by-hand/472).
        guard !state.form.awaitsAnswer else { return [] }
        state.operation = "Creating your account"
        state.form.sent = AccountForm.Sent(email: state.form.email, password: state.form.password)
        return [.signUp(email: state.form.email, password: state.form.password)]
    case .acceptTransfer(.anonymousToAccount):
        state.operation = "Moving your subscription"
        return [.transferAnonymousPurchases]
    case .acceptTransfer(.fromAnotherAccount), .acceptTransfer(.heldElsewhere):
        state.operation = "Moving your subscription"
        state.restoreMoves = true
        return [.restore(confirmMoveFromAccount: true)]
    case .declineTransfer, .done:
        return close(&state)
    case .logOut:
        return [.logOut]
    case .manageSubscription:
        push(.manageSubscription, &state)
        state.manageSheet = nil
        return [.showManageSubscriptions(parentalGatePassed: false)]
    case .setAutoRenew(let enabled, let productId):
        // Apple's sheet shows its own change (the store answers with the sheet again); the backend, asked to read
        // Apple's records, tells the profile under it without waiting for Apple's notification.
        return [.setAutoRenew(enabled, productId: productId), .reloadAccessAskingApple]
    case .changePlan(let productId):
        // The store applies Apple's timing; access changes when the app hears of it (an upgrade reaches
        // the observer, a later change the next renewal), so the sheet closes on the profile, which asks the
        // backend to read Apple's records: a change kept for the renewal brings no transaction, and "renews" stayed.
        pop(&state)
        return [.changePlan(productId: productId), .reloadAccessAskingApple]
    }
    return []
}

/// Where Apple's sheets open: on the first choice that moves no money (Cancel, Not now, Done). Apple's sheet asks for a
/// deliberate act, never a stray tap: an Enter pressed as the sheet came up (a double press on an offer, on "Manage my
/// subscription") confirmed it and charged the reader (session 26).
func harmlessChoice(_ choices: [Choice]) -> Int {
    choices.firstIndex { !$0.movesMoney } ?? 0
}

/// Seed 000's "a subscriber who taps Subscribe lands on their profile", read per level (session 27): a reader
/// lacking the article's level goes to the paywall of the groups they do not hold; one holding every group on sale
/// to the profile (where Apple's sheet switches plans within a group). `listed`: the list of the reader's
/// subscriptions was just asked for.
private func subscribe(from contentId: String?, _ state: inout AppState, listed: Bool = false) -> [AppEffect] {
    if state.access.isSubscriber, state.paywallOffers?.isEmpty ?? false {
        push(.profile, &state)
        return listed ? [] : [.reloadAccess]
    }
    push(.paywall(fromContent: contentId), &state)
    // Asked again each time: a request that failed is retried, and a trial already taken is not promised.
    return [.loadCatalog]
}

/// "Account required after subscribing" holds whatever the path to anonymous access was (a purchase
/// approved later, a restore, a restart on the required screen): an anonymous subscriber of such an
/// app is always asked to log in or sign up, with the paywall behind them closed.
private func requireAccountIfNeeded(_ state: inout AppState) {
    guard state.app.account.mode == .requiredAfterSubscribing, case .anonymous = state.access.identity,
        state.access.isSubscriber
    else { return }
    if state.stack.contains(.accountRequired) { return }
    while isPurchaseScreen(state.route, state.gate) && state.stack.count > 1 { pop(&state) }
    state.purchase = nil
    push(.accountRequired, &state)
}

/// The parental gate for `purpose`, asking a question drawn from the launch's seeded generator, never the one asked
/// just before: a child who watched a grown-up answer once does not know the next answer.
private func showGate(_ purpose: ParentalGate.Purpose, _ state: inout AppState) {
    let gate = ParentalGate(purpose: purpose, draws: &state.gateDraws, previous: state.lastGateQuestion)
    state.gate = gate
    state.lastGateQuestion = gate.question
    push(.parentalGate, &state)
}

/// The paywall, and the parental gate in front of a purchase (not the one in front of the manage sheet, which is
/// for subscribers).
private func isPurchaseScreen(_ route: AppState.Route, _ gate: ParentalGate?) -> Bool {
    switch route {
    case .paywall: true
    case .parentalGate: gate?.purpose != .manageSubscription
    default: false
    }
}

/// A purchase that ended with nobody waiting on the paywall: success closes it (seed: the page closes
/// after the server answers); anything else is said, so no charge is ever silent. A fresh charge is said even when it
/// unlocked: the README's "the reader hears how it ended" (an interrupted purchase resolved later charged an upgrade
/// with no word but the article unlocking, session 26). A renewal (a billing recovery reaching the running app) is no
/// purchase of the reader's: it is told as the subscription active again ("Purchase complete" said the reader had
/// bought what Apple charged again, session 35).
private func carryOn(_ outcome: PurchaseOutcome, _ charge: CarriedOnCharge, freshCharge: Bool, _ state: inout AppState)
{
    let productId = charge.productId
    switch outcome {
    case .purchased, .confirmedAfterAll:
        if state.purchase == nil, case .paywall = state.route { pop(&state) }
        requireAccountIfNeeded(&state)
        if let confirmed = purchaseAlert(outcome, of: productId, signedIn: state.isSignedIn) {
            state.tell(confirmed)
            break
        }
        guard freshCharge else { break }
        // Never the product's identifier: with no products answer (the store unreachable), it is "a subscription".
        let title = ScreenBuilder.knownTitle(of: productId, state) ?? "a subscription of this app"
        state.tell(charge.alert(title: title))
    case .cancelled, .pending, .refused:
        break
    default:
        if var alert = purchaseAlert(outcome, of: productId, signedIn: state.isSignedIn) {
            // Apple charged for it now: a parent's approval refunded at once is a charge all the same, and "Waiting
            // for approval" stayed up over "not active" (fuzz seed 4009).
            if freshCharge && alert.charge == nil {
                alert.charge = charge.kind.charge
                if outcome == .subscriptionNotActive {
                    let title = ScreenBuilder.knownTitle(of: productId, state) ?? "a subscription of this app"
                    let began =
                        charge.kind == .trialStart
                        ? "Your free trial of \(title) started, then the App Store"
                        : "The App Store charged this Apple ID for \(title), then"
                    alert.message =
                        "\(began) reported the subscription as not "
                        + "active (a refund, or a payment method to update in Settings). Nothing was unlocked."
                }
            }
            state.tell(alert)
        }
        if case .ownedByAnotherAccount(true) = outcome { push(.transferPrompt(.heldElsewhere), &state) }
    }
}

private func subscribeOnceKnown(_ state: inout AppState) -> [AppEffect] {
    guard state.access.isKnown, let pending = state.pendingSubscribe,
        !((pending.awaitsList || pending.awaitsCatalog) && state.access.isSubscriber)
    else { return [] }
    state.pendingSubscribe = nil
    if let id = pending.fromContent, let item = state.item(id), state.access.unlocks(item.requiredLevels) { return [] }
    return subscribe(from: pending.fromContent, &state, listed: pending.awaitsList)
}

/// A subscriber's tap, once the server listed their subscriptions. Unanswered, the list kept may predate a purchase
/// and offer a group held again: the profile, which asks again (fuzz, session 27).
private func subscribeOnceListed(_ state: inout AppState, answered: Bool) -> [AppEffect] {
    guard state.pendingSubscribe?.awaitsList == true, state.access.isKnown else { return [] }
    state.pendingSubscribe?.awaitsList = false
    guard let pending = state.pendingSubscribe, !answered || !pending.awaitsCatalog else { return [] }
    state.pendingSubscribe = nil
    if let id = pending.fromContent, let item = state.item(id), state.access.unlocks(item.requiredLevels) { return [] }
    guard answered else {
        push(.profile, &state)
        return [.reloadAccess]
    }
    return subscribe(from: pending.fromContent, &state, listed: true)
}

/// A subscriber's tap, once the store answered for its catalog too: decided if the list is in as well.
private func subscribeOnceCataloged(_ state: inout AppState) -> [AppEffect] {
    guard state.pendingSubscribe?.awaitsCatalog == true else { return [] }
    state.pendingSubscribe?.awaitsCatalog = false
    guard let pending = state.pendingSubscribe, !pending.awaitsList, state.access.isKnown else { return [] }
    state.pendingSubscribe = nil
    if let id = pending.fromContent, let item = state.item(id), state.access.unlocks(item.requiredLevels) { return [] }
    return subscribe(from: pending.fromContent, &state, listed: true)
}

private func finishPurchase(_ outcome: PurchaseOutcome, _ state: inout AppState) {
    if outcome == .refused(.purchaseInProgress) {
        var running = Alert(title: "Purchase in progress", message: "Please wait for the current purchase to finish.")
        running.holdsWhile = .purchaseRunning
        state.tell(running)
        return
    }
    let offerId = state.purchase?.offerId
    state.purchase = nil
    switch outcome {
    case .refused(.parentalGateRequired):
        // A grown-up first: the gate stands before anything that can spend money.
        if let offerId, isPurchaseScreen(state.route, state.gate) {
            showGate(.purchase(offerId: offerId), &state)
            return
        }
    case .purchased, .restoredInsteadOfCharging, .sharedInsteadOfCharging:
        // Only now, with the backend's levels published, does the paywall close.
        if case .paywall = state.route { pop(&state) }
        requireAccountIfNeeded(&state)
    case .ownedByAnotherAccount(canMove: true):
        // Seed 001: the reconciliation before a purchase surfaces the other owner and asks.
        push(.transferPrompt(.heldElsewhere), &state)
    default:
        break
    }
    let productId = offerId.flatMap { id in state.offers?.first { $0.id == id }?.productId }
    if let alert = purchaseAlert(outcome, of: productId, signedIn: state.isSignedIn) { state.tell(alert) }
}

/// What the reader is told of a purchase's end; nil where the screen itself says it (or nothing must). Each says what
/// it says of a charge (`Alert.charge`), from the outcome, and of which product's payment. Public for invariant 9,
/// which judges what the words advise (`ToldCheck.adviceViolation`).
public func purchaseAlert(_ outcome: PurchaseOutcome, of productId: String?, signedIn: Bool) -> Alert? {
    var alert = purchaseWords(outcome, signedIn: signedIn)
    alert?.charge =
        outcome.saysCharged
        ? .made : outcome.saysTrialStarted ? .trialStarted : outcome.saysNothingCharged ? .nothing : nil
    alert?.productId = productId
    switch outcome {
    case .pending, .refused(.approvalPending): alert?.parentRequest = .waiting
    case .declined: alert?.parentRequest = .declined
    default: break
    }
    return alert
}

/// A subscription this Apple ID pays for that someone else holds and a restore here would not bring: why, and what
/// was charged (session 27: "use Restore purchase" of one Restore then refused).
private func heldElsewhereWords(_ why: MoveRefusal, charged: Bool) -> String {
    let money =
        charged
        ? "The App Store charged this Apple ID, and the payment went to that subscription: nothing was unlocked here."
        : "You were not charged."
    return
        "This Apple ID already pays for a subscription that belongs to someone else. \(moveRefusalWords(why)) \(money)"
}

/// A subscription held elsewhere whose server's word on a restore here went unheard: the owner's policy decides
/// whether it may come, so no restore is promised; Restore purchase asks again and says either way (session 37).
/// `ToldCheck`'s `AdviceWords` reads "Restore purchase checks again" as this retry, not as advice that it comes.
public let uncheckedWords = PurchaseOutcome.restoreUncheckedWords

/// Why a subscription someone else holds does not move here.
private func moveRefusalWords(_ why: MoveRefusal) -> String {
    switch why {
    case .limit:
        "It has moved too often recently to move here now. Try Restore purchase again later."
    case .keptWithOwner:
        "It stays where it was bought: with its account, or on the phone that bought it."
    case .ownerActive:
        "It stays with its owner while they hold an active subscription."
    case .accountOwned:
        "An account holds it: log in to that account to use it."
    }
}

private func purchaseWords(_ outcome: PurchaseOutcome, signedIn: Bool) -> Alert? {
    switch outcome {
    case .purchased, .cancelled, .refused(.purchaseInProgress), .ownedByAnotherAccount(canMove: true):
        nil
    case .confirmedAfterAll:
        Alert(
            title: "Purchase confirmed",
            message: "Your purchase that could not be confirmed is confirmed now: your subscription is active.")
    case .restoredInsteadOfCharging:
        Alert(
            title: "Already subscribed",
            message: "This Apple ID already had a subscription. It is now on your account; you were not charged.")
    case .sharedInsteadOfCharging where signedIn:
        Alert(
            title: "Shared by your family",
            message:
                "Your family already shares this subscription with this Apple ID, so you were not charged. It is now "
                + "on your account; the family member who bought it pays for it.")
    case .sharedInsteadOfCharging:
        // A guest: nothing moved to an account (session 34).
        Alert(
            title: "Shared by your family",
            message:
                "Your family already shares this subscription with this Apple ID, so you were not charged. It is here "
                + "now; the family member who bought it pays for it.")
    case .sharedHeldElsewhere(let why):
        Alert(
            title: "Shared by your family",
            message:
                "Your family already shares this subscription with this Apple ID, so you were not charged. It cannot "
                + "come to this phone now. \(moveRefusalWords(why))")
    case .alreadySubscribedOnAppleId(planChanged: false):
        Alert(
            title: "Already subscribed",
            message:
                "This Apple ID already pays for this subscription, so you were not charged again. If it was bought on another phone without an account, use Restore purchase to bring it here; if an account holds it, log in to that account."
        )
    case .alreadySubscribedOnAppleId(planChanged: true):
        // The sheet said "Replaces your … subscription on …": a tap on a second phone changed the plan (session 25).
        Alert(
            title: "Plan change set",
            message:
                "This Apple ID already pays for a subscription of this kind, so nothing was charged now: Apple switches it to the plan you chose at its next renewal, at that plan's price. If it was bought on another phone without an account, use Restore purchase to bring it here; if an account holds it, log in to that account."
        )
    case .planChangeSetElsewhere(let why):
        // Not "use Restore purchase" where a restore here is refused (session 28).
        Alert(
            title: "Plan change set",
            message:
                "This Apple ID already pays for a subscription of this kind, so nothing was charged now: Apple switches it "
                + "to the plan you chose at its next renewal, at that plan's price. That subscription belongs to someone "
                + "else. \(moveRefusalWords(why))")
    case .ownedByAnotherAccount(canMove: false):
        Alert(
            title: "Already subscribed",
            message:
                "This Apple ID already pays for another account's subscription, and it stays with that account. You were not charged."
        )
    case .chargedForAnotherOwner where signedIn:
        Alert(
            title: "Subscription held elsewhere",
            message:
                "The App Store charged this Apple ID, but the subscription it paid for belongs to another account: "
                + "the one that asked for the payment, or the one that holds the subscription it renews. Nothing was "
                + "unlocked here. If it should be yours, Restore purchase can move it to you.")
    case .chargedForAnotherOwner:
        Alert(
            title: "Subscription held elsewhere",
            message:
                "The App Store charged this Apple ID for a subscription that belongs to someone else: another account, or this Apple ID used on another phone. Nothing was unlocked here. Log in to the account that holds it, or, if it was bought on another phone without an account, use Restore purchase here."
        )
    case .heldElsewhere(let why, let charged):
        Alert(title: "Subscription held elsewhere", message: heldElsewhereWords(why, charged: charged))
    case .heldElsewhereUnchecked(charged: true, _):
        Alert(
            title: "Subscription held elsewhere",
            message:
                "The App Store charged this Apple ID, and the payment went to a subscription held elsewhere: by an "
                + "account, or on another phone that used this Apple ID. Nothing was unlocked here. \(uncheckedWords)")
    case .heldElsewhereUnchecked(charged: false, planChanged: false):
        Alert(
            title: "Already subscribed",
            message:
                "This Apple ID already pays for this subscription, so you were not charged again. It is held "
                + "elsewhere: by an account, or on another phone that used this Apple ID. \(uncheckedWords)")
    case .heldElsewhereUnchecked(charged: false, planChanged: true):
        Alert(
            title: "Plan change set",
            message:
                "This Apple ID already pays for a subscription of this kind, so nothing was charged now: Apple switches it "
                + "to the plan you chose at its next renewal, at that plan's price. That subscription is held elsewhere: "
                + "by an account, or on another phone that used this Apple ID. \(uncheckedWords)")
    case .subscriptionNotActive:
        Alert(
            title: "Subscription not active",
            message:
                "The App Store reports this subscription as not active (a payment method to update in Settings, or a refund). Nothing was unlocked."
        )
    case .pending:
        Alert(
            title: "Waiting for approval",
            message: "A parent needs to approve this purchase. It will go through as soon as they do.")
    case .declined:
        Alert(title: "Not approved", message: "A parent declined this purchase. You were not charged.")
    case .failed(let message):
        Alert(title: "Purchase failed", message: message)
    case .serverCheckFailed(let message), .notConfirmed(let message):
        // A guest's app cannot tell whether an account holds what Restore would bring (the account's payment, its
        // appAccountToken's): told both ways, as the "already subscribed" alerts are (session 30: a guest told to
        // restore what an account held, which the server then refused).
        Alert(
            title: "Something went wrong",
            message: !signedIn && message.contains("Use Restore purchase")
                ? message + " If an account holds it, log in to that account." : message)
    case .refused(.paymentsNotAllowed):
        {
            var off = Alert(title: "Purchases are off", message: "This device is not allowed to make payments.")
            off.holdsWhile = .paymentsOff
            return off
        }()
    case .refused(.offerUnavailable):
        Alert(title: "Not available", message: "This offer cannot be bought right now.")
    case .refused(.parentalGateRequired):
        Alert(title: "Ask a grown-up", message: "A grown-up needs to answer the question first.")
    case .refused(.approvalPending):
        Alert(
            title: "Waiting for approval",
            message:
                "A request for this subscription already waits for a parent's approval: it goes through as soon as they "
                + "approve it, so nothing more is asked now.")
    case .refused(.earlierPaymentRunning):
        Alert(
            title: "Purchase in progress",
            message:
                "The App Store is still completing a payment you made before the app restarted. Wait for it to finish "
                + "before buying again.")
    case .refused(.termsChanged):
        Alert(
            title: "The offer changed",
            message:
                "Apple gives a free trial once per Apple ID, and its terms for this offer changed: the paywall now shows what you would pay. Choose again."
        )
    }
}

private func finishRestore(_ outcome: RestoreOutcome, _ state: inout AppState) -> [AppEffect] {
    state.operation = nil
    let moved = state.restoreMoves
    state.restoreMoves = false
    switch outcome {
    case .confirmMoveFromAnotherAccount:
        push(.transferPrompt(.fromAnotherAccount), &state)
        return []
    case .overtaken:
        // The sign-in (or out) that overtook it tells what the reader holds; the question it asked stays up.
        break
    case .cancelled:
        // The reader cancelled Apple's sign-in: their choice, told nothing and asked nothing, as a cancelled payment.
        return []
    case .restored, .sharedByFamily:
        popTransferPrompts(&state)
        if case .paywall = state.route { pop(&state) }
        // A subscription moved from another account was never this one's: it is not "back", it is here now.
        state.tell(
            moved
                ? movedToAccount(
                    outcome == .restored ? .own : outcome == .sharedByFamily(alsoOwn: true) ? .ownAndFamily : .family)
                : Alert(title: "Restored", message: outcome.message))
    case .partlyRestored:
        popTransferPrompts(&state)
        if case .paywall = state.route { pop(&state) }
        state.tell(Alert(title: "Restore purchase", message: outcome.message))
    default:
        popTransferPrompts(&state)
        state.tell(Alert(title: "Restore purchase", message: outcome.message))
    }
    return [.reloadAccess]
}

private func finishAccount(_ outcome: AccountOutcome, _ state: inout AppState) -> [AppEffect] {
    state.operation = nil
    switch outcome {
    case .signedIn(let offerTransfer, let refusedUntil):
        let purpose: AccountForm.Purpose
        switch state.route {
        case .login(let form), .signup(let form): purpose = form
        default: purpose = .plain
        }
        state.form = AccountForm()
        while isAccountScreen(state.route) && state.stack.count > 1 { pop(&state) }
        if let refusedUntil {
            // The server refuses the move for the limit until then: asking "Move it?", or moving it unasked where the
            // owner requires an account, would end in "moved too often". The reader is told when it can move;
            // `offerMoveToAccount` asks then.
            state.tell(moveWaitsForTheLimit(refusedUntil))
            return []
        }
        let moves = purpose == .accountRequired || state.route == .accountRequired
        if case .account(let email) = state.access.identity, offerTransfer || moves {
            // This sign-in asks, or moves it: `offerMoveToAccount` need not ask again.
            state.transferAskedFor = email
        }
        if moves {
            // Required after subscribing: the subscription moves without asking.
            state.operation = "Moving your subscription"
            return [.transferAnonymousPurchases]
        }
        if offerTransfer { push(.transferPrompt(.anonymousToAccount), &state) }
    case .transferred(let whose):
        while isAccountScreen(state.route) && state.stack.count > 1 { pop(&state) }
        if state.route == .accountRequired {
            pop(&state)
            // What the requirement was pushed over (a log-in form opened mid-purchase, the paywall) served the
            // purchase it ends: the reader is back where they were reading.
            popPurchaseAndAccountScreens(&state)
        }
        state.tell(movedToAccount(whose))
        return [.reloadAccess]
    case .loggedOut:
        // True of any account: one with no subscription is not told it had one.
        state.tell(
            Alert(
                title: "Logged out", message: "What your account holds stays with it: log in again to use it here."))
    case .notLoggedIn:
        state.tell(
            Alert(
                title: "Not logged in", message: "You are not logged in, so there is nothing to log out of."))
    case .sessionEnded(let email):
        // Never in silence: a paying reader would otherwise find their articles locked with no reason given.
        state.tell(
            Alert(
                title: "Signed out",
                message: "Your session as \(email) ended. Log in again: what your account holds stays with it."))
    case .partlyTransferred(let whose, let refusal):
        while isAccountScreen(state.route) && state.stack.count > 1 { pop(&state) }
        state.tell(partlyMovedToAccount(whose, refusal: refusal))
        return [.reloadAccess]
    case .nothingValidToMove:
        // Nothing is left on the phone to move: the question goes with it.
        while isAccountScreen(state.route) && state.stack.count > 1 { pop(&state) }
        state.tell(
            Alert(
                title: "Sorry",
                message: "Your subscription has ended, so there was nothing valid to move to your account."))
    case .failed(let message):
        // The sign-in's answer came: the form may send again.
        state.form.sent = nil
        if state.route == .transferPrompt(.anonymousToAccount) {
            // Every move that failed or could not be confirmed points to the profile ("Your profile shows where your
            // subscription is now", "Profile offers to move it again"): OK lands there, not on the question again
            // (session 28). The profile asks the server, and offers the move while the subscription is on the phone.
            popTransferPrompts(&state)
            state.tell(Alert(title: "Sorry", message: message))
            guard state.route != .profile else { return [] }
            push(.profile, &state)
            return [.reloadAccess]
        }
        state.tell(Alert(title: "Sorry", message: message))
    }
    return []
}

/// The phone's subscription cannot move to the account signed in until `until`: it moved between accounts as often as
/// the server allows (3 times in 30 days), which a sign-in's answer said.
public func moveWaitsForTheLimit(_ until: SimInstant) -> Alert {
    Alert(
        title: "Signed in",
        message:
            "Your subscription stays on this phone for now: it has moved too often recently, and a subscription moves "
            + "at most \(moveLimitWords). It can move to your account from \(until.dateDescription); Profile offers it "
            + "then.")
}

/// The server's move limit, in the reader's words.
public let moveLimitWords = "3 times in 30 days"

/// A subscription moved to the signed-in account: from the phone's guest, another account, or another phone's guest. A
/// family member's purchase shared with the Apple ID is the family's, as the profile and the restore say (session 34).
private func movedToAccount(_ whose: WhoPays) -> Alert {
    switch whose {
    case .own: Alert(title: "All set", message: "Your subscription is now on your account.")
    case .family:
        Alert(
            title: "All set",
            message:
                "The subscription your family shares with you is now on your account. The family member who bought it "
                + "pays for it.")
    case .ownAndFamily:
        Alert(
            title: "All set",
            message:
                "Your subscription is now on your account, with one your family shares with you. The family member who "
                + "bought that one pays for it.")
    }
}

/// Part of the phone's subscriptions moved to the account and the rest was refused: both are said, and where to read
/// when the rest can move (session 34: "stays on this phone" of a subscription that had moved).
private func partlyMovedToAccount(_ whose: WhoPays, refusal: String) -> Alert {
    let moved =
        switch whose {
        case .own: "Part of your subscriptions is now on your account."
        case .family:
            "The subscription your family shares with you is now on your account; the family member who bought it pays "
                + "for it."
        case .ownAndFamily:
            "Part of your subscriptions is now on your account, with one your family shares with you; the family member "
                + "who bought that one pays for it."
        }
    let rest =
        refusal == "restore_limit"
        ? "it has moved too often recently, and a subscription moves at most \(moveLimitWords). Your profile says "
            + "from when it can move."
        : RestoreOutcome.refusal(refusal).message.prefix(1).lowercased()
            + RestoreOutcome.refusal(refusal).message.dropFirst()
    return Alert(title: "Partly moved", message: "\(moved) The rest stays on this phone: \(rest)")
}

private func isAccountScreen(_ route: AppState.Route) -> Bool {
    switch route {
    case .login, .signup, .transferPrompt: true
    default: false
    }
}

private func popTransferPrompts(_ state: inout AppState) {
    while case .transferPrompt = state.route, state.stack.count > 1 { pop(&state) }
}

/// After every event: drop full versions the reader may no longer read, and fetch the one on screen.
private func settleContent(_ state: inout AppState) -> [AppEffect] {
    for (id, _) in state.fullContent {
        if let item = state.item(id), !state.access.unlocks(item.requiredLevels) { state.fullContent[id] = nil }
    }
    guard case .content(let id) = state.route, let item = state.item(id), !item.requiredLevels.isEmpty,
        state.access.unlocks(item.requiredLevels), state.fullContent[id] == nil
    else { return [] }
    state.fullContent[id] = .loading
    return [.loadFullContent(id: id, requiredLevels: item.requiredLevels)]
}

private func push(_ route: AppState.Route, _ state: inout AppState) {
    state.stack.append(route)
    state.selections.append(0)
}

private func pop(_ state: inout AppState) {
    guard state.stack.count > 1 else { return }
    state.stack.removeLast()
    state.selections.removeLast()
}
