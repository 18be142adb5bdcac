import AppFlow

/// Seed 000: "After a purchase, the page simply closes and the reader is back on the content, now unlocked", and
/// "the app then reloads the account, or saves the new anonymous identity. Only then does anything unlock, and only
/// then does the subscription page close." Judged as the app takes a purchase's success while the paywall waits on
/// top: the phone already shows the levels the server gave, and the screen under the paywall is where the reader is
/// next, or the request for an account over it where the owner requires one (invariant 19).
struct PaywallReturn {
    let below: AppState.Route

    /// `stack`: the app state's, not the state: `Device.handle` would copy the whole state for every event.
    init?(_ event: AppEvent, stack: [AppState.Route]) {
        guard case .purchaseFinished(let outcome) = event,
            [.purchased, .restoredInsteadOfCharging, .sharedInsteadOfCharging].contains(outcome),
            case .paywall = stack.last, stack.count > 1
        else { return nil }
        below = stack[stack.count - 2]
    }

    /// What is wrong with where the purchase left the reader; nil when it closed onto the screen it came from.
    func broken(after state: AppState) -> String? {
        if !state.access.isSubscriber {
            return "a purchase closed the paywall before the phone held any level from the server"
        }
        if state.route == below || state.route == .accountRequired { return nil }
        // Signed in as the phone's own purchase landed: the question whether to move it to the account stands over
        // the screen the paywall was opened from (seed 000: "the app asks whether to transfer the subscription").
        if state.route == .transferPrompt(.anonymousToAccount), state.stack.dropLast().last == below { return nil }
        return
            "a purchase closed the paywall onto \(WorldReading.describe(state.route)), not "
            + "\(WorldReading.describe(below)) it was opened from"
    }
}
