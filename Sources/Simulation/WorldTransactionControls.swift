import SimKernel
import StoreSim

/// The Transaction Manager's per-row controls: each acts on the transaction (or held payment) chosen
/// by its identifier, not on "the latest". False, with a line on the timeline, when it names nothing
/// of the reader's that the control applies to.
extension World {
    /// The reader's transaction `identifier`, if the store holds it.
    func readerTransaction(_ identifier: String) -> TransactionRecord? {
        store.transactions(appleId: appleId).first { $0.transactionIdentifier == identifier }
    }

    @discardableResult
    public func refund(transactionId: String) -> Bool {
        timeline.log(.control, "refund \(transactionId)")
        guard readerTransaction(transactionId) != nil else { return refused("refunded", transactionId) }
        return attempt("refund \(transactionId)") { try store.refund(transactionId: transactionId) } ?? false
    }

    /// Apple takes a transaction back: a family member's share is revoked (REVOKE), an own purchase refunded.
    @discardableResult
    public func revoke(transactionId: String) -> Bool {
        timeline.log(.control, "revoke \(transactionId)")
        let shared = store.familySharedTransactions(appleId: appleId).contains {
            $0.transactionIdentifier == transactionId
        }
        guard shared || readerTransaction(transactionId) != nil else { return refused("revoked", transactionId) }
        return attempt("revoke \(transactionId)") { try store.revokeFamilySharing(transactionId: transactionId) }
            ?? false
    }

    /// The subscription of `transactionId` ends now, as Xcode's Expire Subscription ends it (EXPIRED/VOLUNTARY), the
    /// reader's other subscriptions untouched; the clock does not move (it went to the period's end, session 28).
    @discardableResult
    public func expire(transactionId: String) -> Bool {
        timeline.log(.control, "expire the subscription of \(transactionId) now")
        guard let record = readerTransaction(transactionId),
            let subscription = store.subscription(originalTransactionId: record.originalTransactionIdentifier),
            subscription.state.isEntitled
        else { return refused("expired", transactionId) }
        let original = subscription.originalTransactionId
        return attempt("expire \(original)") { try store.expireNow(originalTransactionId: original) } ?? false
    }

    /// A parent answers one Ask to Buy request (`ask-to-buy-3`).
    @discardableResult
    public func answerAskToBuy(_ requestId: String, approve: Bool) -> Bool {
        timeline.log(.control, "parent \(approve ? "approves" : "declines") \(requestId)")
        guard pendingPayments.contains(where: { $0.identifier == requestId && $0.kind == .askToBuy }) else {
            if let lapsed = lapseNote(requestId) {
                timeline.log(.control, lapsed)
                return false
            }
            return refused(approve ? "approved" : "declined", requestId)
        }
        return approve ? store.approveAskToBuy(requestId) : store.declineAskToBuy(requestId)
    }

    /// The reader resolves one interrupted purchase (`interrupted-4`) outside the app.
    @discardableResult
    public func resolveInterruptedPurchase(_ requestId: String) -> Bool {
        timeline.log(.control, "interrupted purchase \(requestId) resolved outside the app")
        guard pendingPayments.contains(where: { $0.identifier == requestId && $0.kind == .interrupted }) else {
            return refused("resolved", requestId)
        }
        return store.resolveInterruptedPurchase(requestId)
    }

    private func refused(_ done: String, _ identifier: String) -> Bool {
        timeline.log(.control, "\(identifier) is nothing of \(appleId)'s that can be \(done)")
        return false
    }
}
