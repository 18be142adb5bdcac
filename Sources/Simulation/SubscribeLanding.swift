import AppFlow

/// Seed 000: "A subscriber who taps "Subscribe" lands on their profile instead", read per level (session 27). Judged
/// as the app takes a tap on Subscribe from a reader whose access is known, or one it kept while that access (or a
/// subscriber's list of subscriptions) loaded: a reader it shows levels for is next on a paywall while the store sells
/// a group neither the Apple ID nor the reader holds (a reader lacking a level the catalog sells can buy it), else on
/// the profile (or the owner's request for an account over either), and not left where they tapped (invariant 19).
struct SubscribeLanding {
    /// A tap on Subscribe; nil for any other input, or one made while the reader's access loads (judged once known).
    init?(_ input: ReaderInput, _ state: AppState, choices: [Choice]) {
        guard state.access.isKnown, ReaderAction.of(input, in: state, choices: choices) == .subscribe else {
            return nil
        }
        if case .content(let id) = state.route { article = id }
    }

    /// The article the tap was made on, if any.
    private var article: String?

    /// The server did not list the reader's subscriptions: which groups they hold is unknown, and the profile is right.
    private var unanswered = false

    /// A tap the app kept while the reader's access loaded, answered by the event about to be reduced.
    init?(pending: PendingSubscribe?, event: AppEvent) {
        guard let pending else { return nil }
        unanswered = event == .subscriptionsUnanswered
        article = pending.fromContent
    }

    /// What is wrong with where the tap left the reader; nil when it was not a subscriber's, or not answered yet.
    /// `unheld`: the subscription groups the store sells here that neither the phone's Apple ID nor the reader holds;
    /// `lacked`: those the reader does not hold by the server's list (the Apple ID may pay for one the server does not
    /// grant yet: the paywall's purchase or restore brings it, fuzz --storekit, session 27).
    func broken(after state: AppState, unheld: Set<String>, lacked: Set<String>) -> String? {
        guard state.pendingSubscribe == nil, state.access.isSubscriber, state.route != .accountRequired else {
            return nil
        }
        // The article unlocked while the tap waited (a purchase approved meanwhile): nothing left to sell for it, wherever
        // the reader went since (back to the feed while an upgrade was told, long fuzz seed 1252).
        var unlocked = article.flatMap(state.item).map { state.access.unlocks($0.requiredLevels) } ?? false
        if case .content(let id) = state.route, let item = state.item(id) {
            unlocked = unlocked || state.access.unlocks(item.requiredLevels)
        }
        if unlocked { return nil }
        let levels = WorldReading.list(Set(state.access.levels.map(\.rawValue)))
        let groups = WorldReading.list(unheld)
        switch state.route {
        case .profile where unheld.isEmpty || unanswered: return nil
        case .profile:
            return "a reader holding \(levels) tapped Subscribe on a locked article and is on the profile, while the "
                + "store sells \(groups), which they do not hold"
        case .paywall where !lacked.isEmpty: return nil
        default:
            return "a reader holding \(levels) tapped Subscribe and is on \(WorldReading.describe(state.route)), not "
                + (lacked.isEmpty ? "the profile" : "a paywall offering \(WorldReading.list(lacked))")
        }
    }
}
