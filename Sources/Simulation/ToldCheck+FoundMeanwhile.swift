import BackendSim
import SimKernel
import Subscriptions

/// Invariant 9 for "You already have a subscription, found meanwhile: what it gives is unlocked." said beside a payment
/// Apple failed (session 40): judged wherever it is said, not only where the phone gained levels while the purchase ran
/// (where `foundWhileItRan` also asks that it was paid for before the tap). An app that said it of every failed payment,
/// with nothing found and nothing unlocked, broke no check before (defect `found-meanwhile-unfounded`).
extension ToldCheck {
    /// The words are true only where the phone shows (when told, or once settled: the reader may have logged out since)
    /// every level of a subscription the reader holds, active when told (or changed by the server while the purchase
    /// ran), by the ledger and the owner's mapping: the reader is the identity told, the one shown now, or the phone's
    /// own guest. Judged whatever the faults: the words speak of what the phone shows and the server holds, which no
    /// lost answer makes true, and a payment fails most often by an injected fault, which excuses the rest of this
    /// invariant (the defect's first find, seed 1 session 2).
    static func foundMeanwhileViolation(_ outcome: ReaderOutcome, _ context: StepContext) throws
        -> InvariantViolation?
    {
        guard outcome.told == .purchase(.storeFailedBesideLevelsFound) else { return nil }
        let world = context.world
        let shown = context.phoneLevels.union(outcome.levelsWhenTold)
        let readers = try readersTold(outcome, world, andShownNow: true)
        let ledger = world.backend.ledger
        // Changed by the server while the purchase ran (Apple's EXPIRED of the subscription found, while the sheet was
        // up: default fuzz 5464): the phone speaks of what it was told, and the server had not told it that yet.
        let changed = try ledger.purchasesChanged(since: outcome.began)
        for reader in readers {
            for purchase in try ledger.purchases(ownedBy: reader)
            where purchase.isActive(at: outcome.at) || changed.contains(purchase.originalTransactionId) {
                if let gives = context.levels(of: purchase.productId), !gives.isEmpty, gives.isSubset(of: shown) {
                    return nil
                }
            }
        }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)), but no subscription the reader holds gives what "
                + "it shows (\(WorldReading.list(shown)))")
    }
}
