import StoreSim
import Subscriptions

/// Invariant 11, no silent charge: every new purchase charged to the Apple ID ends, once the paying
/// phone's app runs and the world settled, in that phone holding the product's levels, or in a
/// message the reader sees (an outcome told after the charge, or an alert on screen). A charge made while the paying
/// phone's app ran that no purchase on screen answered (a held payment settled, a plan changed outside the app) ends in
/// a message even with the levels: the README's "the reader hears how it ended" (an interrupted purchase resolved
/// later charged $59.99 with no word but the article unlocking, session 26). A charge whose launch was quit before
/// the reader heard of it is judged in the paying phone's next launch, as one no purchase on screen waited for.
/// An alert told since the charge that the reader dismissed before that launch was quit was heard (fuzz seed 1616).
/// Only words telling that charge are heard (`ChargeTold`): an alert of its product or transaction saying Apple
/// charged, not any alert ("Logged out" dismissed after a charge lost on a kill, found-by-hand/528).
struct ChargeCheck {
    private struct Charge {
        let record: TransactionRecord
        let device: String
        /// The launch that was running on the paying phone when it was charged; nil when none was.
        let launch: Int?
        /// The first outcome that may answer it: one told before the step of the charge (Ask to Buy's
        /// "waiting for a parent") said nothing of how the charge ended.
        let firstOutcome: Int
    }

    private var seen: Set<String>
    private var open: [Charge] = []
    /// How many outcomes the world had at the end of the last check.
    private var outcomesRead: Int

    init(world: World) {
        seen = Set(world.chargedTransactions.map(\.transactionIdentifier))
        outcomesRead = world.readerOutcomes.count
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        for record in context.charged
        where !seen.contains(record.transactionIdentifier) {
            seen.insert(record.transactionIdentifier)
            guard record.transactionReason == "PURCHASE", let device = world.deviceName(ofStoreDevice: record.deviceId)
            else { continue }
            let running = device == world.deviceName && world.isAppRunning
            open.append(
                Charge(
                    record: record, device: device, launch: running ? world.currentLaunch : nil,
                    firstOutcome: outcomesRead))
        }
        outcomesRead = world.readerOutcomes.count
        guard context.settled, world.isAppRunning else { return [] }
        var found: [InvariantViolation] = []
        var still = open
        still.removeAll { charge in
            guard charge.device == world.deviceName else { return false }  // waits for the paying phone
            // The app that was paying was quit with the answer on its way: the next launch, which sends the receipt
            // again, owes the reader the word (the charge was dropped here, and a send again that failed or unlocked an
            // approval said nothing, session 27).
            if let violation = silence(charge, context) { found.append(violation) }
            return true
        }
        open = still
        return found
    }

    private func silence(_ charge: Charge, _ context: StepContext) -> InvariantViolation? {
        let world = context.world
        let record = charge.record
        let plan = context.planNow(of: record.productIdentifier, original: record.originalTransactionIdentifier)
        let levels = context.levels(of: plan) ?? []
        let answeredOnScreen = world.readerOutcomes[charge.firstOutcome...].contains { outcome in
            guard case .purchase = outcome.told else { return false }
            return outcome.device == charge.device && !outcome.carriedOn && outcome.at >= record.purchaseDate
        }
        let accessSays = charge.launch == nil || answeredOnScreen
        if accessSays, !levels.isEmpty, levels.isSubset(of: context.phoneLevels) { return nil }
        // The charge ended in access when the reader was told, and the reader's own act (a log-out) took it off since.
        if accessSays, !levels.isEmpty,
            world.readerOutcomes.contains(where: {
                $0.device == charge.device && $0.at >= record.purchaseDate && levels.isSubset(of: $0.levelsWhenTold)
            })
        {
            return nil
        }
        // Refunded or revoked since: the charge is undone.
        if context.charged.contains(where: {
            $0.transactionIdentifier == record.transactionIdentifier && $0.revocationDate != nil
        }) {
            return nil
        }
        // Only words telling this charge are its telling: an alert of its product or transaction up, shown or waiting
        // its turn (kept on the phone until the reader dismisses it, `ChargeAlertsUnseen`); "Logged out" dismissed
        // after it is not (found-by-hand/528 passed so, the charge's alert lost on a kill).
        let up = [world.screen.alert].compactMap { $0 } + world.device.state.alertsWaiting
        if up.contains(where: { $0.tells(record) }) { return nil }
        // One told since the charge, which a step done without waiting for the world dismissed before it settled: the
        // reader saw it.
        if world.device.chargesTold.tell(record, launch: world.currentLaunch) { return nil }
        // One told since the charge that the reader dismissed, in a launch quit since: they saw it.
        if world.alertSeen[charge.device]?.tell(record) == true { return nil }
        let told = world.readerOutcomes[charge.firstOutcome...].contains { outcome in
            outcome.device == charge.device && outcome.at >= record.purchaseDate
                && Self.saysSomethingWrong(outcome.told)
        }
        if told { return nil }
        return InvariantViolation(
            .noSilentCharge,
            "\(world.appleId) was charged for \(record.productIdentifier) (transaction \(record.transactionIdentifier)) "
                + "but \(world.deviceName) holds \(WorldReading.list(context.phoneLevels)) and the reader was told nothing"
                + (accessSays ? "" : " (no purchase on screen waited for it)"))
    }

    /// An outcome that tells the reader the purchase did not end in access: an error, that it waits, or
    /// that it waits for the reader's answer.
    private static func saysSomethingWrong(_ told: ReaderOutcome.Told) -> Bool {
        switch told {
        // Signed in with the offer to move this phone's subscription: the reader is asked where it goes.
        // Or told the move waits for the move limit.
        case .account(.signedIn(offerTransfer: true, _)), .account(.signedIn(_, moveRefusedUntil: .some)):
            true
        case .purchase(.purchased), .purchase(.confirmedAfterAll), .purchase(.restoredInsteadOfCharging),
            .purchase(.sharedInsteadOfCharging), .purchase(.cancelled), .purchase(.refused),
            .restore(.restored), .restore(.sharedByFamily), .restore(.alreadySubscribed), .account(.transferred),
            .account(.signedIn),
            .account(.loggedOut), .account(.notLoggedIn):
            false
        default:
            true
        }
    }
}
