import AppFlow
import SimKernel

/// Why an action cannot be done on the screen the phone shows, in the words of the screen.
public struct ReaderActionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension World {
    /// Does `action` as a reader would, by moving the highlight and pressing Enter. Screens that load
    /// on the way (the profile's subscriptions, the paywall's offers) are waited for; the last press is not.
    /// Alerts on screen are dismissed first, as a reader taps OK on each (those told meanwhile come in turn) before
    /// doing anything else.
    public func perform(_ action: ReaderAction) throws(ReaderActionError) {
        if appState.alert != nil {
            dismissAlerts()
            if action == .back { return }
        }
        switch action {
        case .openFeed: try goToFeed()
        case .openPaywall: try openPaywall()
        case .openProfile: try openProfileScreen(waiting: false)
        case .openContent(let id): try openContent(id)
        case .back: try goBack()
        case .selectOffer(let id): try selectOffer(id)
        case .doubleTapOffer(let id):
            try selectOffer(id)
            send(.select)
        case .subscribe:
            // On Apple's sheet, Subscribe is its confirm button.
            if screenID == .appStoreSheet { return try choose(.confirmPayment, "Subscribe") }
            guard screenID == .content else { throw notHere("Subscribe", "a locked article or Apple's sheet") }
            try choose(.subscribe, "Subscribe")
        case .answerGate(let answer): try answerGate(answer)
        case .confirmPayment, .cancelPayment: try answerSheet(action)
        case .restore: try choose(.restore, "Restore purchase")
        case .logIn(let email, let password): try logIn(email, password)
        case .signUp(let email, let password): try signUp(email, password)
        case .logOut:
            if appState.row(doing: .logOut, on: screen) == nil { try openProfileScreen() }
            try choose(.logOut, "Log out")
        case .acceptTransfer where screenID == .profile || screenID == .accountRequired:
            try choose(.acceptTransfer, "Move my subscription to my account")
        case .declineTransfer where screenID == .accountRequired:
            try choose(.declineTransfer, "Not now")
        case .acceptTransfer, .declineTransfer:
            guard screenID == .transferPrompt else { throw notHere("a transfer prompt", "the transfer prompt") }
            try choose(action, action == .acceptTransfer ? "Move it" : "Not now")
        case .manageSubscription: try manageSubscription(waiting: false)
        case .setAutoRenew(let enabled, let productId):
            if screenID != .manageSubscription { try manageSubscription() }
            let named = productId.map { " of \($0)" } ?? ""
            try choose(action, (enabled ? "Renew automatically" : "Cancel subscription") + named)
        case .changePlan(let productId):
            if screenID != .manageSubscription { try manageSubscription() }
            try choose(action, appState.switchPlanLabel(productId))
        case .openLogin, .openSignup:
            if appState.row(doing: action, on: screen) == nil { try openProfileScreen() }
            try choose(action, action == .openLogin ? "Log in" : "Create an account")
        }
    }

    /// Highlights the selectable row whose text contains `text` and presses Enter.
    public func press(_ text: String) throws(ReaderActionError) {
        try highlightChoice(text)
        send(.select)
    }

    /// Moves the highlight to the selectable row whose text contains `text`.
    public func highlightChoice(_ text: String) throws(ReaderActionError) {
        let rows = screen.rows
        let labels = selectableRows.map { rows[$0].text }
        guard let target = labels.firstIndex(where: { $0.contains(text) }) else {
            let listed = labels.map { "\"\($0)\"" }.joined(separator: ", ")
            throw ReaderActionError("no \"\(text)\" to choose on \(screen.visibleID.rawValue) (choices: \(listed))")
        }
        moveHighlight(to: target)
    }

    /// Moves the highlight to the `index`th selectable row.
    public func moveHighlight(to index: Int) {
        let selectable = selectableRows
        let current = screen.selection.flatMap { selectable.firstIndex(of: $0) } ?? 0
        for _ in 0..<abs(index - current) { send(index > current ? .down : .up) }
    }

