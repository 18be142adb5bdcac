import AppFlow

/// Session 26, README's "a stray key moves no money": Apple's sheet asks for a deliberate act. Judged as one of
/// Apple's sheets appears (the payment or price-consent sheet, or the manage sheet with other choices than a moment
/// before: its first answer, one after a change): the choice it highlights moves no money, so an Enter pressed before
/// the reader saw it (a double press on an offer, on "Manage my subscription") cancels or closes it rather than paying
/// or cancelling a subscription (invariant 24).
struct SheetFocus {
    /// The manage sheet's choices before its answer; nil for a payment sheet.
    private let before: [Choice]?

    /// `state` read only for the events judged: handed over, a class's stored state is copied whole.
    init?(_ event: AppEvent, _ state: @autoclosure () -> AppState) {
        switch event {
        case .paymentSheet(let sheet?):
            guard sheet != state().paymentSheet else { return nil }
            before = nil
        case .manageSheetShown:
            let state = state()
            guard state.route == .manageSubscription && state.paymentSheet == nil else { return nil }
            before = state.screen.choices
        default: return nil
        }
    }

    /// Whether the reader has not seen the sheet now shown: a payment sheet that appeared, a manage sheet whose
    /// choices changed.
    func appeared(_ state: AppState) -> Bool {
        guard let before else { return true }
        return state.screen.choices != before
    }

    /// The money-moving choice the sheet opened on, if it did.
    func broken(after state: AppState) -> String? {
        let screen = state.screen
        guard appeared(state), screen.id == .appStoreSheet || screen.id == .manageSubscription,
            let row = screen.selection, screen.rows[row].choice?.movesMoney == true
        else { return nil }
        return
            "Apple's \(screen.id == .appStoreSheet ? "sheet" : "manage sheet") opened with \"\(screen.rows[row].text)\" "
            + "highlighted: one Enter pressed before the reader saw it moves money"
    }
}
