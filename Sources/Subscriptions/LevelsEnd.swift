import SimKernel

/// The levels the server gave, until when: every answer says when they could first end by themselves (a period's
/// end, a grace period's). Past it, the phone asks again before the reader sees more of them: an ended
/// subscription's cached article stayed open, its ads hidden, until a screen happened to ask (session 26).
extension SubscriptionCoordinator {
    /// The end the server gave the levels the phone shows, once it has passed and was not asked about yet.
    var lapsedLevelsEnd: SimInstant? {
        guard access.isSubscriber else { return nil }
        // Kept with the levels on the phone: a launch whose first ask did not come back knows it too.
        let ends = [
            storage.accountSession.flatMap { $0.levels.isEmpty ? nil : $0.levelsUntil },
            storage.anonymousIdentity.flatMap { $0.levels.isEmpty ? nil : $0.levelsUntil },
        ]
        guard let end = ends.compactMap({ $0 }).min().map(SimInstant.init(milliseconds:)), clock() >= end,
            levelsEndAsked != end
        else { return nil }
        return end
    }

    /// Asks the server again when the levels' end has passed (once per end: an answer that does not come leaves the
    /// phone with what the backend said last, as any failed reload), then `then`; at once otherwise.
    public func askAgainIfLevelsEnded(then: @escaping () -> Void = {}) {
        guard let end = lapsedLevelsEnd else { return then() }
        levelsEndAsked = end
        log("the levels were given until \(end): the server is asked again")
        reloadAccess { _ in then() }
    }
}