    /// The screen is read once: each `screen` is a copy of the kept model, and one a row was most of a move.
    private var selectableRows: [Int] {
        let rows = screen.rows
        return rows.indices.filter { rows[$0].isSelectable }
    }

    /// Highlights the row that does `action` on the screen shown, wherever the screen puts it, and
    /// presses Enter; `label` names it in the error when there is none.
    private func choose(_ action: ReaderAction, _ label: String) throws(ReaderActionError) {
        // An alert that came on the way (an answer that arrived while a screen loaded) is tapped away first, as
        // `perform` does with one already up: a reader reads it, taps OK, and goes on.
        dismissAlerts()
        guard let row = appState.row(doing: action, on: screen), let index = selectableRows.firstIndex(of: row) else {
            let listed = selectableRows.map { "\"\(screen.rows[$0].text)\"" }.joined(separator: ", ")
            throw ReaderActionError("no \"\(label)\" to choose on \(screen.visibleID.rawValue) (choices: \(listed))")
        }
        moveHighlight(to: index)
        // A highlight that cannot reach the row would make Enter choose another one, or nothing: a step not done.
        guard screen.selection == row else {
            throw ReaderActionError("the highlight does not reach \"\(label)\" on \(screen.visibleID.rawValue)")
        }
        send(.select)
    }

    private func settle() { scheduler.runUntilIdle() }

    /// OK on every alert up, one after the other.
    private func dismissAlerts() {
        while appState.alert != nil { send(.select) }
    }

    private func notHere(_ what: String, _ whereItIs: String) -> ReaderActionError {
        ReaderActionError("no \(what) on \(screen.visibleID.rawValue): it is on \(whereItIs)")
    }

    private func goBack() throws(ReaderActionError) {
        let before = appState.stack.count
        let hadSheet = screenID == .appStoreSheet
        send(.back)
        guard hadSheet || appState.stack.count < before else {
            throw ReaderActionError("back does nothing on \(screen.visibleID.rawValue)")
        }
    }

    private func goToFeed() throws(ReaderActionError) {
        if screenID == .appStoreSheet {
            throw ReaderActionError("Apple's payment sheet is up: confirm payment or cancel payment first")
        }
        while appState.stack.count > 1 {
            let before = appState.stack.count
            send(.back)
            dismissAlerts()
            guard appState.stack.count < before else {
                throw ReaderActionError("cannot leave \(screen.visibleID.rawValue) for the feed")
            }
        }
    }

    /// On the way to another action the profile's refresh (`GET /v1/me`) is waited for; as the step itself it is
    /// the last press, which the step's own `without waiting` decides on: a recording's profile opened and left
    /// 342 ms later replays on the profile as it was then, not as the server's answer 7 s later made it (session 30).
    private func openProfileScreen(waiting: Bool = true) throws(ReaderActionError) {
        guard screenID != .profile else { return }
        try goToFeed()
        try choose(.openProfile, "Profile")
        if waiting { settle() }
    }

    private func openContent(_ id: String) throws(ReaderActionError) {
        guard appState.app.content.contains(where: { $0.id == id }) else {
            let known = appState.app.content.map(\.id).joined(separator: ", ")
            throw ReaderActionError("no content \(id) in \(appState.app.name) (content: \(known))")
        }
        try goToFeed()
        try choose(.openContent(id), id)
    }

    private func openPaywall() throws(ReaderActionError) {
        if screenID == .paywall { return }
        if screenID == .content, appState.row(doing: .subscribe, on: screen) != nil {
            try choose(.subscribe, "Subscribe")
            return
        }
        let state = appState
        guard let locked = state.app.content.first(where: { !state.access.unlocks($0.requiredLevels) }) else {
            throw ReaderActionError("no locked content to open the paywall from: the reader can read everything")
        }
        try openContent(locked.id)
        try choose(.subscribe, "Subscribe")
    }

