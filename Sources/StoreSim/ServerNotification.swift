import FoundationEssentials
import Signing
import SimKernel

/// App Store Server Notifications V2 types, with Apple's names (App Store Server Library's `NotificationTypeV2`).
public enum NotificationType: String, Codable, Sendable, CaseIterable {
    case subscribed = "SUBSCRIBED"
    case didRenew = "DID_RENEW"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case expired = "EXPIRED"
    case refund = "REFUND"
    case refundReversed = "REFUND_REVERSED"
    case revoke = "REVOKE"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case priceIncrease = "PRICE_INCREASE"
    case offerRedeemed = "OFFER_REDEEMED"
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case test = "TEST"
}

/// Notification subtypes, with Apple's names.
public enum NotificationSubtype: String, Codable, Sendable, CaseIterable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case downgrade = "DOWNGRADE"
    case upgrade = "UPGRADE"
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case priceIncrease = "PRICE_INCREASE"
    case gracePeriod = "GRACE_PERIOD"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case billingRecovery = "BILLING_RECOVERY"
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
}

/// The transaction a notification is about (`JWSTransactionDecodedPayload`). Dates are milliseconds.
public struct TransactionInfo: Codable, Equatable, Sendable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var bundleId: String
    public var environment: StoreEnvironment
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var expiresDate: Int64?
    public var revocationDate: Int64?
    /// 0 other (e.g. accidental purchase), 1 an issue with the app.
    public var revocationReason: Int?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String
    /// The UUID the app set on the payment to name its customer, if any.
    public var appAccountToken: String?
    /// The device whose receipt first carried the purchase (a simulator field; Apple's payload has none).
    public var deviceId: String
    public var signedDate: Int64
    /// Only for auto-renewable subscriptions.
    public var subscriptionGroupIdentifier: String? = nil
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String? = nil
    /// 1 introductory offer, 2 promotional offer, 3 offer code.
    public var offerType: Int? = nil
    /// True when an upgrade replaced this transaction before its period ended.
    public var isUpgraded: Bool? = nil
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable` or `Non-Renewing Subscription`.
    public var type: String? = nil
    /// The offer's payment mode: `FREE_TRIAL` for an offer's period that cost nothing (`TransactionRecord.isTrialPeriod`);
    /// absent otherwise (the simulator tells a paid offer's mode by its price alone, so writes no other).
    public var offerDiscountType: String? = nil

    public static let freeTrial = "FREE_TRIAL"
}

/// The subscription's renewal state (`JWSRenewalInfoDecodedPayload`). Dates are milliseconds.
public struct RenewalInfo: Codable, Equatable, Sendable {
    public var originalTransactionId: String
    public var productId: String
    public var autoRenewProductId: String
    /// 0 off, 1 on.
    public var autoRenewStatus: Int
    public var isInBillingRetryPeriod: Bool
    public var gracePeriodExpiresDate: Int64?
    /// 1 customer cancelled, 2 billing error, 3 no price-increase consent, 4 product unavailable, 5 other.
    public var expirationIntent: Int?
    /// 0 not responded, 1 consented.
    public var priceIncreaseStatus: Int?
    public var renewalDate: Int64?
    public var signedDate: Int64
    /// The offer that prices the next renewal (1 introductory, 2 promotional, 3 code), nil for the regular price: an
    /// offer's periods renew without consent to a raised price (session 27).
    public var offerType: Int? = nil
}

/// `data` of a notification: which app, and the signed transaction and renewal info.
public struct NotificationData: Codable, Equatable, Sendable {
    public var bundleId: String
    public var environment: StoreEnvironment
    /// nil only in a TEST notification, which is about no transaction.
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?
    /// 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public var status: Int?
}

/// A decoded notification (`ResponseBodyV2DecodedPayload`). The store posts it signed, as `signedPayload`.
public struct NotificationPayload: Codable, Equatable, Sendable {
    public var notificationType: NotificationType
    public var subtype: NotificationSubtype?
    /// Identifies duplicates: the same notification delivered twice has the same UUID.
    public var notificationUUID: String
    public var version: String
    /// Apple's signing time: when several notifications are about one transaction, the newest wins.
    public var signedDate: Int64
    public var data: NotificationData
}

/// Signs and opens notifications and the JWS values inside them, with the App Store's key.
public enum NotificationCodec {
    /// Only what the store writes by hand is signed: an encoder that could fail would sign nothing.
    public static func seal(_ value: some CanonicalJSONWritable, with key: SigningKey) -> String {
        SignedEnvelope.seal(value.canonicalJSON, with: key)
    }

    public static func open<T: Decodable>(_ type: T.Type, from jws: String, with key: VerifyingKey) -> T? {
        guard let bytes = SignedEnvelope.open(jws, with: key) else { return nil }
        return decode(type, from: bytes)
    }

    /// A JWS value carried inside a notification whose signature was checked (its bytes are covered).
    public static func openEnclosed<T: Decodable>(_ type: T.Type, from jws: String) -> T? {
        guard let bytes = SignedEnvelope.payload(ofEnclosed: jws) else { return nil }
        return decode(type, from: bytes)
    }

    /// `bytes` decoded as `JSONDecoder` decodes them (nil where it throws); the store's own payloads
    /// are read by `QuickJSON` first.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        if let quick = type as? QuickDecodable.Type, let members = QuickJSON.object(bytes) {
            var fields = QuickFields(members)
            if let value = quick.init(quick: &fields) as? T, !fields.failed { return value }
        }
        return try? JSONDecoder().decode(type, from: Data(bytes))
    }
}
