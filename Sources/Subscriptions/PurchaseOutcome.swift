import SimKernel

/// How a purchase ended, in terms of what the reader sees.
public enum PurchaseOutcome: Equatable, Sendable {
    /// Paid, validated by the backend, levels published.
    case purchased
    /// An earlier charge the reader was told could not be confirmed, whose receipt sent again the server has now
    /// accepted: levels published, and the reader told so (session 32: the subscription came with no word after "could
    /// not be confirmed", as Apple's record delivered again is not news of a charge).
    case confirmedAfterAll
    /// Signed in, and the Apple ID already held a subscription the account could take: moved, not charged.
    case restoredInsteadOfCharging
    /// As `restoredInsteadOfCharging`, of a family member's purchase shared with the Apple ID: "This Apple ID already
    /// had a subscription" told a family member the plan the organiser pays for was theirs (session 33).
    case sharedInsteadOfCharging
    /// The reader cancelled on Apple's sheet: no error shown.
    case cancelled
    /// Waiting for a parent's approval (Ask to Buy).
    case pending
    /// A parent declined the request that waited (Ask to Buy): nothing was charged.
    case declined
    /// Apple refused the payment; the message is plain language.
    case failed(message: String)
    /// Paid, but the server check failed: "Restore purchase" brings it back.
    case serverCheckFailed(message: String)
    /// The server check failed for a purchase Apple did not charge anew (the Apple ID already paid):
    /// the reader is not told a payment went through.
    case notConfirmed(message: String)
    /// The backend checked the receipt and the subscription is not active (Apple could not charge it and
    /// is retrying, or it was refunded): nothing unlocks, and the reader is told so, not "subscribed".
    case subscriptionNotActive
    /// Apple charged nothing: this Apple ID already pays for the subscription, for an identity this
    /// phone does not hold (a guest on a new phone). "Restore purchase" brings it here. `planChanged`: the plan
    /// chosen was another of the group, which Apple set for that subscription's next renewal.
    case alreadySubscribedOnAppleId(planChanged: Bool = false)
    /// This Apple ID pays for a subscription someone else holds (another account; after a charge, possibly a
    /// guest on another phone): the signed-in reader is asked before it moves (`canMove`), or told it stays.
    case ownedByAnotherAccount(canMove: Bool)
    /// A guest paid, and Apple put the charge on a subscription someone else holds (a resubscription under
    /// its original purchase): it stays theirs, nothing unlocks here, and the reader is told they paid.
    case chargedForAnotherOwner
    /// This Apple ID pays for a subscription of the group someone else holds, and a restore here would be refused
    /// for `why` (the server said so when asked): told before any sheet to a signed-in reader, or after Apple's
    /// answer to a guest, instead of "use Restore purchase" (session 27). `charged`: Apple's charge went to it.
    case heldElsewhere(MoveRefusal, charged: Bool)
    /// A guest chose another plan of the group: Apple set it for the next renewal of the subscription this Apple ID
    /// pays for, which someone else holds and a restore here would refuse for `why`: told the change, and why it
    /// stays, instead of "use Restore purchase" (session 28). Nothing was charged.
    case planChangeSetElsewhere(MoveRefusal)
    /// A guest chose a plan of a group the family already shares with this Apple ID, and the share is held where a
    /// restore here would refuse it for `why` (an account holds it, the move limit): told before any sheet, nothing
    /// charged (session 34).
    case sharedHeldElsewhere(MoveRefusal)
    /// The server said someone else holds what this Apple ID pays for (`charged`: Apple's charge went to it;
    /// `planChanged`: Apple set the plan chosen for its renewal, nothing charged), and its answer to what a restore here
    /// would do went unheard (a fault, or the app gave up at its timeout): the reader is told it could not be checked,
    /// and that Restore purchase checks again, instead of the guess "use Restore purchase" that the owner's policy
    /// refuses most of the time (session 37).
    case heldElsewhereUnchecked(charged: Bool, planChanged: Bool = false)
    /// Not started.
    case refused(PurchaseRefusal)
}

/// Why a subscription someone else holds does not move to the reader now, in the server's restore codes.
public enum MoveRefusal: String, Equatable, Sendable {
    /// It moved 3 times in 30 days.
    case limit = "restore_limit"
    /// The owner's policy keeps a purchase with its original owner.
    case keptWithOwner = "restore_kept_with_owner"
    /// The owner's policy moves it only once its owner holds no active subscription.
    case ownerActive = "restore_owner_active"
    /// An account holds it, and a guest never takes from an account.
    case accountOwned = "restore_account_owned"
}

