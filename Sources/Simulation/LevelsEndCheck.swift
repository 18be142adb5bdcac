import SimKernel

/// Invariant 1, the backend's word has an end: every answer with levels says until when they hold at the least
/// (`levelsUntil`: a period's or a grace period's end). A reader who acts past it, on a phone still showing those
/// levels, sees them on the backend's word only if the app had the server's answer since (a newer one, with a later
/// end). An ended subscription's cached article stayed open, its ads hidden, until a screen happened to ask (session
/// 26); and, when the ask failed, for good: a fault since the end excused it (session 27). Faults or not, levels the
/// server's word no longer covers are not shown.
enum LevelsEndCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard case .reader = context.step, context.settled, world.isAppRunning, !context.phoneLevels.isEmpty,
            let acted = world.readerActed, acted >= context.began
        else { return [] }
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
                if let end = world.words.until(on: world.deviceName, identityId: id), end < acted.milliseconds {
                    ended.append((end, levels))
                } else {
                    covered.formUnion(levels)
                }
            }
            let uncovered = context.phoneLevels.subtracting(covered)
            guard let end = ended.filter({ !$0.levels.isDisjoint(with: uncovered) }).map(\.end).min() else {
                return []
            }
            return [
                InvariantViolation(
                    .backendsWord,
                    "\(world.deviceName) shows \(WorldReading.list(uncovered)) to a reader acting at \(acted), past "
                        + "\(SimInstant(milliseconds: end)), the end the backend gave them, without its answer since")
            ]
        }
    }
}
