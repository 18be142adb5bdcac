import SimKernel

/// The levels the server gave, until when: every answer says when they could first end by themselves (a period's
/// end, a grace period's). Past it, the phone asks again before the reader sees more of them: an ended
/// subscription's cached article stayed open, its ads hidden, until a screen happened to ask (session 26).
extension SubscriptionCoordinator {
    /// The earliest end the server gave levels the phone shows, once it has passed and was not asked about yet. Each
    /// identity's levels (the account's, the phone's own anonymous identity's) have their own end, each asked about.
    var lapsedLevelsEnd: SimInstant? {
        guard access.isSubscriber else { return nil }
        // Kept with the levels on the phone: a launch whose first ask did not come back knows it too.
        let now = clock().milliseconds
        return levelsEnds.filter { $0 <= now && !levelsEndsAsked.contains($0) }.min().map(
            SimInstant.init(milliseconds:))
    }

    /// Asks the server again when an end of the levels has passed (once per end: an answer that does not come takes the
    /// levels off, `serverNotAnswered`), then `then`; at once otherwise. One ask is about every identity the phone
    /// holds, so every end passed by then counts as asked.
    public func askAgainIfLevelsEnded(then: @escaping () -> Void = {}) {
        guard let end = lapsedLevelsEnd else { return then() }
        let now = clock().milliseconds
        // Ends no longer held are forgotten: the set stays as small as the phone's identities.
        let held = levelsEnds
        levelsEndsAsked = levelsEndsAsked.intersection(held).union(held.filter { $0 <= now })
        log("the levels were given until \(end): the server is asked again")
        reloadAccess { _ in then() }
    }

    /// Sets the timer for the next end of the levels the phone shows: when it passes while the app runs, the app asks
    /// then. Asked only at the reader's next act, a feed left on screen kept "[open]" and hid its ads for weeks of
    /// time travel past a grace period's or a price increase's end (session 28).
    func setLevelsEndTimer() {
        let now = clock()
        let next = levelsEnds.filter { $0 > now.milliseconds }.min().map(SimInstant.init(milliseconds:))
        guard next != levelsEndTimer?.end else { return }
        levelsEndTimer?.cancel()
        levelsEndTimer = nil
        guard let next, let timer else { return }
        let cancel = timer(next) { [weak self] in
            self?.levelsEndTimer = nil
            self?.askAgainIfLevelsEnded()
        }
        levelsEndTimer = (next, cancel)
    }

    /// An answer heard past the end it gave (said at 25s until 32s, heard at 36s over a slow network) is asked about
    /// at once, as the timer would have asked had it come in time: set only for ends still ahead, no timer was, and a
    /// profile left on screen showed the ended levels for a month of time travel (fuzz seed 4272). Once per end, as
    /// every end: an answer that ended before it came, asked again, is not asked a third time.
    func askAgainIfHeardLate(until: Int64?) {
        let now = clock()
        guard let until, until <= now.milliseconds, !levelsEndsAsked.contains(until), let timer else { return }
        // On the timer, not here: the answer's own completion runs first, as with an end that passes.
        _ = timer(now) { [weak self] in self?.askAgainIfLevelsEnded() }
    }

    /// The ends the server gave the levels the phone holds, its milliseconds.
    private var levelsEnds: [Int64] {
        [
            storage.accountSession.flatMap { $0.levels.isEmpty ? nil : $0.levelsUntil },
            storage.anonymousIdentity.flatMap { $0.levels.isEmpty ? nil : $0.levelsUntil },
        ].compactMap { $0 }
    }

    /// The latest end the server gave levels the phone holds, once it has passed; nil when none has.
    var passedEnd: Int64? {
        let now = clock().milliseconds
        return levelsEnds.filter { $0 <= now }.max()
    }

    /// The server could not be asked: levels past the end it gave them are no longer its word, and go (their cached
    /// articles and the ads they hid with them) until it answers. Opened weeks after the end with the server down, an
    /// ended subscription still read on "what the backend said last" (session 27). Levels within their end stay.
    func serverNotAnswered() {
        guard let end = passedEnd, end > (levelsEndUnanswered ?? .min) else { return }
        levelsEndUnanswered = end
        log(
            "the levels were given until \(SimInstant(milliseconds: end)) and the server could not be asked: "
                + "they are off until it answers")
        publishStoredAccess()
    }

    /// `levels` as the phone shows them: none when given until an end the server could not be asked about since.
    func onWord(_ levels: [AccessLevel], until: Int64?) -> [AccessLevel] {
        guard let until, let unanswered = levelsEndUnanswered, until <= unanswered else { return levels }
        return []
    }
}
