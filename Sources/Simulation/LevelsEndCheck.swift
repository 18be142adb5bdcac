import SimKernel

/// Invariant 1, the backend's word has an end: every answer with levels says until when they hold at the least
/// (`levelsUntil`: a period's or a grace period's end). A reader who acts past it, on a phone still showing those
/// levels, sees them on the backend's word only if the app asked again since (a newer answer, with a later end) or
/// could not (a fault since the end). An ended subscription's cached article stayed open, its ads hidden, until a
/// screen happened to ask (session 26).
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
            let ends = ids.compactMap { world.words.until(on: world.deviceName, identityId: $0) }
            guard let end = ends.min(), end < acted.milliseconds,
                !context.faultSince(SimInstant(milliseconds: end))
            else { return [] }
            return [
                InvariantViolation(
                    .backendsWord,
                    "\(world.deviceName) shows \(WorldReading.list(context.phoneLevels)) to a reader acting at "
                        + "\(acted), past \(SimInstant(milliseconds: end)), the end the backend gave them, "
                        + "without asking again")
            ]
        }
    }
}
