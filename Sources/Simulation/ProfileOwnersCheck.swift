import SimKernel

/// Invariant 9 of whose plans the profile lists: once settled with the app running, every plan the profile lists (and
/// the paywall reads as held) is one the ledger gives, or gave, to the reader or to the guest the phone holds now. A
/// guest moved to an account is forgotten; its last list, kept across a log-out and the next sign-in, put its plan on
/// the profile of an account that never held it, "renewal failed" after Apple renewed it (long 2413, seed 000: never
/// one reader's plan shown to another). A plan moved away since it was listed is the documented staleness: it was the
/// reader's when the server said so.
enum ProfileOwnersCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        let listed = world.appState.profileSubscriptions.compactMap(\.originalTransactionId)
        guard !listed.isEmpty else { return [] }
        return InvariantViolation.checking(.toldIsTrue) {
            let readers = Set(try ShownLevelsCheck.shownIdentities(world))
            let ledger = world.backend.ledger
            for original in listed {
                guard let owner = try ledger.purchase(original)?.ownerId, !readers.contains(owner) else { continue }
                let held = try ledger.moves().contains {
                    $0.originalTransactionId == original
                        && (readers.contains($0.to) || $0.from.map(readers.contains) == true)
                }
                if held { continue }
                return [
                    InvariantViolation(
                        .toldIsTrue,
                        "\(world.deviceName)'s profile lists \(original), which \(owner) holds and neither the reader "
                            + "nor the phone's guest (\(readers.sorted().joined(separator: ", "))) ever held")
                ]
            }
            return []
        }
    }
}
