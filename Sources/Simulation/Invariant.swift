/// The guarantees the fuzzer checks after every step (issue 8's list, in its order, then issue 12's, then
/// the seed promises found unchecked later).
public enum Invariant: Int, CaseIterable, Sendable, CustomStringConvertible {
    case backendsWord = 1
    case contentFollowsLevels
    case noDoubleCharge
    case onePaymentAtATime
    case nothingPaidLost
    case ownershipMoves
    case survivesRestartAndAds
    case paywallOffers
    case toldIsTrue
    case payingKeepsAccess
    case noSilentCharge
    case movesOnlyAsAsked
    case sheetsTellTheTruth
    case familySharedFollowsSharing
    case parentalGateFirst
    case refundTakesAccessBack
    case restoreBeforePurchase
    case receiptRefreshOnce
    case subscriberPage
    case priceConsentAsked
    case accountRequired
    case paymentsAllowedFirst
    case transferOffered
    case strayKeyMovesNoMoney

    public var description: String {
        switch self {
        case .backendsWord: "nothing unlocks without the backend's word"
        case .contentFollowsLevels: "content is unlocked exactly when the levels meet it; no cache for a level not held"
        case .noDoubleCharge:
            "no second charge for a subscription group the Apple ID already pays for, and no parent asked to approve a "
                + "payment of the plan it pays for"
        case .onePaymentAtATime:
            "at most one payment in flight, whichever launch of the app added it (a request waiting for a parent is "
                + "one, for its group), and none waited for once nothing is on its way; a cancellation never shows an "
                + "error"
        case .nothingPaidLost: "nothing paid is lost: a restore gives its owner the access"
        case .ownershipMoves: "a purchase moves at most 3 times in 30 days; the ledger holds"
        case .survivesRestartAndAds: "anonymous levels survive a restart or a kill; ads follow the owner's rule"
        case .paywallOffers:
            "the paywall shows configured ∩ returned (a subscriber's less the groups held), in the owner's order; a "
                + "payment is for a product returned"
        case .toldIsTrue:
            "what the reader is told is true: success means access, \"nothing to restore\" means nothing paid and moves "
                + "nothing, \"Purchase complete\" is told of a purchase, never of a renewal, \"not charged\" is not left on screen once the phone's payment is charged, nor "
                + "\"Waiting for approval\" once a parent answered and no request waits (of a request Apple tells the app "
                + "nothing of, once the app became active since), a renewal Apple makes at an offer's price is not "
                + "said to end, nor is a plan the storefront does not sell said to renew, a family share is not said "
                + "to renew where the purchaser's renewal ends it, and the "
                + "profile says who paid: a family member's shared purchase is not said subscribed to on the phone; "
                + "\"Move it?\" of a subscription held elsewhere stays up only for a signed-in reader, and, once the app "
                + "became active, only while the Apple ID holds a subscription that gives access; a sign-in the server "
                + "accepted is not told failed"
        case .payingKeepsAccess:
            "a paying reader keeps access: a phone holds its owner, shows its levels, loads its content, and signs "
                + "nobody out in silence"
        case .noSilentCharge:
            "no silent charge: a charge without access, or one no purchase on screen waited for (or whose app was quit "
                + "before the reader heard of it), ends in a message the reader sees; so does a parent's \"no\" to a request "
                + "the phone's app asked (its next launch's to tell when no app of the phone ran)"
        case .movesOnlyAsAsked: "a purchase moves between owners only as often as the reader asked"
        case .sheetsTellTheTruth:
            "Apple's sheets tell the truth: the payment sheet agrees with the paywall and heads with what it charges "
                + "now, in amounts its currency shows and never a paid offer at nothing, a payment it confirmed at an "
                + "offer's price is charged at that price or not at all, the manage sheet agrees with the App Store "
                + "(every subscription Apple may still charge listed, to cancel), the price-consent sheet threatens no "
                + "end while an offer's periods are due, and an Apple ID gets one introductory offer per subscription group"
        case .familySharedFollowsSharing:
            "family-shared access only while the purchaser shares: everyone else in the family is given a share of a "
                + "shareable purchase that stands, none after Apple's REVOKE, and granted while the purchaser's shared "
                + "subscription gives access (its grace period too); a share Apple takes back while the member's app "
                + "runs (sharing off, a member leaving, a refund, a revoke) leaves none of its levels on that phone that "
                + "the backend no longer grants"
        case .parentalGateFirst:
            "in a kids app or for an under-age reader, no payment reaches Apple before a grown-up answers the gate, "
                + "and the next gate does not ask the question a grown-up was just seen answering"
        case .refundTakesAccessBack:
            "a refund or a revocation takes access back: nothing granted from what Apple revoked"
        case .restoreBeforePurchase:
            "restore before purchase: a signed-in reader is never sent to Apple's sheet for a group the Apple ID "
                + "already pays for with a purchase the account holds or may take, or that the move limit or the policy keeps "
                + "from it, nor told purchases are off for it; a guest is never sent there for a group the family already "
                + "shares with the Apple ID"
        case .receiptRefreshOnce:
            "receipt refresh done once for all who wait: an app never asks Apple for a receipt while its own "
                + "request for one runs"
        case .subscriberPage:
            "the subscription page is for readers who have not subscribed, per level: never left open to a reader "
                + "holding levels unless it offers a group they lack, a subscriber's Subscribe leads to a paywall of the "
                + "groups not held or, holding every one on sale, to the profile, and a purchase closes it, once the server's levels "
                + "reached the phone, onto the screen it was opened from"
        case .priceConsentAsked:
            "a price increase waiting for consent is asked when the app becomes active (a launch, the foreground), "
                + "and only a raised price of the plan it renews as, raised since the subscriber chose that plan, ends it"
        case .accountRequired:
            "where the owner requires an account after subscribing, a reader who subscribed without one is asked to "
                + "log in or sign up, and only such a reader; a signed-in reader is offered no log-in or sign-up"
        case .paymentsAllowedFirst:
            "the app checks that the phone can make payments before handing Apple a payment"
        case .transferOffered:
            "a reader who subscribed without an account and signs in is asked whether to move the subscription to "
                + "the account"
        case .strayKeyMovesNoMoney:
            "a stray key moves no money: Apple's sheets open on a choice that neither pays nor changes a "
                + "subscription (Cancel, Not now, Done)"
        }
    }
}

/// One broken guarantee: which, and what was seen.
public struct InvariantViolation: Equatable, Sendable, CustomStringConvertible {
    public let invariant: Invariant
    public let detail: String

    public init(_ invariant: Invariant, _ detail: String) {
        self.invariant = invariant
        self.detail = detail
    }

    public var description: String { "invariant \(invariant.rawValue) (\(invariant)): \(detail)" }
}

extension InvariantViolation {
    /// `check`'s violations; a check that cannot read what it checks (the ledger) has not seen its guarantee
    /// hold, so its error is a violation: "every invariant held" must never stand on an unread ledger.
    static func checking(_ invariant: Invariant, _ check: () throws -> [InvariantViolation]) -> [InvariantViolation] {
        do {
            return try check()
        } catch {
            return [InvariantViolation(invariant, "cannot be checked, the ledger cannot be read: \(error)")]
        }
    }
}
