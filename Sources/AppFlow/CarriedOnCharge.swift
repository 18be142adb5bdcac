/// A charge Apple delivered that nobody on screen waited for (a parent's approval, an interruption resolved, a billing
/// recovery), as the app tells it once the server answered.
public struct CarriedOnCharge: Sendable {
    /// What Apple delivered (StoreKit 2's `Transaction.reason` and `ownershipType`).
    public enum Kind: Equatable, Sendable {
        /// A payment the reader made (on Apple's sheet, approved by a parent, an offer code redeemed).
        case purchase
        /// Apple renewed a running subscription (the payment method works again after a billing issue): the reader
        /// bought nothing, so it is told as the subscription active again, not "Purchase complete" (session 35).
        case renewal
        /// The family's share of the purchaser's renewal: this Apple ID paid nothing.
        case familyShareRenewal
    }

    var productId: String
    var transactionId: String?
    var kind: Kind

    static let activeAgainTitle = "Subscription active again"

    /// The alert telling it, for the product the store titles `title`. Invariant 9 (`PurchaseToldCheck`) holds
    /// "Purchase complete" to purchases.
    func alert(title: String) -> Alert {
        let again = "Your subscription is active again."
        var told: Alert
        switch kind {
        case .purchase:
            told = Alert(
                title: Alert.purchaseComplete,
                message: "The App Store charged this Apple ID for \(title). Your subscription is active.")
        case .renewal:
            told = Alert(
                title: Self.activeAgainTitle,
                message: "The App Store charged this Apple ID again for \(title), as it renews. \(again)")
        case .familyShareRenewal:
            told = Alert(
                title: Self.activeAgainTitle,
                message: "The App Store renewed \(title), which your family shares with this Apple ID. \(again)")
        }
        told.charge = .made
        told.productId = productId
        told.transactionId = transactionId
        return told
    }
}
