import SimKernel
import StoreSim

/// Invariant 16, a refund or a revocation takes access back (seed 003: "a refund, a revoked Family Sharing
/// purchase or a chargeback turns the entitlement off"): once the world settled, the backend grants nothing
/// from a subscription whose latest transaction Apple revoked. A fault since the revocation (a notification
/// lost, the backend down) excuses it only until the backend asks Apple about the purchase (its reconciliation,
/// a receipt showing the purchase first): from then on it knows. News it was sent does not end the excuse: a
/// notification's signing time is bumped past others of the same instant, so it may predate the revocation.
/// A member's FAMILY_SHARED purchase is `FamilyCheck`'s.
enum RefundCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        // Nothing revoked, nothing to judge: most steps, and the latest transactions need not be sorted out.
        guard context.settled, context.charged.contains(where: { $0.revocationDate != nil }) else { return [] }
        var latest: [String: TransactionRecord] = [:]
        for record in context.charged { latest[record.originalTransactionIdentifier] = record }
        let now = context.world.scheduler.now
        let ledger = context.world.backend.ledger
        return InvariantViolation.checking(.refundTakesAccessBack) {
            var found: [InvariantViolation] = []
            for (id, record) in latest.sorted(by: { $0.key < $1.key }) {
                guard let revoked = record.revocationDate, revoked <= now,
                    context.levels(of: record.productIdentifier) != nil,
                    let purchase = try ledger.purchase(id), purchase.isActive(at: now)
                else { continue }
                // Strictly after: a read at the revocation's own instant may have come before it.
                let asked = try ledger.appleCheckedMillis(id)
                let excused = context.faultSince(revoked)
                guard !excused || asked > revoked.milliseconds else { continue }
                found.append(
                    InvariantViolation(
                        .refundTakesAccessBack,
                        "Apple revoked \(record.productIdentifier) (\(id), transaction \(record.transactionIdentifier)) "
                            + "at \(revoked), but the backend still grants it"
                            + (excused ? " after asking Apple since" : "")))
            }
            return found
        }
    }
}