extension PurchaseOutcome {
    /// Apple's sheet was confirmed and the App Store failed the payment (or interrupted it: StoreKit 1 reports that
    /// as failed until it is resolved outside the app).
    public static let storeFailed = PurchaseOutcome.failed(
        message: "The App Store could not complete the payment. You were not charged.")
    /// Apple failed the payment while the reader gained levels during the purchase (a subscription found meanwhile: a
    /// session refreshed during the check before paying brought one held before the tap, or a restore the reader tapped
    /// while it ran moved one paid before it here): both are said (session 32; default fuzz seed 5317, session 40).
    public static let storeFailedBesideLevelsFound = PurchaseOutcome.failed(
        message:
            "The App Store could not complete the payment. You were not charged. You already have a subscription, "
            + "found meanwhile: what it gives is unlocked.")
    /// Paid, and no receipt to check it with even after a refresh, nor any word of the server on what a restore here
    /// would do: Restore purchase is not advised, as the server may refuse it (session 32).
    public static let noReceiptToCheck = PurchaseOutcome.serverCheckFailed(
        message: "Your purchase could not be checked: the App Store gave this phone no receipt to send to the server.")
    /// Apple charged for the purchase, and the server check failed: Restore purchase brings it back.
    public static let paymentNotConfirmed = PurchaseOutcome.serverCheckFailed(
        message: "Your payment went through but could not be confirmed. Use Restore purchase to get it back.")
    /// `paymentNotConfirmed` of a payment made signed in whose account was signed out meanwhile: it follows the account.
    public static let paymentNotConfirmedSignedOut = PurchaseOutcome.serverCheckFailed(
        message: "Your payment went through but could not be confirmed, and you were signed out. Log in to use it.")
    /// Apple started a free trial (no payment), and the server check failed: "Your payment went through" was said of
    /// it, where nothing was paid (session 44's walk, hand-01c).
    public static let trialNotConfirmed = PurchaseOutcome.serverCheckFailed(
        message: "Your free trial started but could not be confirmed. Use Restore purchase to get it back.")
    /// `trialNotConfirmed` of a trial started signed in whose account was signed out meanwhile.
    public static let trialNotConfirmedSignedOut = PurchaseOutcome.serverCheckFailed(
        message: "Your free trial started but could not be confirmed, and you were signed out. Log in to use it.")

    /// Whether the reader is told a payment went through: invariant 9 holds it to a charge that cost money.
    public var saysPaymentWentThrough: Bool { self == .paymentNotConfirmed || self == .paymentNotConfirmedSignedOut }

    /// Whether the reader is told a free trial started (Apple's new transaction, which charged nothing).
    public var saysTrialStarted: Bool { self == .trialNotConfirmed || self == .trialNotConfirmedSignedOut }

    /// The server did not sign the promotional offer the paywall showed: no payment went to Apple.
    public static let offerNotSigned = PurchaseOutcome.failed(
        message: "The offer could not be applied. Nothing was charged; try again.")
    /// Restore before purchase: the move of what the Apple ID already pays for went unanswered, and the server could
    /// not say where it is now: no payment went to Apple.
    public static let moveNotChecked = PurchaseOutcome.failed(
        message:
            "Whether your subscription is now on your account could not be checked. Nothing was charged; please try again."
    )
    /// Restore before purchase: the move went unanswered, or was refused unheard (a 401, a 4xx), and the server holds
    /// the subscription where it was.
    public static let moveNotMade = PurchaseOutcome.failed(
        message: "Your subscription could not be moved to your account. Nothing was charged; please try again.")
    /// Restore before purchase: the server refused the phone's receipt as not Apple's (`422 receipt_invalid`), a fresh
    /// one too, so what the Apple ID already pays for could not be checked: no payment went to Apple.
    public static let receiptNotVerified = PurchaseOutcome.failed(
        message:
            "The App Store receipt on this phone could not be verified, so what your Apple ID already pays for could "
            + "not be checked. Nothing was charged; please try again later.")
    /// `receiptNotVerified` where Apple charged a payment of the product while the purchase ran (an interruption
    /// resolved outside the app, told "could not be confirmed"): this tap charged nothing, but "Nothing was charged"
    /// said after that charge was untrue of the product the reader asked for (long fuzz seed 1542).
    public static let receiptNotVerifiedAfterCharge = PurchaseOutcome.failed(
        message:
            "The App Store receipt on this phone could not be verified, so this purchase was not sent to the App "
            + "Store. Your earlier payment for this subscription went through; please try again later.")

    /// Whether a subscription held elsewhere may come here could not be checked: Restore purchase asks the server again
    /// and says either way. Read by `ToldCheck`'s `AdviceWords` as a retry, not as advice that it comes (session 37).
    public static let restoreUncheckedWords =
        "Whether it can come here could not be checked just now. Restore purchase checks again: it brings the "
        + "subscription here if it can, or says where it stays."

