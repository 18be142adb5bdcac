/// What Esc (or Back) does in a state: the one rule `reduce` applies and `ReaderAction.of` reports.
enum BackRule: Equatable {
    /// Apple's sheet is up: Esc is its Cancel.
    case cancelPayment
    /// The screen on top closes.
    case close
    /// Nothing: a purchase runs on the paywall, an account is required, an operation runs, or this is the feed.
    case refused

    init(_ state: AppState) {
        if state.paymentSheet != nil {
            self = .cancelPayment
            return
        }
        switch state.route {
        case .paywall where state.purchase != nil: self = .refused
        // Required: the reader logs in or signs up. Signed in, a move that failed may wait (the profile offers it).
        case .accountRequired where !state.isSignedIn: self = .refused
        default: self = state.operation == nil && state.stack.count > 1 ? .close : .refused
        }
    }
}
