import SimKernel
import StoreSim

/// Invariant 16, a refund or a revocation takes access back (seed 003: "a refund, a revoked Family Sharing
/// purchase or a chargeback turns the entitlement off"): once the world settled, the backend grants nothing
/// from a subscription whose latest transaction Apple revoked. A fault since the revocation (a notification
/// lost, the backend down) excuses it: the backend learns of it when it next asks Apple. A member's
/// FAMILY_SHARED purchase is `FamilyCheck`'s.
enum RefundCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        guard context.settled else { return [] }
        var latest: [String: TransactionRecord] = [:]
        for record in context.charged { latest[record.originalTransactionIdentifier] = record }
        let now = context.world.scheduler.now
        let ledger = context.world.backend.ledger
        return InvariantViolation.checking(.refundTakesAccessBack) {
            var found: [InvariantViolation] = []
            for (id, record) in latest.sorted(by: { $0.key < $1.key }) {
                guard let revoked = record.revocationDate, revoked <= now,
                    context.levels(of: record.productIdentifier) != nil, !context.faultSince(revoked),
                    try ledger.purchase(id)?.isActive(at: now) == true
                else { continue }
                found.append(
                    InvariantViolation(
                        .refundTakesAccessBack,
                        "Apple revoked \(record.productIdentifier) (\(id), transaction \(record.transactionIdentifier)) "
                            + "at \(revoked), but the backend still grants it"))
            }
            return found
        }
    }
}
