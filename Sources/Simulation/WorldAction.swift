import FoundationEssentials
import SimKernel
import StoreSim
import Subscriptions

/// Everything done to the world from outside the phone, as one value: a control of the terminal's pane,
/// a scenario's world step or a setting changed after launch, a line of a recording, a fuzzer's draw.
/// Adding one is a case here, its words in `WorldActionText.swift`, and what it does in
/// `WorldAction+Apply.swift`; the control pane, scenarios, recordings and walks need nothing more.
public enum WorldAction: Equatable, Sendable {
    // Time.
    case advance(Advance)

    // Apple (`store …`).
    /// The clock moves just past the next renewal.
    case renew
    /// Every entitled subscription stops renewing and runs out.
    case expire
    case refund
    /// Family Sharing stops sharing the latest transaction.
    case revoke
    /// The reader's payment method fails (`store billing-issue`, with Apple's billing grace period as the `.storekit`
    /// file or the config sets it) or works again (`store recover`).
    case billingIssue(Bool)
    /// The reader's payment method fails, with the grace period on or off whatever the file sets (`store
    /// billing-issue grace|no-grace`; session 31, h11: a scenario could not ask for either).
    case billingIssueWith(grace: Bool)
    /// The reader did outside the app what an interrupted purchase asked (new terms, a payment method):
    /// the purchase completes as a new transaction reaching the observer.
    case resolveInterrupted
    /// Apple raises the price of the running subscription: consent is asked when the app becomes active.
    case priceIncrease
    /// App Store Connect raises one product's price to `price`; its subscribers are asked to consent.
    case raisePrice(product: String, price: Decimal)
    /// The reader changes plan in "Manage my subscription"; refused unless Apple classes the change as said.
    case changePlan(PlanChange, String)
    /// The Transaction Manager's control on one transaction, or on a held payment (`ask-to-buy-N`).
    case transaction(TransactionControl, String)
    /// What the App Store does with the next purchase; replaces the outcome planned before.
    case nextPurchase(NextPurchase)
    /// The App Store's planned faults for a target are lifted ("the next purchase goes through").
    case clearFaults(String)

    // A parent.
    case askToBuy(Bool)
    case parentApprove
    case parentDecline

    // The phone.
    case background
    /// Back from the background; after `kill`, the app starts again.
    case foreground
    case restartApp
    case newDevice(String)
    /// Another phone the world has comes on screen, its app started again on what that phone kept (session 28: no
    /// control went back to the subscriber's own phone after a family member's or a new one).
    case phone(String)
    /// The app's process dies; nothing runs on the phone until it is started again.
    case kill
    /// Screen Time lets the phone pay, or not.
    case payments(allowed: Bool)
    /// How old the reader is (nil: an adult); under 18, every purchase asks the parental gate first.
    case readerAge(Int?)
    /// The app receipt goes missing from the phone (a reinstall).
    case removeReceipt
    /// The reader redeems an offer code on the App Store (a `.storekit` file's `codeOffers`).
    case redeemCode(String)

    // The reader's family.
    /// The Apple ID joins the reader's family; a phone signed into it comes on screen.
    case familyAdd(String)
    /// The member leaves the family (Apple revokes what was shared with them).
    case familyRemove(String)
    /// The reader shares their subscriptions with the family, or stops.
    case familySharing(Bool)

    // Settings a phone can change after launch (before launch, a scenario's setup gathers them).
    /// The reader's App Store country.
    case storefront(String)
    case locale(String)
    case latency(LatencyProfile)
    case inject(FaultPlan)
    /// When the app finishes Apple's transaction, around the server check.
    case finish(SubscriptionCoordinator.FinishPolicy)

    /// A setting a scenario may write before launch, where it builds the world instead of changing it.
    public var isSetting: Bool {
        switch self {
        case .storefront, .locale, .latency, .inject, .finish: true
        default: false
        }
    }
}

/// A length of time to move the clock: fixed, or calendar months as renewals count them.
public enum Advance: Sendable, Equatable {
    case fixed(SimDuration)
    case months(Int)
}
