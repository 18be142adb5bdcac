/// What a reader's input means in the app's own terms: the choice a select performs, or going back.
public enum ReaderIntent: Equatable, Sendable {
    case openContent(String)
    case subscribe
    case selectOffer(String)
    case answerGate(String)
    case confirmPayment
    case cancelPayment
    case openProfile
    case restore
    case openLogin
    case openSignup
    case logIn(email: String, password: String)
    case signUp(email: String, password: String)
    case acceptTransfer
    case declineTransfer
    case logOut
    case manageSubscription
    case setAutoRenew(Bool)
    /// A screen closes (Esc, or Done).
    case back

    /// What `input` will do in `state`, read before it is reduced: nil for moving, typing, moving to
    /// the next field, dismissing an alert, or a key that does nothing here.
    public static func of(_ input: ReaderInput, in state: AppState) -> ReaderIntent? {
        guard state.alert == nil else { return nil }
        switch input {
        case .select:
            let choices = ScreenBuilder.build(state).choices
            guard choices.indices.contains(state.selection) else { return nil }
            return of(choices[state.selection], in: state)
        case .back:
            if state.paymentSheet != nil { return .cancelPayment }
            switch state.route {
            case .paywall where state.purchase != nil: return nil
            case .accountRequired: return nil
            default: break
            }
            return state.operation == nil && state.stack.count > 1 ? .back : nil
        case .up, .down, .character, .deleteBackward:
            return nil
        }
    }

    private static func of(_ choice: Choice, in state: AppState) -> ReaderIntent? {
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
        case .setAutoRenew(let enabled): .setAutoRenew(enabled)
        case .done: .back
        }
    }
}
