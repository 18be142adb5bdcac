import SimKernel

/// A subscription's status as Apple numbers it in "Get All Subscription Statuses".
public enum SubscriptionState: Int, Codable, Sendable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case gracePeriod = 4
    case revoked = 5

    /// StoreKit's rule: subscribed and in-grace customers keep their access; the others do not.
    public var isEntitled: Bool { self == .active || self == .gracePeriod }
}

/// What the App Store keeps about one auto-renewable subscription (one original transaction):
/// which product renews, whether it will, and where it stands in its period.
public struct SubscriptionRecord: Equatable, Sendable {
    public let originalTransactionId: String
    public let appleId: String
    public let deviceId: String
    public let groupId: String
    /// The product of the current period.
    public var productId: String
    /// The product the next period renews to: differs after a downgrade or crossgrade.
    public var autoRenewProductId: String
    public var autoRenew: Bool
    public var state: SubscriptionState
    /// The end of the current (or last) paid or free period.
    public var expiresDate: SimInstant
    public var gracePeriodExpiresDate: SimInstant?
    /// When Apple stops retrying to bill (60 days after the failed renewal).
    public var billingRetryEndsDate: SimInstant?
    /// 1 customer cancelled, 2 billing error, 3 no price-increase consent, 4 product unavailable, 5 other.
    public var expirationIntent: Int?
    /// nil without a price increase; 0 not yet answered; 1 consented.
    public var priceIncreaseStatus: Int?
    /// Periods still billed at the introductory price (or at `offerId`'s).
    public var introPeriodsLeft: Int
    public var latestTransactionId: String
    /// The promotional offer or offer code those periods are billed at; nil for the introductory offer.
    public var offerId: String? = nil
    /// Where the periods of months and years count from, Apple's anniversary: the start of the first such period since
    /// the purchase, an upgrade or a recovery from billing retry, each ending on its day of the month, clamped
    /// (`CalendarPeriod.added(to:anniversary:)`). Nil: from each period's own start (a family member's copy).
    public var renewalAnchor: SimInstant? = nil
}
