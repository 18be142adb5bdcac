import BackendSim
import SimKernel
import StoreSim

/// Invariant 12, the other way round (seed 003: "A new purchase on it — a switch of plan, a resubscription, an offer
/// bought — whose appAccountToken names another customer moves it to them, whoever reports it, the app or Apple's
/// notification"): once the world settled, a purchase whose newest new purchase (not a renewal) names a customer by
/// its token, and which a report has told the backend of (`WorldEvent.purchaseReported`), is that customer's.
/// Excused: the rules' refusals (never from an account to a guest, at most 3 moves in 30 days), a new purchase reported
/// after a later renewal of it was, and a restore or a transfer that moved it since, as asked (invariant 12's other
/// half judges those).
struct WhoPaidCheck {
    /// When the backend first applied a report of each transaction.
    private var reported: [String: SimInstant] = [:]
    /// What the last judgement that found nothing saw: the reports, the charges and the moves. Only one of them
    /// changing can change the verdict (an owner changes by a move, or by a claim a report makes).
    private var judged: (reports: Int, charges: Int, moves: Int)?

    mutating func reported(_ transactionId: String, at time: SimInstant) {
        if reported[transactionId] == nil { reported[transactionId] = time }
    }

    mutating func violations(_ context: StepContext) throws -> [InvariantViolation] {
        guard context.settled, !reported.isEmpty else { return [] }
        let seen = (reported.count, context.charged.count, try context.world.backend.ledger.moves().count)
        if let judged, judged == seen { return [] }
        let found = try judge(context)
        judged = found.isEmpty ? seen : nil
        return found
    }

    private func judge(_ context: StepContext) throws -> [InvariantViolation] {
        var newest: [String: TransactionRecord] = [:]
        for record in context.charged where record.transactionReason != "RENEWAL" {
            let id = record.originalTransactionIdentifier
            if newest[id].map({ $0.purchaseDate <= record.purchaseDate }) ?? true { newest[id] = record }
        }
        let backend = context.world.backend
        var found: [InvariantViolation] = []
        var moves: [OwnershipMove]?
        for purchase in try backend.ledger.allPurchases() {
            guard let ownerId = purchase.ownerId, let record = newest[purchase.originalTransactionId],
                let heard = reported[record.transactionIdentifier], let token = record.appAccountToken?.lowercased(),
                backend.appAccountToken(for: ownerId) != token, let payer = try backend.customer(namedBy: token)
            else { continue }
            let kinds = (try backend.ledger.identity(ownerId)?.kind, try backend.ledger.identity(payer)?.kind)
            if kinds == (.account, .anonymous) { continue }
            // Reported late (seed 003: "a transaction reported … late move[s] nothing"): a later transaction of the
            // purchase, a renewal, reached the backend first and decided its owner then.
            let later = context.charged.filter {
                $0.originalTransactionIdentifier == purchase.originalTransactionId
                    && $0.purchaseDate > record.purchaseDate
            }
            if later.contains(where: { reported[$0.transactionIdentifier].map { $0 < heard } ?? false }) { continue }
            let all = try moves ?? backend.ledger.moves()
            moves = all
            let ofIt = all.filter { $0.originalTransactionId == purchase.originalTransactionId }
            if ofIt.contains(where: { $0.via != .purchase && $0.to == ownerId && $0.at >= heard }) { continue }
            let window = OwnershipRules.window.milliseconds
            let recent = ofIt.filter { $0.at <= heard && (heard - $0.at).milliseconds < window }
            if recent.count >= OwnershipRules.moveLimit { continue }
            found.append(
                InvariantViolation(
                    .movesOnlyAsAsked,
                    "\(purchase.originalTransactionId) is held by \(ownerId), but its newest purchase "
                        + "(\(record.transactionIdentifier)) was paid by \(payer) and reported to the backend at \(heard)"
                ))
        }
        return found
    }
}
