import SimKernel

/// A family member's phone carries the family's shares on its receipt, as Apple's does: "When family members benefit
/// from a shared subscription, App Store updates their receipt to include the family-shared purchase"
/// (`in_app_ownership_type`), and a share taken away is on the receipt, with its cancellation date, before the app is
/// told (`paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: "the receipt on the device, which the system
/// automatically updates prior to calling this method"). Until session 35 a share reached the member's phone only when
/// it asked Apple for a receipt (a restore, a refresh), so a guest's check before paying refreshed to see it.
/// Each share keeps its own original transaction id (`FamilySharing`): the purchaser's is never on a member's receipt.
extension AppStore {
    /// A share of `member`'s began or was taken away: each running app of that Apple ID holds a receipt issued after
    /// it, once the change's commit is written (a lost commit takes the share back, and with it the news).
    /// `revoked`: the product whose share was taken away, which each running app's observer is then told of, as StoreKit
    /// calls `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)` after updating the receipt.
    func shareChanged(for member: String, revoked: String? = nil) {
        scheduler.schedule(after: .zero) { [self] in
            // In the phones' order, not the dictionary's: the timeline stays the seed's.
            for (_, kept) in queues.sorted(by: { $0.key < $1.key }) {
                guard let queue = kept.queue, queue.appleId == member else { continue }
                queue.updateReceiptForFamily(because: "the family's shares changed")
                if let revoked, deliversRevocations { queue.entitlementsRevoked([revoked]) }
            }
        }
    }

    /// The subscriptions a receipt this store issued lists, and when it was issued; nil when it is not one of its own.
    func listing(of receipt: String) -> (originals: Set<String>, issued: Int64)? {
        if let (payload, originals) = receipts.opened(receipt) { return (Set(originals), payload.creationDate) }
        guard let payload = ReceiptCodec.open(receipt, with: verifyingKey) else { return nil }
        return (Set(ReceiptMemo.originals(of: payload)), payload.creationDate)
    }
}

extension PaymentQueue {
    /// A member's app starts after a share began or was taken away while it did not run: StoreKit updates the receipt
    /// the app finds, as it does while the app runs (`shareChanged`). A phone holding no receipt is a fresh install, as
    /// everywhere here: its first refresh or restore brings every purchase, the family's shares with them.
    func bringFamilySharesToReceipt() {
        guard let kept = receipt.load(), let held = store.listing(of: kept) else { return }
        let shares = store.familySharedTransactions(appleId: appleId)
        let behind = shares.contains { share in
            !held.originals.contains(share.originalTransactionIdentifier)
                || (share.revocationDate.map { $0.milliseconds >= held.issued } ?? false)
        }
        guard behind else { return }
        updateReceiptForFamily(because: "the family's shares are not on it")
    }

    /// StoreKit 1's `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: the family's share of `products` was
    /// taken away, told to the running app's observer (none when no app observes: its next launch reads the receipt).
    func entitlementsRevoked(_ products: [String]) {
        guard let onEntitlementsRevoked, observer != nil else { return }
        store.log("observer ← entitlements revoked: \(products.joined(separator: ", "))")
        onEntitlementsRevoked(products)
    }

    /// The phone's receipt issued again, the family's shares on it; the phone keeps the one it had when the store's
    /// records cannot be read (the error is on the timeline).
    func updateReceiptForFamily(because why: String) {
        guard let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId) else { return }
        receipt.save(issued)
        store.log("receipt of \(deviceId) updated by the App Store: \(why)")
    }
}
