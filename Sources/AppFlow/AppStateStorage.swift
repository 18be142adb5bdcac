import SimKernel
import Subscriptions
import WhiteLabel

/// `AppState`'s stored fields, kept in one box that copies of the state share until one of them changes (copy on write).
public struct AppStateFields: Sendable {
    /// The owner's app as built; a planted defect alone changes it (`Device.defect`).
    public var app: AppPart
    /// The phone's language: the owner's paywall words are chosen by it.
    public var locale: String = "en_US"
    /// The navigation stack; the last route is on screen. Never empty.
    public var stack: [AppState.Route] = [AppState.Route.feed]
    /// The highlighted choice of each route in `stack` (and of Apple's sheet while it is up).
    public var selections: [Int] = [0]
    /// nil until the store has answered.
    public var offers: [Offer]?
    /// The owner's products the store's answer in this storefront named as not sold here (StoreKit's invalid
    /// identifiers): a subscription renewing as one ends at its period's end. Empty before an answer, or when the
    /// answer failed: nothing known is not sold.
    public var notSoldHere: Set<String> = []
    public var access: AccessSnapshot = AccessSnapshot.unknown
    /// The offer being bought, and how far it has come.
    public var purchase: (offerId: String, stage: PurchaseStage)?
    /// Apple's sheet, while the system shows it over the app.
    public var paymentSheet: PaymentSheetInfo?
    public var alert: Alert?
    /// Alerts told while another was up, shown in turn as each is dismissed: no message is lost to a later one.
    public var alertsWaiting: [Alert] = []
    public var fullContent: [String: AppState.FullContent] = [:]
    /// What the email and password fields hold.
    public var form: AccountForm = AccountForm()
    /// The parental gate on screen, if any.
    public var gate: ParentalGate?
    /// Where the gate's questions come from: a split of the world's seeded generator for each launch (the same seed
    /// asks the same questions; never the wall clock), and the last question asked, which the next one is not.
    public var gateDraws: SeededGenerator = SeededGenerator(seed: 0)
    public var lastGateQuestion: String?
    /// A restore or account operation under way, for the spinner.
    public var operation: String?
    /// The subscriptions the backend last listed, and for whom.
    public var subscriptionList: SubscriptionList?
    /// Signed in, the subscriptions the backend last listed for the phone's own anonymous identity (not moved to the
    /// account): Apple still renews or retries them, so the profile shows them too.
    public var phoneSubscriptionList: SubscriptionList?
    /// Apple's manage sheet as the App Store last showed it; nil until it answers.
    public var manageSheet: [ManagedSubscription]?
    /// A Subscribe tapped while access was still loading: decided once it is known.
    public var pendingSubscribe: PendingSubscribe?
    /// The account already asked (or moved for) about this phone's subscription: asked once, not at every event.
    public var transferAskedFor: String?
    /// The restore under way is the reader's "Move it" to a subscription held by another account (or a guest on
    /// another phone): its success moved it to this account, and "Restored… back" said it had been theirs (session 28).
    public var restoreMoves: Bool = false
    /// The virtual clock (milliseconds) when the phone last handled an event, set by the phone as it hands one over:
    /// the profile says "ends on" and "renews on" only of what is still ahead of it. Opened six seconds past a
    /// renewal it refused, it said "ends on … unless you agree" and offered to manage a subscription gone (session 30).
    public var clock: Int64?
    /// Each product's subscription group, as any catalog of this launch named it: a partial answer that leaves out
    /// the plan held does not forget its group (fuzz --seed 4113, session 27).
    public var productGroups: [String: String] = [:]
    /// Each product's title, as any catalog of this launch gave it: a charge told after the storefront changed to one
    /// that does not sell its product said "charged this Apple ID for com.podcastclub.listener.yearly" (session 37).
    public var productTitles: [String: String] = [:]
    /// The planted `title-by-identifier`: the app names every plan by its product identifier, as if no answer had
    /// titled it (the proof that invariant 9's plan-name check reads what the reader reads). Never set otherwise.
    public var namesPlansByIdentifier = false
    /// The planted `unsold-plan-said-to-renew`: the app looks for a plan this storefront does not sell only in a plan
    /// change waiting for the renewal, not in the plan itself (as before session 39). Never set otherwise.
    public var readsOnlySwitchesForSale = false
    /// The planted `profile-trial-told-as-renewal`: the profile reads no free trial in the server's answer and says a
    /// trial "renews on" its end (as before session 44). Never set otherwise.
    public var trialToldAsRenewal = false
    /// The planted `profile-keeps-moved-guest-plans`: the phone's list is kept and shown whoever the phone's guest is
    /// now, a guest moved to an account and forgotten included (as before session 45). Never set otherwise.
    public var keepsGoneGuestsList = false
}

/// The box: read and written only through `AppState`'s `subscript(dynamicMember:)`, and written only while no other copy holds it
/// (`makeUnique`), so an access to it overlaps another only where the two are accesses to the same `AppState`, which
/// Swift checks there. Unchecked: the runtime's check would be one more per field read.
@usableFromInline final class AppStateBox: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var fields: AppStateFields

    @usableFromInline init(_ fields: AppStateFields) { self.fields = fields }
}
