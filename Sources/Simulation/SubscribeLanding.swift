import AppFlow

/// Seed 000: "A subscriber who taps "Subscribe" lands on their profile instead." Judged as the app takes a tap on
/// Subscribe from a reader whose access is known, or one it kept while that access loaded: a reader it shows
/// levels for is next on the profile (or the owner's request for an account over it), not on the paywall, and not
/// left where they tapped (invariant 19).
struct SubscribeLanding {
    /// A tap on Subscribe; nil for any other input, or one made while the reader's access loads (judged once known).
    init?(_ input: ReaderInput, _ state: AppState, choices: [Choice]) {
        guard state.access.isKnown, ReaderAction.of(input, in: state, choices: choices) == .subscribe else {
            return nil
        }
    }

    /// A tap the app kept while the reader's access loaded, answered by the event about to be reduced.
    init?(pendingIn state: AppState) {
        guard state.pendingSubscribe != nil else { return nil }
    }

    /// What is wrong with where the tap left the reader; nil when it was not a subscriber's, or not answered yet.
    func broken(after state: AppState) -> String? {
        guard state.pendingSubscribe == nil, state.access.isSubscriber, state.route != .profile,
            state.route != .accountRequired
        else { return nil }
        let levels = Set(state.access.levels.map(\.rawValue))
        return
            "a reader holding \(WorldReading.list(levels)) tapped Subscribe and is on \(WorldReading.describe(state.route)), not the profile"
    }
}
