/// A rule of the coordinator broken on purpose, to prove the fuzzer catches it
/// (`paywall-sim fuzz --defect NAME`). Never set in a normal run.
public enum CoordinatorDefect: String, CaseIterable, Sendable {
    /// Unlocks the app's content on Apple's "purchased", without waiting for the backend's word.
    case unlockOnPurchased = "unlock-on-purchased"
    /// Lets a second payment start while one is running.
    case secondPayment = "second-payment"
    /// Keeps the cached full content of a level the reader lost.
    case keepCache = "keep-cache"
    /// Sends a second restore while one runs, and keeps whichever answer lands last (issue 12, defect 1).
    case restoreTwice = "restore-twice"
    /// Never renews an anonymous token: a reader who paid without an account is locked out after a year
    /// (issue 12, defect 2).
    case anonymousTokenExpires = "anonymous-token-expires"
    /// Says "Your subscription is back." whenever a restore found something, valid or not: moved, or ended (defect 3).
    case restoredWithoutAccess = "restored-without-access"
    /// Says nothing when a purchase nobody on screen waited for (Ask to Buy approved later) fails its
    /// server check: charged, locked, silent (defect 7).
    case silentApproval = "silent-approval"
    /// Hands a payment to Apple, or opens Apple's manage sheet (whose switch charges), without the parental gate a
    /// kids app or an under-age reader needs.
    case skipParentalGate = "skip-parental-gate"
    /// Hands a signed-in reader's payment to Apple without first asking the server whether this Apple ID
    /// already pays for a subscription the account can take.
    case skipRestoreBeforePurchase = "skip-restore-before-purchase"
    /// Sends a receipt refresh for every caller that finds the receipt missing, instead of one for all.
    case refreshPerCaller = "refresh-per-caller"
    /// Hands Apple the paywall's first offer whichever the reader chose.
    case payForFirstOffer = "pay-for-first-offer"
    /// Tells a reader whose payment the server confirmed that the subscription is not active.
    case notActiveAfterPaying = "not-active-after-paying"
    /// Never lets Apple show a price increase waiting for consent when the app becomes active.
    case skipPriceConsent = "skip-price-consent"
    /// Tells a reader who cancelled on Apple's sheet that the purchase failed.
    case alertOnCancel = "alert-on-cancel"
    /// Never sends again at launch a receipt whose answer the last run lost by quitting.
    case forgetUnansweredReceipt = "forget-unanswered-receipt"
    /// Lets a reader who subscribed without an account go on without one where the owner requires an account
    /// after subscribing (the app reads the owner's setting as optional).
    case skipAccountRequired = "skip-account-required"
    /// Hands Apple a payment without checking that the phone can make payments.
    case skipPaymentsCheck = "skip-payments-check"
    /// Closes the paywall onto the feed after a purchase, wherever the reader opened it from.
    case closePaywallToFeed = "close-paywall-to-feed"
    /// Never asks a reader who subscribed without an account, as they sign in, whether to move it to the account.
    case skipTransferOffer = "skip-transfer-offer"
    /// Leaves a subscriber who taps Subscribe where they were, instead of taking them to their profile.
    case subscriberTapIgnored = "subscriber-tap-ignored"
    /// Tells the reader the purchase went through, and closes the paywall, on Apple's word, before the server's.
    case closeBeforeServerCheck = "close-before-server-check"
    /// Shows the account's subscriptions, as the backend lists them, on Apple's manage sheet instead of what the App
    /// Store holds for the phone's Apple ID (as the app did before session 20).
    case manageSheetFromAccount = "manage-sheet-from-account"
    /// Signs the reader out when the server ends the session without telling them (as the app did before session 21).
    case silentSessionEnd = "silent-session-end"
    /// The server's: a restore leaves a new purchase its receipt reports with the owner it had, not with who paid
    /// (as `POST /v1/restores` did before session 21).
    case restoreIgnoresWhoPaid = "restore-ignores-who-paid"
    /// The server's: Apple's status, asked at a sign-in or an access answer, leaves a new purchase it reads with the
    /// owner it had, not with who paid (as the daily reconciliation did before session 22).
    case statusIgnoresWhoPaid = "status-ignores-who-paid"
    /// Hands Apple a payment for an offer the store's last products answer no longer returns (as the app did before
    /// session 22, when the storefront changed during the check before paying).
    case payUnreturnedProduct = "pay-unreturned-product"
    /// Knows the payment on screen by the product it asked for, not by the number Apple gave it: a plan change Apple
    /// keeps for the next renewal answers with the running subscription, and the paywall waits for good (as the app
    /// did before session 23).
    case paymentKnownByProduct = "payment-known-by-product"
    /// The server's: a transfer to the account moves the guest's ended purchase too, spending one of its moves, while
    /// the app says nothing valid was moved (as `POST /v1/transfers` did before session 24).
    case transferMovesEnded = "transfer-moves-ended"
    /// The store's: a price increase waiting for consent stays with the subscription when the subscriber chooses another
    /// plan, which then ends for a price it never had (as the App Store did before session 24).
    case consentFollowsTheSubscription = "consent-follows-the-subscription"
    /// The app's: Apple's sheets open on their first choice, Subscribe, Agree or the manage sheet's first button, so an
    /// Enter pressed as one appears pays (as the app did before session 26).
    case sheetOpensOnItsFirstChoice = "sheet-opens-on-its-first-choice"
    /// The app's: the parental gate asks the same question each time it shows, so a child who watched a grown-up
    /// answer once knows the answer (as the app did before session 27).
    case gateAsksOneQuestion = "gate-asks-one-question"
    /// The store's: a recovery from a billing issue is kept from the running app's observer, so the reader who paid
    /// again past the grace period stays locked out until the app asks (as the App Store did before session 34), and one
    /// within it is told on the profile that Apple is retrying (before session 42).
    case recoveryKeptFromTheApp = "recovery-kept-from-the-app"
    /// The store's: a family share Apple takes back while the member's app runs is on the member's receipt, but the
    /// running app's observer is never told (`didRevokeEntitlementsForProductIdentifiers`), so the app never asks the
    /// server and the share's levels, the articles kept for them and the ads' absence stay until it next becomes
    /// active (as the App Store did before session 38).
    case revocationKeptFromTheApp = "revocation-kept-from-the-app"
    /// The app's: back in the foreground with levels whose end is still ahead, it trusts the server's last answer until
    /// then and does not ask again, so a refund, an expiry or a purchase made elsewhere meanwhile stays unseen.
    case foregroundKeepsLevels = "foreground-keeps-levels"
    /// The app's: hides the feed's ads from every subscriber, reading the owner's ads setting as "hide for subscribers"
    /// whatever the owner chose (no demo app keeps ads for subscribers, and the fuzzer never saw one before session 35).
    case adsHiddenFromEverySubscriber = "ads-hidden-from-every-subscriber"
    /// The server's: a restore moves a purchase from its owner as under the transfer policy whatever the owner chose
    /// (a server ignoring the policy held every invariant before session 35's invariant-12 clause).
    case restoreIgnoresPolicy = "restore-ignores-policy"
    /// The app's: a subscription the server said is held elsewhere, whose answer on a restore here went unheard (a
    /// fault, or given up at the timeout), is told with the guess "use Restore purchase", which the owner's policy may
    /// refuse (as the app did before session 37); so is a failed check of a purchase Apple charged nothing new for (as
    /// it did before session 45, found-by-hand/548).
    case guessUncheckedRestore = "guess-unchecked-restore"
    /// The app's: a form's button pressed again while what it sent is on its way sends it again, and the app keeps the
    /// later answer: a double Enter on "Create account" made the account and told "email taken" (as the app did before
    /// session 38).
    case formSendsTwice = "form-sends-twice"
    /// The app's: names a plan by its product identifier wherever it names one (the profile's lines, a charge carried on,
    /// the manage sheet's plan a failed renewal waits with), as the app did where no products answer had titled it
    /// before session 37.
    case titleByIdentifier = "title-by-identifier"
    /// The app's: looks for a plan the storefront does not sell only in a plan change waiting for the renewal, so a
    /// subscription whose own plan is not sold here is said to renew on the profile, where Apple ends it (as the app
    /// did before session 39).
    case unsoldPlanSaidToRenew = "unsold-plan-said-to-renew"
    /// The app's: a parent's "no" to a request no purchase on screen waits for is heard and not told (as a launch after a
    /// restart did before session 39: it never said "Not approved" of the request the reader was told waits).
    case silentDecline = "silent-decline"
    /// The app's: the same log-in sent twice, the later one's refusal (a fault, a 429, the account not made yet) is told
    /// at once while the earlier one is still on its way, and that one's acceptance, arriving after, is dropped: the
    /// reader told "could not be reached" was signed in on the server (as the app did before session 39).
    case sameLogInRefusedEarly = "same-log-in-refused-early"
    /// The app's: a payment Apple failed is told with "You already have a subscription, found meanwhile: what it gives
    /// is unlocked." whether or not the reader gained anything while it ran (the words judged only where the phone
    /// gained levels before session 40).
    case foundMeanwhileUnfounded = "found-meanwhile-unfounded"
    /// The app's: a request refused as expired trades the refresh token it was sent with even when the phone's session
    /// was refreshed while it was out; the server takes it for a refresh whose answer was lost and spends the phone's
    /// token, and the next refresh signs the reader out "your session ended" while the server holds the session (as
    /// the app did before session 41, found-by-hand/515).
    case replacedRefreshTokenTradedAgain = "replaced-refresh-token-traded-again"
    /// The app's: a charge told again at a launch (`ChargeAlertsUnseen`) is told in the words it was first told, "Your
    /// subscription is active", whatever Apple did to the subscription since (as the app did before session 41: a
    /// refunded offer code told active, every invariant holding, found-by-hand/518).
    case chargeToldAgainAsFirstTold = "charge-told-again-as-first-told"
    /// The app's: a purchase or a restore the server gave the account signed out of while it ran is told at once, a sign-in on its
    /// way notwithstanding: "Log in again to use them" to a reader logging in to that account (before session 42).
    case wentElsewhereToldAtOnce = "went-elsewhere-told-at-once"
    /// The app's: a receipt refresh the reader cancelled (Apple's sign-in for it) is taken for one that failed, so the
    /// restore that needed it says "Your purchases could not be read from the App Store" to a reader who chose to
    /// cancel (as the app did before session 43, which could not tell the two apart).
    case refreshCancelToldAsError = "refresh-cancel-told-as-error"
    /// The app's: a charge told while another alert is up or waiting its turn ("Logged out", "Sorry") is dropped, so
    /// the reader dismisses the other and never reads the charge (invariant 11 took any alert dismissed after a charge
    /// as its telling before session 43).
    case chargeHiddenBehindAnotherAlert = "charge-hidden-behind-another-alert"
    /// The app's: the profile reads no free trial in the server's answer, so a subscription in its free trial "renews
    /// on" the day Apple's sheet says the trial ends and charges the plan's price (as the app did before session 44).
    case profileTrialToldAsRenewal = "profile-trial-told-as-renewal"
    /// The app's: a new transaction is told in words of money whatever it cost, so a free trial's start is "The App
    /// Store charged this Apple ID" and its first charge "charged again" (as the app did before session 45, the walk's
    /// hand-01 and hand-04).
    case trialToldAsCharge = "trial-told-as-charge"
    /// The app's: the phone's guest's last subscription list is kept across a log-out and a sign-in though a move to an
    /// account forgot the guest, so the next account's profile lists a plan it never held (as before session 45).
    case profileKeepsMovedGuestPlans = "profile-keeps-moved-guest-plans"
}
