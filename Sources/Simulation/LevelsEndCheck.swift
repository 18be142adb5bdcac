import SimKernel
import Subscriptions

/// Invariant 1, the backend's word has an end: every answer with levels says until when they hold at the least
/// (`levelsUntil`: a period's or a grace period's end). A reader who acts past it, on a phone still showing those
/// levels, sees them on the backend's word only if the app had the server's answer since (a newer one, with a later
/// end). An ended subscription's cached article stayed open, its ads hidden, until a screen happened to ask (session
/// 26); and, when the ask failed, for good: a fault since the end excused it (session 27). Faults or not, levels the
/// server's word no longer covers are not shown.
///
/// Nor may a running app wait for the reader to act: past the end by more than a request's round trip (the app's
/// timeout, after which an ask that failed takes the levels off), the levels on screen are the server's word again or
/// gone. A feed left on screen kept "[open]" and hid its ads for weeks of time travel past a grace period's end, and
/// the reader-only check saw nothing (session 28).
enum LevelsEndCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning, !context.phoneLevels.isEmpty else { return [] }
        let now = world.scheduler.now
        let acted = world.readerActed.flatMap { acted -> SimInstant? in
            guard case .reader = context.step, acted >= context.began else { return nil }
            return acted
        }
        // A word that ended before `by` no longer covers the levels: the reader's act, or a round trip ago.
        let roundTripAgo = SimInstant(milliseconds: now.milliseconds - BackendClient.defaultTimeout.milliseconds)
        let by = max(acted ?? roundTripAgo, roundTripAgo)
        return InvariantViolation.checking(.backendsWord) {
            var ids: [String] = []
            switch world.appState.access.identity {
            case .none: break
            case .anonymous(let id): ids.append(id)
            case .account(let email): if let id = try world.backend.ledger.identityId(email: email) { ids.append(id) }
            }
            if let guest = world.device.storage.anonymousIdentity?.id { ids.append(guest) }
            // The levels a word still covers (no end said, or not passed) are shown on the backend's word; those
            // only an ended word gave are not.
            var covered: Set<String> = []
            var ended: [(end: Int64, levels: Set<String>)] = []
            for id in ids {
                let levels = world.words.levels(on: world.deviceName, identityId: id)
                if let end = world.words.until(on: world.deviceName, identityId: id), end < by.milliseconds {
                    ended.append((end, levels))
                } else {
                    covered.formUnion(levels)
                }
            }
            let uncovered = context.phoneLevels.subtracting(covered)
            guard let end = ended.filter({ !$0.levels.isDisjoint(with: uncovered) }).map(\.end).min() else {
                return []
            }
            let when =
                acted.map { "to a reader acting at \($0)" }
                ?? "at \(now), more than \(BackendClient.defaultTimeout) after"
            return [
                InvariantViolation(
                    .backendsWord,
                    "\(world.deviceName) shows \(WorldReading.list(uncovered)) \(when), past "
                        + "\(SimInstant(milliseconds: end)), the end the backend gave them, without its answer since")
            ]
        }
    }
}
