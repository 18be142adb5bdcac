import FoundationEssentials
import SimKernel

/// The states of a payment, as StoreKit's `SKPaymentTransactionState`.
public enum TransactionState: String, Sendable, Codable {
    case purchasing
    case purchased
    case failed
    case restored
    case deferred
}

/// Why a payment failed, with StoreKit's `SKError.Code` names.
public enum StoreError: String, Error, Sendable, Codable {
    case paymentCancelled
    case paymentNotAllowed
    case paymentInvalid
    case storeProductNotAvailable
    case unknown
    case cloudServiceNetworkConnectionFailed
    case clientInvalid
    case cloudServicePermissionDenied
    case cloudServiceRevoked
    case privacyAcknowledgementRequired
    case unauthorizedRequestData
    case invalidOfferIdentifier
    case invalidSignature
    case missingOfferParams
    case invalidOfferPrice
    case overlayTimeout
    case ineligibleForOffer
    case unsupportedPlatform
}

/// One transaction on the payment queue, as the observer sees it. Like StoreKit's, it has
/// identifiers only once the store has charged (purchased or restored).
public struct PaymentTransaction: Equatable, Sendable {
    /// Which payment this is on the device's queue, from `add` to `finish`.
    public let paymentNumber: Int
    public let transactionIdentifier: String?
    public let originalTransactionIdentifier: String?
    public let productIdentifier: String
    public let transactionDate: SimInstant
    public let state: TransactionState
    public let error: StoreError?
    /// Apple charged it as a renewal of a running subscription (a billing recovery), not as a payment the reader made:
    /// StoreKit 2's `Transaction.reason` `.renewal`. The app tells it as the subscription active again.
    public var isRenewal = false
    /// A family member's share (`inAppOwnershipType` FAMILY_SHARED): the member's Apple ID paid nothing.
    public var isFamilyShared = false
    /// Its period is a free trial (`TransactionRecord.isTrialPeriod`, StoreKit 2's offer payment mode `.freeTrial`):
    /// Apple charged nothing, and the app tells a trial's start, not a charge (session 44's walk, hand-01).
    public var isTrialPeriod = false
    /// An earlier period of its subscription cost money (`AppStore.paidBefore`): only then is a renewal charged "again".
    public var isPaidBefore = false
}

/// What the App Store records for a charged purchase: the truth the server API answers from.
public struct TransactionRecord: Equatable, Sendable, Codable {
    public let transactionIdentifier: String
    public let originalTransactionIdentifier: String
    public let productIdentifier: String
    public let appleId: String
    public let deviceId: String
    public let purchaseDate: SimInstant
    public let expiresDate: SimInstant?
    public var finished: Bool
    /// Set when Apple refunded the purchase or withdrew Family Sharing access.
    public var revocationDate: SimInstant? = nil
    /// 0 other (e.g. accidental purchase), 1 an issue with the app.
    public var revocationReason: Int? = nil
    /// `PURCHASE` or `RENEWAL`, as Apple's `transactionReason`.
    public var transactionReason: String? = nil
    /// 1 when the period was an introductory offer (Apple's `offerType`).
    public var offerType: Int? = nil
    /// True once an upgrade replaced this transaction's subscription mid-period.
    public var isUpgraded: Bool = false
    /// The UUID the app set on the payment to name its customer (`applicationUsername`, StoreKit 2's
    /// `appAccountToken`); nil when it set none.
    public var appAccountToken: String? = nil
    /// `FAMILY_SHARED` for a family member's own transaction of a purchase made by the family's purchaser;
    /// nil for the Apple ID's own (Apple's `PURCHASED`).
    public var inAppOwnershipType: String? = nil
    /// What Apple charged for it, in the storefront's currency: an offer's price for an offer's period, 0 for a free
    /// trial or a family member's share; nil in records kept before prices were.
    public var price: Decimal? = nil
    /// The currency `price` is in (ISO 4217, the storefront's when charged); nil in records kept before it was. A
    /// price is compared only with one of the same currency (an upgrade in Britain refunded dollars as pounds, and a
    /// recovered renewal took the dollars paid for the pounds agreed to: session 26, long fuzz seed 1037).
    public var currency: String? = nil

    /// What it charged, where its currency is `currency`: nil in another currency or when unknown.
    public func price(in currency: String) -> Decimal? {
        self.currency == currency ? price : nil
    }

    public var isFamilyShared: Bool { inAppOwnershipType == FamilySharing.familyShared }

    /// Its period is an offer's that cost the Apple ID nothing, a free trial (verifyReceipt's `is_trial_period`,
    /// `offerDiscountType` FREE_TRIAL): a family member's share, which costs its member nothing, is not one.
    public var isTrialPeriod: Bool { offerType != nil && !isFamilyShared && price == 0 }
}
