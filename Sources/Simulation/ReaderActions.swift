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
    /// An alert on screen is dismissed first, as a reader taps OK before doing anything else.
    public func perform(_ action: ReaderAction) throws(ReaderActionError) {
        if screen.alert != nil {
            send(.select)
            if action == .back { return }
        }
        switch action {
        case .openFeed: try goToFeed()
        case .openPaywall: try openPaywall()
        case .openProfile: try openProfileScreen()
        case .openContent(let id): try openContent(id)
        case .back: try goBack()
        case .selectOffer(let id): try selectOffer(id)
        case .doubleTapOffer(let id):
            try selectOffer(id)
            send(.select)
        case .subscribe:
            if screen.id == .appStoreSheet { return try pressSelectable(at: 0) }
            guard screen.id == .content else { throw notHere("Subscribe", "a locked article or Apple's sheet") }
            try press("Subscribe")
        case .answerGate(let answer): try answerGate(answer)
        case .confirmPayment: try answerSheet(confirm: true)
        case .cancelPayment: try answerSheet(confirm: false)
        case .restore: try press("Restore purchase")
        case .logIn(let email, let password): try logIn(email, password)
        case .signUp(let email, let password): try signUp(email, password)
        case .logOut:
            try openProfileScreen()
            try press("Log out")
        case .acceptTransfer where screen.id == .profile:
            try press("Move my subscription to my account")
        case .acceptTransfer, .declineTransfer:
            guard screen.id == .transferPrompt else { throw notHere("a transfer prompt", "the transfer prompt") }
            try pressSelectable(at: action == .acceptTransfer ? 0 : 1)
        case .manageSubscription: try manageSubscription()
        case .setAutoRenew(let enabled):
            if screen.id != .manageSubscription { try manageSubscription() }
            try press(enabled ? "Renew automatically" : "Cancel subscription")
        case .changePlan(let productId):
            if screen.id != .manageSubscription { try manageSubscription() }
            try press(appState.switchPlanLabel(productId))
        case .openLogin, .openSignup:
            let label = action == .openLogin ? "Log in" : "Create an account"
            if !screen.rows.contains(where: { $0.isSelectable && $0.text == label }) { try openProfileScreen() }
            try press(label)
        }
    }

    /// Highlights the selectable row whose text contains `text` and presses Enter.
    public func press(_ text: String) throws(ReaderActionError) {
        try highlightChoice(text)
        send(.select)
    }

    /// Moves the highlight to the selectable row whose text contains `text`.
    public func highlightChoice(_ text: String) throws(ReaderActionError) {
        let labels = selectableRows.map { screen.rows[$0].text }
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

    private var selectableRows: [Int] { screen.rows.indices.filter { screen.rows[$0].isSelectable } }

    private func pressSelectable(at index: Int) throws(ReaderActionError) {
        guard selectableRows.indices.contains(index) else {
            throw ReaderActionError("nothing to choose at row \(index + 1) of \(screen.visibleID.rawValue)")
        }
        moveHighlight(to: index)
        send(.select)
    }

    private func settle() { scheduler.runUntilIdle() }

    private func notHere(_ what: String, _ whereItIs: String) -> ReaderActionError {
        ReaderActionError("no \(what) on \(screen.visibleID.rawValue): it is on \(whereItIs)")
    }

    private func goBack() throws(ReaderActionError) {
        let before = appState.stack.count
        let hadSheet = screen.id == .appStoreSheet
        send(.back)
        guard hadSheet || appState.stack.count < before else {
            throw ReaderActionError("back does nothing on \(screen.visibleID.rawValue)")
        }
    }

    private func goToFeed() throws(ReaderActionError) {
        if screen.id == .appStoreSheet {
            throw ReaderActionError("Apple's payment sheet is up: confirm payment or cancel payment first")
        }
        while appState.stack.count > 1 {
            let before = appState.stack.count
            send(.back)
            if screen.alert != nil { send(.select) }
            guard appState.stack.count < before else {
                throw ReaderActionError("cannot leave \(screen.visibleID.rawValue) for the feed")
            }
        }
    }

    private func openProfileScreen() throws(ReaderActionError) {
        guard screen.id != .profile else { return }
        try goToFeed()
        try press("Profile")
        settle()
    }

    private func openContent(_ id: String) throws(ReaderActionError) {
        guard let index = appState.app.content.firstIndex(where: { $0.id == id }) else {
            let known = appState.app.content.map(\.id).joined(separator: ", ")
            throw ReaderActionError("no content \(id) in \(appState.app.name) (content: \(known))")
        }
        try goToFeed()
        // The feed lists every piece of content first, in order, then Profile.
        try pressSelectable(at: index)
    }

    private func openPaywall() throws(ReaderActionError) {
        if screen.id == .paywall { return }
        if screen.id == .content, selectableRows.contains(where: { screen.rows[$0].text == "Subscribe" }) {
            try press("Subscribe")
            return
        }
        let state = appState
        guard let locked = state.app.content.first(where: { !state.access.unlocks($0.requiredLevels) }) else {
            throw ReaderActionError("no locked content to open the paywall from: the reader can read everything")
        }
        try openContent(locked.id)
        try press("Subscribe")
    }

    private func selectOffer(_ id: String) throws(ReaderActionError) {
        guard screen.id == .paywall else { throw notHere("offer \(id)", "the paywall") }
        guard let offers = appState.offers else { throw ReaderActionError("the paywall's offers are still loading") }
        guard let index = offers.firstIndex(where: { $0.id == id }) else {
            let shown = offers.map(\.id).joined(separator: ", ")
            throw ReaderActionError("no offer \(id) on the paywall (offers: \(shown.isEmpty ? "none" : shown))")
        }
        // The paywall lists its offers first, in order, then Restore and Log in.
        try pressSelectable(at: index)
    }

    private func answerGate(_ answer: String) throws(ReaderActionError) {
        guard screen.id == .parentalGate else { throw notHere("parental gate", "a kids app's way to Apple's sheet") }
        try fill(field: 0, with: answer)
        try pressSelectable(at: 1)
    }

    private func answerSheet(confirm: Bool) throws(ReaderActionError) {
        guard screen.id == .appStoreSheet else {
            throw ReaderActionError(
                "no payment sheet on \(screen.visibleID.rawValue) to \(confirm ? "confirm" : "cancel")")
        }
        try pressSelectable(at: confirm ? 0 : 1)
    }

    private func logIn(_ email: String, _ password: String) throws(ReaderActionError) {
        if screen.id != .login {
            if screen.id == .feed || screen.id == .content { try openProfileScreen() }
            try press("Log in")
        }
        try submitForm(email, password)
    }

    private func signUp(_ email: String, _ password: String) throws(ReaderActionError) {
        if screen.id != .signup {
            if screen.id == .feed || screen.id == .content { try openProfileScreen() }
            if screen.id == .paywall { try press("Log in") }
            try press("Create an account")
        }
        try submitForm(email, password)
    }

    /// Log in and sign up share one form: email, password, then the submit button.
    private func submitForm(_ email: String, _ password: String) throws(ReaderActionError) {
        try fill(field: 0, with: email)
        try fill(field: 1, with: password)
        try pressSelectable(at: 2)
    }

    /// Replaces what the `index`th selectable row (a text field) holds with `text`.
    private func fill(field index: Int, with text: String) throws(ReaderActionError) {
        let selectable = selectableRows
        guard selectable.indices.contains(index), screen.rows[selectable[index]].isField else {
            throw ReaderActionError("no text field at row \(index + 1) of \(screen.visibleID.rawValue)")
        }
        moveHighlight(to: index)
        for _ in screen.rows[selectable[index]].value { send(.deleteBackward) }
        for character in text { send(.character(character)) }
    }

    private func manageSubscription() throws(ReaderActionError) {
        try openProfileScreen()
        try press("Manage my subscription")
        settle()
    }
}
