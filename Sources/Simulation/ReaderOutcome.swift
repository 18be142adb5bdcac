import Database
import SimKernel
import Subscriptions

/// What the app told the reader at the end of a purchase, a restore or an account step, as the
/// event the app received (not the words on screen): the invariants hold the world to it.
public struct ReaderOutcome: Sendable {
    public enum Told: Sendable, Equatable {
        case purchase(PurchaseOutcome)
        case restore(RestoreOutcome)
        case account(AccountOutcome)
    }

    public let told: Told
    /// The phone it was told on, and which launch of the app there (a restart is a new one).
    public let device: String
    public let launch: Int
    public let at: SimInstant
    /// When the act began (the effect ran), and the levels the phone held then.
    public let began: SimInstant
    public let levelsBefore: Set<String>
    /// The backend ledger's latest write when the act began (`BackendLedger.auditMark`): what it wrote at the instant
    /// `began` is before the act only up to it; nil where the act began earlier than the tap, or nobody noted it.
    public var ledgerMarkWhenBegan: Int64?
    /// The levels the phone held when it was told (the backend's answer is kept before the outcome is).
    public var levelsWhenTold: Set<String> = []
    /// Who the phone said the reader was when the act began and when told: "another account" is judged
    /// against both (the reader may have logged in while the answer was on its way).
    public var identityWhenBegan: AccessSnapshot.Identity = .none
    public var identityWhenTold: AccessSnapshot.Identity = .none
    /// Every identity the phone showed while the act ran, the one shown when it began first.
    public var identitiesWhileRan: [AccessSnapshot.Identity] = []
    /// Whether the phone could make payments (Screen Time's setting) when it was told.
    public var couldPayWhenTold = true
    /// The receipt the phone held when it was told: what the app could have asked its server about (one refreshed
    /// by a restore after the answer came lists purchases the app could not know of).
    public var receiptWhenTold: String?
    /// For a purchase: the product being bought.
    public let productId: String?
    /// A purchase nobody on screen waited for (an approval, a code redeemed on the App Store): not the end of
    /// the purchase the paywall shows.
    public var carriedOn = false
    /// A purchase carried on whose charge was news to the app: made while this launch observed the store, and
    /// delivered to it once (not Apple's record delivered again, at launch or as the answer to a payment).
    public var chargeWasNews = false
    /// For "already subscribed" of a restore: whether the server granted the reader (the identity told, or the
    /// phone's own guest) any level at that instant, or said so in an answer to the phone since the act began (a
    /// refund may land while that answer is on its way); read by the world as it is told; nil otherwise.
    public var serverGrantedWhenTold: Bool?
    /// For "Apple is still trying" of a restore: whether Apple retried a subscription of the phone's Apple ID (or of its
    /// family purchaser, shared with it) at that instant (`World.appleRetries`); nil otherwise.
    public var appleRetriedWhenTold: Bool?
    /// For "Move it?" of a subscription held elsewhere: the original transactions of the phone's Apple ID, its own or
    /// shared with it, that Apple's records gave access at that instant, a grace period included (`World.appleEntitled`);
    /// nil otherwise. Taken as told, since a grace period that ended leaves no trace in the records a later check reads.
    public var appleEntitledWhenTold: Set<String>?
    /// For a purchase or a restore: who paid for the Apple ID's newest purchases the server had not heard of when told
    /// (`UnheardPayer`), or why the ledger could not be read then; nil for an account outcome. Taken as told: Apple's
    /// notification may write the follow of who paid after the telling, and a check reading then would count that move
    /// neither among the ledger's moves up to the telling nor among the unheard (long fuzz seed 2249, session 368).
    var unheardPayersWhenTold: Result<[UnheardPayer], DatabaseError>?
    /// For an account outcome of a move to the account (a transfer): the phone's guest it was to move from, as the
    /// phone held it when the act began; nil for any other act.
    public var transferFrom: String?
    /// For a sign-in told failed: the run of the same sign-ins it was one of (`PhoneTransport.signIn`), and, on its
    /// `signInTicks`, when its act began and when it was told; nil for any other. Judged once the world settled
    /// (`ToldCheck+SignIn`): an acceptance of one sent before the failure was told may reach the app after it.
    public var signInFailed: (run: Int, began: Int, told: Int)?
    /// For a purchase the reader started: how many of the server's answers to what a restore here would do the app
    /// took since it started; nil for any other act (a purchase carried on has no start on the phone).
    public var inspectAnswersSinceBegan: Int?
}
