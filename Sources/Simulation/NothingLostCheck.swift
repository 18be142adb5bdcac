import AppFlow
import SimKernel

extension World {
    /// Invariant 5: with every fault lifted, the reader takes a new phone of each of the world's Apple IDs Apple holds a
    /// subscription for (the purchaser's, then each family member's: a member's own paid subscription was never
    /// checked, session 27) and restores; every subscription Apple says is paid for must then give its owner the access
    /// (the new phone's reader, or the owner a refused move left it with). Changes the world: run it last.
    /// `newPhone: false` restores on the phone on screen alone, for a world opened on a fresh phone already.
    public func nothingLostViolations(newPhone: Bool = true) -> [InvariantViolation] {
        store.clearFaults()
        network.faults = FaultPlan()
        guard newPhone else { return restoredViolations() }
        var found: [InvariantViolation] = []
        // An Apple ID Apple holds no subscription for, once what is on its way settled, has nothing a restore could
        // lose: its new phone judged nothing and cost a tenth of a fuzz step (session 27).
        scheduler.runUntilIdle()
        for appleId in appleIds where !store.entitledSubscriptions(appleId: appleId).isEmpty {
            // The first free name: a state folder may keep the phones of an earlier check.
            var number = 1
            while true {
                do {
                    try newDevice(named: "restore-check-\(number)", appleId: appleId)
                    break
                } catch  where number < 100 {
                    number += 1
                } catch {
                    return [InvariantViolation(.nothingPaidLost, "no new phone to restore on: \(error)")]
                }
            }
            found += restoredViolations()
        }
        return found
    }

    /// The phone on screen restores; then every paid subscription of its Apple ID gives its owner the access.
    private func restoredViolations() -> [InvariantViolation] {
        scheduler.runUntilIdle()
        do {
            // Apple's price-consent sheet greets a launch while an increase waits (invariant 20): the reader agrees
            // first, which leaves what is paid for now as it is.
            if appState.paymentSheet?.isPriceConsent == true {
                try perform(.confirmPayment)
                scheduler.runUntilIdle()
            }
            try perform(.openProfile)
            scheduler.runUntilIdle()
            try perform(.restore)
            scheduler.runUntilIdle()
            if screen.id == .transferPrompt {
                try perform(.acceptTransfer)
                scheduler.runUntilIdle()
            }
        } catch {
            return [InvariantViolation(.nothingPaidLost, "a new phone of \(appleId) could not restore: \(error)")]
        }
        let shown = Set(appState.access.levels.map(\.rawValue))
        let phoneIdentity: String? = if case .anonymous(let id) = appState.access.identity { id } else { nil }
        return InvariantViolation.checking(.nothingPaidLost) {
            try restoredViolations(shown: shown, phoneIdentity: phoneIdentity)
        }
    }

    /// Every paid subscription's owner holds its levels after the restore, and the phone shows those it owns.
    private func restoredViolations(shown: Set<String>, phoneIdentity: String?) throws -> [InvariantViolation] {
        var found: [InvariantViolation] = []
        for subscription in paidSubscriptions {
            let levels = Set(config.backend.productLevels[subscription.productId] ?? [])
            guard !levels.isEmpty else { continue }
            let id = subscription.originalTransactionId
            guard let owner = try backend.ledger.purchase(id)?.ownerId else {
                found.append(
                    InvariantViolation(
                        .nothingPaidLost,
                        "\(subscription.productId) (\(id)) is paid until \(subscription.expiresDate) but no one owns it after a restore"
                    ))
                continue
            }
            let granted = Set(try backend.levels(of: owner))
            if !levels.isSubset(of: granted) {
                found.append(
                    InvariantViolation(
                        .nothingPaidLost,
                        "\(subscription.productId) (\(id)) is paid until \(subscription.expiresDate) but its owner \(owner) holds \(WorldReading.list(granted))"
                    ))
            } else if owner == phoneIdentity && !levels.isSubset(of: shown) {
                found.append(
                    InvariantViolation(
                        .nothingPaidLost,
                        "the restore gave \(id) to this phone but it shows \(WorldReading.list(shown))"))
            }
        }
        return found
    }
}
