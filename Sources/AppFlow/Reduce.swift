import Subscriptions

/// The app's update function: the new state, and the effects to run. Pure: no store, no backend, no clock.
public func reduce(_ state: inout AppState, _ event: AppEvent) -> [AppEffect] {
    var effects: [AppEffect] = []
    switch event {
    case .launched:
        effects.append(.loadCatalog)
    case .reader(let input):
        effects += handle(input, &state)
    case .catalogLoaded(let offers):
        state.offers = offers
    case .accessChanged(let access):
        state.access = access
    case .paymentSheet(let sheet):
        state.paymentSheet = sheet
        if sheet != nil {
            state.selections.append(0)
        } else if state.selections.count > state.stack.count {
            state.selections.removeLast()
        }
    case .purchaseStage(let stage):
        if let purchase = state.purchase { state.purchase = (purchase.offerId, stage) }
    case .purchaseFinished(let outcome):
        finishPurchase(outcome, &state)
    case .fullContentLoaded(let id, let body):
        state.fullContent[id] = .loaded(body)
    case .fullContentFailed(let id, let message):
        state.fullContent[id] = .failed(message)
    }
    return effects + settleContent(&state)
}

private func handle(_ input: ReaderInput, _ state: inout AppState) -> [AppEffect] {
    if state.alert != nil {
        if input == .select || input == .back { state.alert = nil }
        return []
    }
    let choices = ScreenBuilder.build(state).choices
    switch input {
    case .up:
        state.selection = max(0, state.selection - 1)
    case .down:
        state.selection = min(max(0, choices.count - 1), state.selection + 1)
    case .select:
        guard choices.indices.contains(state.selection) else { return [] }
        return perform(choices[state.selection], &state)
    case .back:
        if state.paymentSheet != nil { return [.answerPaymentSheet(confirm: false)] }
        if case .paywall = state.route, state.purchase != nil { return [] }
        pop(&state)
    case .character, .deleteBackward:
        break
    }
    return []
}

private func perform(_ choice: Choice, _ state: inout AppState) -> [AppEffect] {
    switch choice {
    case .openContent(let id):
        push(.content(id: id), &state)
    case .openPaywall(let contentId):
        push(.paywall(fromContent: contentId), &state)
        return state.offers == nil ? [.loadCatalog] : []
    case .buy(let offerId):
        if state.purchase == nil { state.purchase = (offerId, .waitingForStore) }
        return [.purchase(offerId: offerId)]
    case .confirmPayment:
        return [.answerPaymentSheet(confirm: true)]
    case .cancelPayment:
        return [.answerPaymentSheet(confirm: false)]
    }
    return []
}

private func finishPurchase(_ outcome: PurchaseOutcome, _ state: inout AppState) {
    if outcome == .refused(.purchaseInProgress) {
        state.alert = Alert(title: "Purchase in progress", message: "Please wait for the current purchase to finish.")
        return
    }
    state.purchase = nil
    switch outcome {
    case .purchased:
        // Only now, with the backend's levels published, does the paywall close.
        if case .paywall = state.route { pop(&state) }
    case .cancelled:
        break
    case .pending:
        state.alert = Alert(title: "Waiting for approval", message: "A parent needs to approve this purchase.")
    case .failed(let message):
        state.alert = Alert(title: "Purchase failed", message: message)
    case .serverCheckFailed(let message):
        state.alert = Alert(title: "Something went wrong", message: message)
    case .refused(.paymentsNotAllowed):
        state.alert = Alert(title: "Purchases are off", message: "This device is not allowed to make payments.")
    case .refused(.offerUnavailable):
        state.alert = Alert(title: "Not available", message: "This offer cannot be bought right now.")
    case .refused(.purchaseInProgress):
        break
    }
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
