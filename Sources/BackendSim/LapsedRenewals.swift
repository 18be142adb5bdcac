import SimKernel
import StoreSim

/// A subscription that should have renewed by now, but whose news has not arrived: Apple's
/// notification of the renewal takes a while, and a reader asking for their access in between would
/// lose it at every renewal. Before answering with an identity's access, the server asks Apple
/// (Get All Subscription Statuses) about each purchase that lapsed with auto-renew on.
extension Backend {
    func refreshLapsedRenewals(of identityId: String) throws {
        let now = clock()
        let purchases = try ledger.purchases(ownedBy: identityId)
        for purchase in purchases where purchase.autoRenew && !purchase.revoked && !purchase.isActive(at: now) {
            guard let status = store.subscriptionStatuses(originalTransactionId: purchase.originalTransactionId),
                let item = status.data.flatMap(\.lastTransactions).first(where: {
                    $0.originalTransactionId == purchase.originalTransactionId
                }),
                let transaction = NotificationCodec.open(
                    TransactionInfo.self, from: item.signedTransactionInfo, with: store.verifyingKey),
                transaction.bundleId == bundleId
            else { continue }
            var updated = purchase
            updated.productId = transaction.productId
            updated.expires = transaction.expiresDate.map(SimInstant.init(milliseconds:))
            updated.revoked = transaction.revocationDate != nil
            if let renewal = NotificationCodec.open(
                RenewalInfo.self, from: item.signedRenewalInfo, with: store.verifyingKey)
            {
                updated.apply(renewal)
            }
            guard updated != purchase else { continue }
            // Apple's word as of now: the renewal's notification, signed earlier, arrives as older news.
            updated.appleSignedMillis = max(purchase.appleSignedMillis, now.milliseconds)
            try ledger.applyAppleState(updated, at: now, why: "asked Apple: \(transaction.productId) renewed or ended")
            timeline.log(.backend, "asked Apple about \(purchase.originalTransactionId), lapsed without news")
        }
    }
}
