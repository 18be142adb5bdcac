import AppFlow

/// Seed 000: "After a purchase, the page simply closes and the reader is back on the content, now unlocked."
/// Judged as the app takes a purchase's success while the paywall waits on top: the screen under it is where the
/// reader is next, or the request for an account over it where the owner requires one (invariant 19).
struct PaywallReturn {
    let below: AppState.Route

    init?(_ event: AppEvent, _ state: AppState) {
        guard case .purchaseFinished(let outcome) = event,
            outcome == .purchased || outcome == .restoredInsteadOfCharging,
            case .paywall = state.route, state.stack.count > 1
        else { return nil }
        below = state.stack[state.stack.count - 2]
    }

    /// What is wrong with where the purchase left the reader; nil when it closed onto the screen it came from.
    func broken(after state: AppState) -> String? {
        if state.route == below || state.route == .accountRequired { return nil }
        return
            "a purchase closed the paywall onto \(WorldReading.describe(state.route)), not "
            + "\(WorldReading.describe(below)) it was opened from"
    }
}