    private func selectOffer(_ id: String) throws(ReaderActionError) {
        let owners = appState.app.subscriptions.map(\.id)
        // An offer the owner never configured is on no screen: "it is on the paywall" would send the reader there.
        guard owners.contains(id) else {
            throw ReaderActionError(
                "no offer \(id) in \(appState.app.name) (its offers: \(owners.joined(separator: ", ")))")
        }
        guard screenID == .paywall else { throw notHere("offer \(id)", "the paywall") }
        // The paywall's: a subscriber's leaves out the groups held (session 28).
        guard let offers = appState.paywallOffers else {
            throw ReaderActionError("the paywall's offers are still loading")
        }
        guard offers.contains(where: { $0.id == id }) else {
            let shown = offers.map(\.id).joined(separator: ", ")
            throw ReaderActionError("no offer \(id) on the paywall (offers: \(shown.isEmpty ? "none" : shown))")
        }
        try choose(.selectOffer(id), id)
    }

    private func answerGate(_ answer: String?) throws(ReaderActionError) {
        guard screenID == .parentalGate else {
            throw notHere("parental gate", "the way to Apple's sheet of a kids app or an under-age reader")
        }
        // The right answer is read from the question on screen, as a grown-up reads it.
        guard let typed = answer ?? screen.rows.lazy.compactMap({ ParentalGate.answer(to: $0.text) }).first else {
            throw ReaderActionError("the parental gate shows no question to answer")
        }
        try fill(.gateAnswer, with: typed)
        try choose(.answerGate(typed), "Continue")
    }

    private func answerSheet(_ action: ReaderAction) throws(ReaderActionError) {
        let confirm = action == .confirmPayment
        guard screenID == .appStoreSheet else {
            throw ReaderActionError(
                "no payment sheet on \(screen.visibleID.rawValue) to \(confirm ? "confirm" : "cancel")")
        }
        try choose(action, confirm ? "Subscribe" : "Cancel")
    }

    /// The paywall's "Log in" in the owner's words for the phone's language; elsewhere the app's own.
    private var logInLabel: String { screenID == .paywall ? appState.paywallText.logIn ?? "Log in" : "Log in" }

    private func logIn(_ email: String, _ password: String) throws(ReaderActionError) {
        if screenID != .login {
            if screenID == .feed || screenID == .content { try openProfileScreen() }
            try choose(.openLogin, "Log in")
        }
        try submitForm(.logIn(email: email, password: password), email, password)
    }

    private func signUp(_ email: String, _ password: String) throws(ReaderActionError) {
        if screenID != .signup {
            if screenID == .feed || screenID == .content { try openProfileScreen() }
            if screenID == .paywall { try choose(.openLogin, "Log in") }
            try choose(.openSignup, "Create an account")
        }
        try submitForm(.signUp(email: email, password: password), email, password)
    }

    /// Log in and sign up share one form: email, password, then its submit button.
    private func submitForm(_ submit: ReaderAction, _ email: String, _ password: String) throws(ReaderActionError) {
        try fill(.email, with: email)
        try fill(.password, with: password)
        try choose(submit, submit == .logIn(email: email, password: password) ? "Log in" : "Create account")
    }

    /// Replaces what the text field `field` holds with `text`.
    private func fill(_ field: TextField, with text: String) throws(ReaderActionError) {
        guard let row = screen.row(editing: field), let index = selectableRows.firstIndex(of: row) else {
            throw ReaderActionError("no \(field) field on \(screen.visibleID.rawValue)")
        }
        moveHighlight(to: index)
        for _ in screen.rows[row].value { send(.deleteBackward) }
        for character in text { send(.character(character)) }
    }

    /// Apple's manage sheet loads its list: waited for on the way to a choice on it, not as the step itself.
    private func manageSubscription(waiting: Bool = true) throws(ReaderActionError) {
        try openProfileScreen()
        try choose(.manageSubscription, "Manage my subscription")
        if waiting { settle() }
    }
}
