import SimKernel

/// A product as the app needs it from the store, normalized: no StoreKit type leaks past the adapter.
public struct StoreProduct: Equatable, Sendable {
    public let productIdentifier: String
    public let localizedTitle: String
    public let localizedDescription: String
    public let localizedPrice: String
    public let subscriptionPeriod: CalendarPeriod?
    /// The free-trial length when the introductory offer is a free trial.
    public let freeTrialPeriod: CalendarPeriod?

    public init(
        productIdentifier: String, localizedTitle: String, localizedDescription: String, localizedPrice: String,
        subscriptionPeriod: CalendarPeriod?, freeTrialPeriod: CalendarPeriod?
    ) {
        self.productIdentifier = productIdentifier
        self.localizedTitle = localizedTitle
        self.localizedDescription = localizedDescription
        self.localizedPrice = localizedPrice
        self.subscriptionPeriod = subscriptionPeriod
        self.freeTrialPeriod = freeTrialPeriod
    }
}

/// A payment update from the store's transaction observer, reduced to what the app acts on.
public struct StoreTransaction: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        case purchasing
        case deferred
        case purchased
        case restored
        case cancelled
        case failed(reason: String)
    }

    public let paymentNumber: Int
    public let transactionIdentifier: String?
    public let productIdentifier: String
    public let state: State

    public init(paymentNumber: Int, transactionIdentifier: String?, productIdentifier: String, state: State) {
        self.paymentNumber = paymentNumber
        self.transactionIdentifier = transactionIdentifier
        self.productIdentifier = productIdentifier
        self.state = state
    }
}

/// The app's boundary to StoreKit 1. The simulator implements it over the fake App Store;
/// a real app would implement it over SKPaymentQueue.
public protocol StoreAdapter: AnyObject {
    var canMakePayments: Bool { get }
    /// Starts listening to payment updates; called once at launch, not by the paywall.
    func startObserving(_ observer: @escaping (StoreTransaction) -> Void)
    func requestProducts(_ identifiers: [String], completion: @escaping ([StoreProduct], _ invalid: [String]) -> Void)
    /// `applicationUsername`: the appAccountToken of the signed-in reader, nil for a guest.
    func addPayment(productIdentifier: String, applicationUsername: String?)
    func finish(_ transaction: StoreTransaction)
    /// The receipt on the device, or nil when missing.
    var appReceipt: String? { get }
    func refreshReceipt(completion: @escaping (_ receipt: String?) -> Void)
    /// Shows the store's price-increase consent sheet if a subscription waits for it.
    func showPriceConsentIfNeeded()
    /// Asks the store to deliver every past purchase again as `restored`; `error` is nil on success.
    func restoreCompletedTransactions(completion: @escaping (_ error: String?) -> Void)
}
