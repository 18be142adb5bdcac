import SimKernel

/// A product as the app needs it from the store, normalized: no StoreKit type leaks past the adapter.
public struct StoreProduct: Equatable, Sendable {
    public let productIdentifier: String
    public let localizedTitle: String
    public let localizedDescription: String
    public let localizedPrice: String
    public let subscriptionPeriod: CalendarPeriod?
    /// The free-trial length when the introductory offer is a free trial this Apple ID may still take:
    /// the paywall never promises a trial Apple's sheet will not give.
    public let freeTrialPeriod: CalendarPeriod?
    /// Products of one group replace each other: an Apple ID pays for at most one of them at a time.
    public let subscriptionGroupIdentifier: String?

    public init(
        productIdentifier: String, localizedTitle: String, localizedDescription: String, localizedPrice: String,
        subscriptionPeriod: CalendarPeriod?, freeTrialPeriod: CalendarPeriod?,
        subscriptionGroupIdentifier: String? = nil
    ) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.productIdentifier = productIdentifier
        self.localizedTitle = localizedTitle
        self.localizedDescription = localizedDescription
        self.localizedPrice = localizedPrice
        self.subscriptionPeriod = subscriptionPeriod
        self.freeTrialPeriod = freeTrialPeriod
    }
}

extension StoreProduct {
    /// The same product with the free trial this Apple ID may take now (nil: none).
    public func with(freeTrialPeriod trial: CalendarPeriod?) -> StoreProduct {
        StoreProduct(
            productIdentifier: productIdentifier, localizedTitle: localizedTitle,
            localizedDescription: localizedDescription, localizedPrice: localizedPrice,
            subscriptionPeriod: subscriptionPeriod, freeTrialPeriod: trial,
            subscriptionGroupIdentifier: subscriptionGroupIdentifier)
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
    /// The purchase this transaction belongs to: the first transaction of its subscription.
    public let originalTransactionIdentifier: String?
    public let productIdentifier: String
    public let state: State
    /// When Apple charged (`SKPaymentTransaction.transactionDate`): older than the tap means Apple
    /// charged nothing new (the Apple ID was already subscribed).
    public let transactionDate: SimInstant?

    public init(
        paymentNumber: Int, transactionIdentifier: String?, productIdentifier: String, state: State,
        originalTransactionIdentifier: String? = nil, transactionDate: SimInstant? = nil
    ) {
        self.paymentNumber = paymentNumber
        self.transactionDate = transactionDate
        self.originalTransactionIdentifier = originalTransactionIdentifier
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
    /// `error`: the request failed (no network, the store unavailable): it says nothing of what is sold.
    func requestProducts(
        _ identifiers: [String], completion: @escaping ([StoreProduct], _ invalid: [String], _ error: String?) -> Void)
    func addPayment(productIdentifier: String)
    /// The free trial Apple's sheet would give this Apple ID for the product now (nil: none), as a
    /// StoreKit 1 app reads it from the receipt's intro-offer history.
    func freeTrialPeriod(for productIdentifier: String) -> CalendarPeriod?
    func finish(_ transaction: StoreTransaction)
    /// The receipt on the device, or nil when missing.
    var appReceipt: String? { get }
    func refreshReceipt(completion: @escaping (_ receipt: String?) -> Void)
    /// Shows the store's price-increase consent sheet if a subscription waits for it.
    func showPriceConsentIfNeeded()
    /// Asks the store to deliver every past purchase again as `restored`; `error` is nil on success.
    func restoreCompletedTransactions(completion: @escaping (_ error: String?) -> Void)
}