    /// A failed check of a purchase Apple charged nothing new for, whose server's word on a restore here went unheard:
    /// the Apple ID already pays for the subscription, held somewhere, and only the server may say a restore brings it
    /// (found-by-hand/548: "Use Restore purchase to get it back" under keep-with-original-owner, which a restore then
    /// refused).
    public static let notConfirmedUnchecked = PurchaseOutcome.notConfirmed(
        message:
            "Your purchase could not be confirmed. This Apple ID already pays for this subscription, so you were not "
            + "charged again. \(restoreUncheckedWords)")

    /// Restore before purchase of a guest: the family shares the group with this Apple ID, and bringing the share here
    /// went unanswered or brought no access; paying would pay for what the family gives (session 34).
    public static let shareNotBrought = PurchaseOutcome.failed(
        message:
            "Your family already shares this subscription with this Apple ID, but it could not be brought to this "
            + "phone. Nothing was charged; please try again.")

    /// Whether the reader is told nothing was charged, or nothing yet (a parent has to approve first): a held payment
    /// Apple charges later makes it untrue.
    public var saysNothingCharged: Bool {
        switch self {
        case .pending, .declined, .refused(.approvalPending), .restoredInsteadOfCharging, .sharedInsteadOfCharging,
            .alreadySubscribedOnAppleId, .heldElsewhereUnchecked(charged: false, _),
            .ownedByAnotherAccount(canMove: false), .heldElsewhere(_, charged: false), .planChangeSetElsewhere,
            .sharedHeldElsewhere,
            Self.storeFailed, Self.storeFailedBesideLevelsFound,
            Self.offerNotSigned, Self.moveNotChecked, Self.moveNotMade, Self.receiptNotVerified, Self.shareNotBrought,
            Self.guestMoveWaitsForTheLimit, Self.notConfirmedUnchecked:
            true
        default:
            false
        }
    }

    /// Whether the reader is told Apple charged the Apple ID.
    public var saysCharged: Bool {
        switch self {
        case Self.trialNotConfirmed, Self.trialNotConfirmedSignedOut: false
        case .serverCheckFailed, .chargedForAnotherOwner, .heldElsewhere(_, charged: true),
            .heldElsewhereUnchecked(charged: true, _):
            true
        default: false
        }
    }

    /// Whether the reader is told to use Restore purchase (to get it back, or to move it here): said only where the
    /// server's restore inspect does not refuse a restore here.
    var advisesRestore: Bool {
        switch self {
        case .serverCheckFailed, .notConfirmed, .chargedForAnotherOwner: true
        default: false
        }
    }
}

extension PurchaseOutcome {
    /// What is told in place of this outcome when the server's answer to what a restore here would do went unheard (or
    /// could not be asked, no receipt to ask with): a subscription the server said someone else holds is told as not
    /// checked, not with "use Restore purchase", which the owner's policy may refuse (session 37); so is a failed check
    /// of a purchase Apple charged nothing new for, whose subscription is held somewhere, maybe elsewhere
    /// (found-by-hand/548); any other outcome as it is (a fresh charge's failed check keeps seed 000's way back).
    func toldUnchecked(_ defect: CoordinatorDefect?) -> PurchaseOutcome {
        if defect == .guessUncheckedRestore { return self }
        return switch self {
        case .chargedForAnotherOwner: .heldElsewhereUnchecked(charged: true)
        case .alreadySubscribedOnAppleId(let changed): .heldElsewhereUnchecked(charged: false, planChanged: changed)
        case .notConfirmed: .notConfirmedUnchecked
        default: self
        }
    }
}

/// Why a purchase did not start.
public enum PurchaseRefusal: Equatable, Sendable {
    case purchaseInProgress
    case paymentsNotAllowed
    case offerUnavailable
    /// A kids app, or an under-age reader, buys only after a grown-up answered the parental gate: the
    /// app shows the gate (once payments are known to be allowed and the offer to exist).
    case parentalGateRequired
    /// The paywall promised a free trial Apple's sheet would not give (or the other way round): the
    /// paywall is corrected and the reader chooses again, so the two never disagree.
    case termsChanged
    /// A request of this Apple ID for a plan of the offer's group waits for a parent (Ask to Buy): seed 000's "the
    /// request stays open", and a second payment is refused while one runs. No gate, no sheet, no second request.
    case approvalPending
    /// A payment an earlier launch of the app handed to Apple is still going through (the app restarted meanwhile):
    /// no purchase on screen waits for it, and a second is refused until it ends (session 27).
    case earlierPaymentRunning
}

/// Where a running purchase is, for the spinner.
public enum PurchaseStage: Equatable, Sendable {
    case waitingForStore
    case checkingWithServer
    /// Apple took a payment of this product moments before (a parent's approval, a resolved interruption) and
    /// the server is checking it: the purchase waits for that check rather than paying again.
    case checkingEarlierPayment(paidAt: SimInstant)
}
