/// A charge Apple delivered that nobody on screen waited for (a parent's approval, an interruption resolved, a billing
/// recovery), as the app tells it once the server answered.
public struct CarriedOnCharge: Sendable {
    /// What Apple delivered (StoreKit 2's `Transaction.reason` and `ownershipType`).
    public enum Kind: Equatable, Sendable {
        /// A payment the reader made (on Apple's sheet, approved by a parent, an offer code redeemed).
        case purchase
        /// A purchase whose period is a free trial: Apple charged nothing, and its start is told as the trial's
        /// ("The App Store charged this Apple ID" was said of a free week a parent approved: session 44's walk).
        case trialStart
        /// Apple renewed a running subscription (the payment method works again after a billing issue): the reader
        /// bought nothing, so it is told as the subscription active again, not "Purchase complete" (session 35).
        case renewal
        /// A renewal of a subscription that cost nothing before (the first charge after a free trial, made once a
        /// billing issue was fixed): charged, but not "again" (session 44's walk, hand-04).
        case firstPaidRenewal
        /// The family's share of the purchaser's renewal: this Apple ID paid nothing.
        case familyShareRenewal
    }

    var productId: String
    var transactionId: String?
    var kind: Kind

    static let activeAgainTitle = "Subscription active again"
    static let trialStartedTitle = "Free trial started"

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
        case .trialStart:
            told = Alert(
                title: Self.trialStartedTitle,
                message: "Your free trial of \(title) has started. Your subscription is active.")
        case .renewal:
            told = Alert(
                title: Self.activeAgainTitle,
                message: "The App Store charged this Apple ID again for \(title), as it renews. \(again)")
        case .firstPaidRenewal:
            told = Alert(
                title: Self.activeAgainTitle,
                message: "The App Store charged this Apple ID for \(title), as it renews after the free trial. \(again)"
            )
        case .familyShareRenewal:
            told = Alert(
                title: Self.activeAgainTitle,
                message: "The App Store renewed \(title), which your family shares with this Apple ID. \(again)")
        }
        told.charge = kind.charge
        told.productId = productId
        told.transactionId = transactionId
        return told
    }
}

extension CarriedOnCharge.Kind {
    /// What an alert telling it says of money: a trial's start charged nothing, though it is Apple's new transaction.
    var charge: Alert.Charge { self == .trialStart ? .trialStarted : .made }
}
