import SimKernel
import StoreSim

/// Invariant 16, a refund or a revocation takes access back (seed 003: "a refund, a revoked Family Sharing
/// purchase or a chargeback turns the entitlement off"): once the world settled, the backend grants nothing
/// from a subscription whose latest transaction Apple revoked. A fault since the revocation (a notification
/// lost, the backend down) excuses it only until the backend hears from Apple about the purchase again (a
/// later notification, a receipt, or asking Apple itself): from then on it knows. A member's FAMILY_SHARED
/// purchase is `FamilyCheck`'s.
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
                    context.levels(of: record.productIdentifier) != nil,
                    let purchase = try ledger.purchase(id), purchase.isActive(at: now)
                else { continue }
                // Strictly after: news signed at the revocation's own instant may predate it.
                let heard = max(purchase.appleSignedMillis, try ledger.appleCheckedMillis(id))
                let excused = context.faultSince(revoked)
                guard !excused || heard > revoked.milliseconds else { continue }
                found.append(
                    InvariantViolation(
                        .refundTakesAccessBack,
                        "Apple revoked \(record.productIdentifier) (\(id), transaction \(record.transactionIdentifier)) "
                            + "at \(revoked), but the backend still grants it"
                            + (excused ? " after hearing from Apple since" : "")))
            }
            return found
        }
    }
}
