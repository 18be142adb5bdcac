/// What a reader means to do, in the app's own terms, whatever keys it took. One vocabulary for
/// everything that speaks of the reader: the device reports each action as it happens (recordings),
/// `World.perform` does one by moving the highlight and pressing Enter (scenarios, the fuzzer).
public enum ReaderAction: Equatable, Sendable {
    case openFeed
    case openPaywall
    case openProfile
    case openContent(String)
    /// Esc or Done: an alert, or the screen on top, closes.
    case back
    case selectOffer(String)
    /// Two taps on an offer before Apple's sheet can appear: how a second payment starts while one runs.
    case doubleTapOffer(String)
    /// Subscribe on a locked piece of content (to the paywall), or on Apple's sheet.
    case subscribe
    /// The parental gate's answer, typed as is; nil: a grown-up answers the question shown right (a scenario's
    /// `answer gate`, the fuzzer's), worked out when it is done. The phone reports what was typed.
    case answerGate(String?)
    case confirmPayment
    case cancelPayment
    case restore
    case openLogin
    case openSignup
    case logIn(email: String, password: String)
    case signUp(email: String, password: String)
    case logOut
    case acceptTransfer
    case declineTransfer
    case manageSubscription
    /// In the store's "Manage my subscription": auto-renew off (cancel) or back on, of the subscription on `productId`;
    /// nil for the sheet's only one (or its first).
    case setAutoRenew(Bool, productId: String? = nil)
    /// In the store's "Manage my subscription": switch to another plan of the group (a product id).
    case changePlan(String)

    /// What `input` will do in `state`, read before it is reduced: nil for moving, typing, moving to
    /// the next field, dismissing an alert, or a key that does nothing here. `choices`: `state.screen`'s, if built.
    public static func of(_ input: ReaderInput, in state: AppState, choices known: [Choice]? = nil) -> ReaderAction? {
        guard state.alert == nil else { return nil }
        switch input {
        case .select:
            let choices = known ?? ScreenBuilder.build(state).choices
            guard let highlighted = state.highlighted(among: choices.count) else { return nil }
            return of(Choice.entered(at: highlighted, among: choices), in: state)
        case .back:
            switch BackRule(state) {
            case .cancelPayment: return .cancelPayment
            case .close: return .back
            case .refused: return nil
            }
        case .up, .down, .character, .deleteBackward:
            return nil
        }
    }

    /// What choosing `choice` does, with what was typed into the state's fields.
    static func of(_ choice: Choice, in state: AppState) -> ReaderAction? {
        switch choice {
        case .openContent(let id): .openContent(id)
        case .subscribe: .subscribe
        case .buy(let offerId): .selectOffer(offerId)
        case .answerGate: .answerGate(state.gate?.answer ?? "")
        case .confirmPayment: .confirmPayment
        case .cancelPayment: .cancelPayment
        case .openProfile: .openProfile
        case .restore: .restore
        case .openLogin: .openLogin
        case .openSignup: .openSignup
        case .edit: nil
        case .submitLogIn: .logIn(email: state.form.email, password: state.form.password)
        case .submitSignUp: .signUp(email: state.form.email, password: state.form.password)
        case .acceptTransfer: .acceptTransfer
        case .declineTransfer: .declineTransfer
        case .logOut: .logOut
        case .manageSubscription: .manageSubscription
        // Named only where the sheet lists more than one subscription: which one is then what the reader chose.
        case .setAutoRenew(let enabled, let productId):
            .setAutoRenew(
                enabled, productId: (state.manageSheet ?? []).filter { !$0.sharedByFamily }.count > 1 ? productId : nil)
        case .changePlan(let productId): .changePlan(productId)
        case .done: .back
        }
    }
}
