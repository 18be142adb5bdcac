import SimKernel
import Simulation

/// Something done to the world from outside the phone, as a value: the control pane returns it,
/// the loop applies it (`apply(to:)`), tests apply it to a headless world.
public enum ControlAction: Equatable, Sendable {
    case setAskToBuy(Bool)
    case approveAskToBuy
    case declineAskToBuy
    case nextPurchase(PurchaseOutcome)
    case resolveInterruptedPurchase
    case removeReceipt
    case setCanMakePayments(Bool)
    case refundLatest
    case setBillingIssue(Bool)
    case raisePrices
    case failNextReceiptCheck
    case timeOutNextBackendCall
    case slowNextBackendCall
    case travelOneDay
    case travelOneMonth
    case travelToNextRenewal
    case backgroundAndBack
    case restartApp
    case newDevice
    case setLatency(LatencyProfile)
    case setStorefront(String)
    case setLocale(String)
    case setFinishBeforeServerCheck(Bool)
    /// The transaction inspector's control on one transaction or held payment.
    case transaction(TransactionControl, String)
}
