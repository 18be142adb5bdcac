/// "You're currently subscribed to this": a payment for the plan an Apple ID already pays for, renewing as it is,
/// charges nothing (`change` answers with the running subscription's transaction). StoreKit says so on the spot, and
/// so no parent is asked to approve it under Ask to Buy: the kids app asked a parent to approve a plan the family
/// already paid for, and "Waiting for approval" stood until the parent answered (session 35). A payment with a
/// promotional offer is not this: the offer applies at the next renewal, which a parent approves.
extension AppStore {
    /// Whether a payment of `product` by `appleId` with no offer would charge nothing, the same plan running and
    /// renewing as it is. False when the records cannot be read: a parent is asked, as for any purchase.
    public func chargesNothing(_ product: Product, appleId: String, offerId: String?) -> Bool {
        guard offerId == nil, let group = product.subscriptionGroupIdentifier else { return false }
        let inGroup = logged("read the subscriptions of \(appleId)") {
            try ledger.subscriptions(appleId: appleId).filter { $0.groupId == group }
        }
        guard let current = inGroup?.first(where: { $0.state != .expired && $0.state != .revoked }) else {
            return false
        }
        return current.productId == product.productIdentifier
            && current.autoRenewProductId == product.productIdentifier && current.autoRenew
    }
}
