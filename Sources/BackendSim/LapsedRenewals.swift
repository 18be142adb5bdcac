import SimKernel
import StoreSim

/// Apple's records, asked before answering with an identity's access: a notification can be late or
/// lost. The server asks (Get All Subscription Statuses) about each purchase that lapsed with
/// auto-renew on (a renewal's notification takes a while, and the reader would lose access at every
/// renewal), and about each other one not heard of for a virtual day (a lost REFUND would otherwise
/// leave access on until the period ends; a late or lost SUBSCRIBED would leave a resubscription of an
/// ended or refunded purchase unseen).
extension Backend {
    static let reconciliationInterval = SimDuration.days(1)

    /// The identity's purchases as they stand after asking (read again only when Apple's answer changed
    /// one), so the levels that follow need no read of their own.
    @discardableResult
    func refreshLapsedRenewals(of identityId: String) throws -> [PurchaseRecord] {
        let now = clock()
        let owned = try ledger.purchasesWithAppleCheck(ownedBy: identityId)
        var changed = false
        for (purchase, appleChecked) in owned {
            let active = purchase.isActive(at: now)
            let lapsed = purchase.autoRenew && !active && !purchase.revoked
            let lastHeard = max(purchase.appleSignedMillis, appleChecked)
            // Active or ended: a refund's or a resubscription's news can be late or lost. One row per original
            // purchase, so this is bounded by what the identity bought, not by how long it has been buying.
            let due = now.milliseconds - lastHeard >= Self.reconciliationInterval.milliseconds
            guard lapsed || due else { continue }
            let why =
                lapsed
                ? "lapsed without news"
                : "\(active ? "no news" : purchase.revoked ? "refunded, no news" : "ended, no news") for a day"
            changed = try reconcile(purchase, now: now, why: why) || changed
        }
        return changed ? try ledger.purchases(ownedBy: identityId) : owned.map(\.purchase)
    }

    /// Whether Apple's answer changed the purchase's row, or who holds it.
    func reconcile(_ purchase: PurchaseRecord, now: SimInstant, why: String) throws -> Bool {
        let id = purchase.originalTransactionId
        // A subscription's status; for a one-time purchase (a non-consumable), its latest transaction.
        let item = store.subscriptionStatuses(originalTransactionId: id)?.data.flatMap(\.lastTransactions)
            .first(where: { $0.originalTransactionId == id })
        guard
            let signed = item?.signedTransactionInfo ?? store.signedLatestTransaction(originalTransactionId: id),
            let transaction = NotificationCodec.open(TransactionInfo.self, from: signed, with: store.verifyingKey),
            transaction.bundleId == bundleId
        else { return false }
        try ledger.markAppleChecked(id, at: now)
        var updated = purchase
        updated.productId = transaction.productId
        updated.expires = transaction.expiresDate.map(SimInstant.init(milliseconds:))
        updated.revoked = transaction.revocationDate != nil
        let renewal = item.flatMap {
            NotificationCodec.open(RenewalInfo.self, from: $0.signedRenewalInfo, with: store.verifyingKey)
        }
        if let renewal { updated.apply(renewal) }
        updated.learnTrial(transaction.offerDiscountType == TransactionInfo.freeTrial, next: renewal)
        var changed = false
        if updated != purchase {
            // Apple's word as of now: a notification signed earlier arrives as older news.
            updated.appleSignedMillis = max(purchase.appleSignedMillis, now.milliseconds)
            try ledger.applyAppleState(updated, at: now, why: "asked Apple: \(transaction.productId) \(why)")
            timeline.log(.backend, "asked Apple about \(id), \(why)")
            changed = true
        }
        // Apple's answer is a report like any other (seed 003, "whoever reports it"): a new purchase it names, its
        // news lost, follows who paid here as it would from the notification.
        timeline.record(.purchaseReported(originalTransactionId: id, transactionId: transaction.transactionId))
        // A renewal moves nothing (`follow`): no read of the owner again for the most common answer.
        guard statusFollowsWhoPaid, transaction.transactionReason != "RENEWAL" else { return changed }
        let owner = purchase.ownerId
        if let refusal = try follow(NewPurchase(transaction), at: now) {
            timeline.log(.backend, "purchase \(id) stays with its owner: \(refusal.rawValue)")
        }
        return try changed || ledger.purchase(id)?.ownerId != owner
    }
}

/// A ledger written before schema 10 gave every purchase it held `family_shared = 0`: a family member's share read
/// "Subscribed on this phone" on a reopened folder for good (session 33). Nothing in the ledger tells a share, so the
/// server asks Apple, as a real one fills a new column from the App Store Server API's transaction info: each purchase
/// on `ownership_unasked`, once, before the first answer. One Apple cannot answer stays on it for the next start.
extension Backend {
    /// Nil once asked; the answer a failed ledger gives the request otherwise (a 500, as any endpoint's).
    func askingOwnershipTypes() -> HTTPResponse? {
        do {
            try ledgerChange { try askOwnershipTypes() }
            ownershipTypesKnown = true
            return nil
        } catch {
            return answering { throw error }
        }
    }

    func askOwnershipTypes() throws {
        let unasked = try ledger.ownershipUnasked()
        guard !unasked.isEmpty else { return }
        let now = clock()
        var (shares, unanswered) = (0, 0)
        for id in unasked {
            guard let signed = store.signedLatestTransaction(originalTransactionId: id),
                let transaction = NotificationCodec.open(TransactionInfo.self, from: signed, with: store.verifyingKey)
            else {
                unanswered += 1
                continue
            }
            let shared =
                transaction.bundleId == bundleId && transaction.inAppOwnershipType == FamilySharing.familyShared
            try ledger.setOwnershipType(id, familyShared: shared, at: now)
            if shared { shares += 1 }
        }
        timeline.log(
            .backend,
            "asked Apple whose payment each of \(unasked.count - unanswered) purchases kept before the ledger noted it "
                + "is: \(shares) shared by a family member"
                + (unanswered > 0 ? "; \(unanswered) unanswered, asked again at the next start" : ""))
    }
}
