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
    /// The introductory offer when it is paid (pay as you go, pay up front).
    public var paidIntroductoryOffer: PaidIntroductoryOffer? = nil
    /// The store's words in the device's language (`StoreWords`); English descriptions when nil.
    public var words: ProductWords? = nil
    /// A promotional offer the app may apply with the backend's signature (win-back), as the store words it.
    public var winBackOffer: StoreOffer? = nil

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

/// The store's words about a product's period and trial: "mois", "par mois", "1 semaine", "1 semaine gratuite".
public struct ProductWords: Equatable, Sendable {
    public var period: String
    public var perPeriod: String
    public var trial: String?
    public var freeTrial: String?
    /// A paid introductory offer's terms up to its "then ", as Apple's sheet says them.
    public var introTerms: String?
    /// A free trial's terms up to its "then " ("Free for 2 weeks, then "): placed before the price when the
    /// owner's text has no place for the trial, so the paywall never keeps quiet about what the sheet gives.
    public var trialTerms: String?

    public init(
        period: String, perPeriod: String, trial: String?, freeTrial: String?, introTerms: String?,
        trialTerms: String? = nil
    ) {
        self.period = period
        self.perPeriod = perPeriod
        self.trial = trial
        self.freeTrial = freeTrial
        self.introTerms = introTerms
        self.trialTerms = trialTerms
    }
}

/// A subscription offer the app applies to a payment (`Product.SubscriptionOffer`, promotional): its identifier
/// and its terms up to "then ", in the store's words.
public struct StoreOffer: Equatable, Sendable {
    public let id: String
    public let terms: String

    public init(id: String, terms: String) {
        self.id = id
        self.terms = terms
    }
}

/// A promotional offer signed by the app's server for one payment: what `SKPaymentDiscount` carries.
public struct SignedOffer: Equatable, Sendable, Decodable {
    public let offerId: String
    public let keyIdentifier: String
    public let nonce: String
    /// Base64url, as the server sent it.
    public let signature: String
    public let timestamp: Int64
    /// The customer the signature covers: the payment must name them.
    public let appAccountToken: String
}

/// A reduced price for a new subscriber: per period for `numberOfPeriods` periods, or once for the whole offer.
public struct PaidIntroductoryOffer: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        case payAsYouGo
        case payUpFront
    }
    public let mode: Mode
    public let localizedPrice: String
    public let period: CalendarPeriod
    public let numberOfPeriods: Int

    public init(mode: Mode, localizedPrice: String, period: CalendarPeriod, numberOfPeriods: Int) {
        self.mode = mode
        self.localizedPrice = localizedPrice
        self.period = period
        self.numberOfPeriods = numberOfPeriods
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
    /// A renewal Apple charged of a running subscription (StoreKit 2's `Transaction.reason` `.renewal`): a billing
    /// recovery the observer hears is no purchase of the reader's, and is not told as one (session 35).
    public var isRenewal = false
    /// A family member's share of the purchaser's subscription: the member's Apple ID paid nothing.
    public var isFamilyShared = false
    /// Its period is a free trial: Apple charged nothing, so its start is told in a trial's words, never a charge's
    /// (session 44's walk: "The App Store charged this Apple ID" of a free week a parent approved).
    public var isTrialPeriod = false
    /// An earlier period of its subscription cost money: only then is a renewal told as charged "again" (a free week's
    /// first charge, made after a billing issue, was, session 44's walk).
    public var isPaidBefore = false

    public init(
        paymentNumber: Int, transactionIdentifier: String?, productIdentifier: String, state: State,
        originalTransactionIdentifier: String? = nil, transactionDate: SimInstant? = nil, isRenewal: Bool = false,
        isFamilyShared: Bool = false, isTrialPeriod: Bool = false, isPaidBefore: Bool = false
    ) {
        self.isTrialPeriod = isTrialPeriod
        self.isPaidBefore = isPaidBefore
        self.isRenewal = isRenewal
        self.isFamilyShared = isFamilyShared
        self.paymentNumber = paymentNumber
        self.transactionDate = transactionDate
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.productIdentifier = productIdentifier
        self.state = state
    }
}

/// What asking for the app receipt ended in: the receipt, none (missing, or its refresh failed or ended without one),
/// or the reader cancelled the Apple ID sign-in the refresh asked for (`SKErrorPaymentCancelled`): told apart from a
/// failure, as a cancelled payment is, so the act that needed it ends without an error.
public enum ReceiptAnswer: Equatable, Sendable {
    case receipt(String)
    case none
    case cancelled

    /// The receipt, when there is one.
    public var receipt: String? {
        if case .receipt(let receipt) = self { receipt } else { nil }
    }
}

/// The app's boundary to StoreKit 1. The simulator implements it over the fake App Store;
/// a real app would implement it over SKPaymentQueue.
public protocol StoreAdapter: AnyObject {
    var canMakePayments: Bool { get }
    /// Starts listening to payment updates; called once at launch, not by the paywall.
    func startObserving(_ observer: @escaping (StoreTransaction) -> Void)
    /// `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: the family's share of these products was taken away
    /// (the receipt on the phone already says so).
    func observeRevokedEntitlements(_ handler: @escaping (_ productIdentifiers: [String]) -> Void)
    /// `error`: the request failed (no network, the store unavailable): it says nothing of what is sold.
    func requestProducts(
        _ identifiers: [String], completion: @escaping ([StoreProduct], _ invalid: [String], _ error: String?) -> Void)
    /// `applicationUsername`: the appAccountToken of the signed-in reader, nil for a guest.
    func addPayment(productIdentifier: String, applicationUsername: String?)
    /// The same with a promotional offer the server signed (`SKPaymentDiscount`); the payment names the
    /// customer the signature covers.
    func addPayment(productIdentifier: String, offer: SignedOffer)
    /// The product with the introductory offer Apple's sheet would give this Apple ID now (a StoreKit 1
    /// app reads it from the receipt's intro-offer history); nil when the store does not sell it.
    func currentProduct(_ productIdentifier: String) -> StoreProduct?
    func finish(_ transaction: StoreTransaction)
    /// The receipt on the device, or nil when missing.
    var appReceipt: String? { get }
    /// Whether the device holds a receipt, without reading it (Bundle.main.appStoreReceiptURL's file is there): a look
    /// that sends nothing.
    var holdsReceipt: Bool { get }
    func refreshReceipt(completion: @escaping (_ answer: ReceiptAnswer) -> Void)
    /// Shows the store's price-increase consent sheet if a subscription waits for it.
    func showPriceConsentIfNeeded()
    /// Asks the store to deliver every past purchase again as `restored`; `error` is nil on success.
    func restoreCompletedTransactions(completion: @escaping (_ error: String?) -> Void)
    /// The products of the Apple ID's Ask to Buy requests still waiting for a parent: StoreKit's queue keeps a deferred
    /// transaction until the parent answers (`SKPaymentQueue.transactions`), and forgets one whose request lapsed.
    var productsAwaitingApproval: [String] { get }
    /// The products the family shares with this Apple ID now: StoreKit 2's `Transaction.currentEntitlements` whose
    /// `ownershipType` is `familyShared`, read on the device with nothing sent (an app buying through StoreKit 1 reads
    /// them too). Apple charges a member anew for a plan the family gives them, so a guest's purchase asks first.
    var familySharedEntitlements: [String] { get }
}
