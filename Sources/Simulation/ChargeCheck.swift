import StoreSim
import Subscriptions

/// Invariant 11, no silent charge: every new purchase charged to the Apple ID ends, once the paying
/// phone's app runs and the world settled, in that phone holding the product's levels, or in a
/// message the reader sees (an outcome told after the charge, or an alert on screen).
struct ChargeCheck {
    private struct Charge {
        let record: TransactionRecord
        let device: String
        /// The launch that was running on the paying phone when it was charged; nil when none was.
        let launch: Int?
    }

    private var seen: Set<String>
    private var open: [Charge] = []

    init(world: World) {
        seen = Set(world.store.transactions(appleId: world.appleId).map(\.transactionIdentifier))
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        for record in world.store.transactions(appleId: world.appleId)
        where !seen.contains(record.transactionIdentifier) {
            seen.insert(record.transactionIdentifier)
            guard record.transactionReason == "PURCHASE", let device = world.deviceName(ofStoreDevice: record.deviceId)
            else { continue }
            let running = device == world.deviceName && world.isAppRunning
            open.append(Charge(record: record, device: device, launch: running ? world.currentLaunch : nil))
        }
        guard context.settled, world.isAppRunning else { return [] }
        var found: [InvariantViolation] = []
        var still = open
        still.removeAll { charge in
            guard charge.device == world.deviceName else { return false }  // waits for the paying phone
            // The app that was paying was quit with the answer on its way: what it would have said is lost.
            if let launch = charge.launch, launch != world.currentLaunch { return true }
            if let violation = silence(charge, context) { found.append(violation) }
            return true
        }
        open = still
        return found
    }

    private func silence(_ charge: Charge, _ context: StepContext) -> InvariantViolation? {
        let world = context.world
        let record = charge.record
        let levels = context.levels(of: record.productIdentifier) ?? []
        if !levels.isEmpty, levels.isSubset(of: context.phoneLevels) { return nil }
        // Refunded or revoked since: the charge is undone.
        if world.store.transactions(appleId: world.appleId).contains(where: {
            $0.transactionIdentifier == record.transactionIdentifier && $0.revocationDate != nil
        }) {
            return nil
        }
        if world.screen.alert != nil { return nil }
        let told = world.readerOutcomes.contains { outcome in
            outcome.device == charge.device && outcome.at >= record.purchaseDate
                && Self.saysSomethingWrong(outcome.told)
        }
        if told { return nil }
        return InvariantViolation(
            .noSilentCharge,
            "\(world.appleId) was charged for \(record.productIdentifier) (transaction \(record.transactionIdentifier)) "
                + "but \(world.deviceName) holds \(WorldReading.list(context.phoneLevels)) and the reader was told nothing"
        )
    }

    /// An outcome that tells the reader the purchase did not end in access: an error, or that it waits.
    private static func saysSomethingWrong(_ told: ReaderOutcome.Told) -> Bool {
        switch told {
        case .purchase(.purchased), .purchase(.restoredInsteadOfCharging), .purchase(.cancelled), .purchase(.refused),
            .restore(.restored), .restore(.alreadySubscribed), .account(.transferred), .account(.signedIn),
            .account(.loggedOut), .account(.notLoggedIn):
            false
        default:
            true
        }
    }
}
