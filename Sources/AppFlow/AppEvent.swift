import Subscriptions

/// Everything that can happen to the app: the reader's input and the answers of the services.
public enum AppEvent: Equatable, Sendable {
    case launched
    case reader(ReaderInput)
    /// The offers the store returned, and the configured products its answer said this storefront does not sell.
    case catalogLoaded([Offer], notSold: Set<String> = [])
    case accessChanged(AccessSnapshot)
    /// Apple's sheet appeared (a value) or went away (nil).
    case paymentSheet(PaymentSheetInfo?)
    case purchaseStage(PurchaseStage)
    case purchaseFinished(PurchaseOutcome)
    /// A purchase nobody on screen waited for ended (Ask to Buy approved later, an interrupted purchase
    /// resolved, a charge redelivered at launch): it closes the paywall or tells the reader what went wrong.
    /// `freshCharge`: Apple charged for it while this launch observed, and it had not heard of it: news to tell.
    /// `kind`: a purchase, or a renewal Apple charged of a running subscription (a billing recovery), which the reader
    /// did not buy, or the family's share of one.
    case purchaseCarriedOn(
        PurchaseOutcome, productId: String, transactionId: String?, freshCharge: Bool = false,
        kind: CarriedOnCharge.Kind = .purchase)
    case fullContentLoaded(id: String, body: String)
    case fullContentFailed(id: String, message: String)
    case restoreFinished(RestoreOutcome)
    case accountFinished(AccountOutcome)
    case subscriptionsLoaded(SubscriptionList)
    /// The backend did not answer a request for the reader's subscriptions: the last list stays.
    case subscriptionsUnanswered
    /// Apple's manage sheet showed (or, after a button on it, showed again) the Apple ID's subscriptions.
    case manageSheetShown([ManagedSubscription])
    /// The manage sheet was not opened: a grown-up must answer the parental gate first.
    case manageSheetNeedsParentalGate
    /// A parent answered a request this launch told the reader waits (approved or declined): "Waiting for approval"
    /// no longer says what is true, whatever the purchase's end then tells.
    case parentAnswered
    /// The app, becoming active, read that no request of the Apple ID waits for a parent (one Apple told it nothing
    /// of was declined or lapsed): "Waiting for approval" no longer says what is true.
    case noRequestWaits
    /// A switch on the manage sheet waits for a parent (Ask to Buy); the title of the plan asked for.
    case planChangeAskedParent(String)
    /// The app came back to the foreground.
    case becameActive
    /// The phone may pay again (Screen Time's restriction lifted, read as `canMakePayments`): "Purchases are off" no
    /// longer says what is true.
    case paymentsAllowed
    /// The App Store's country or the phone's language changed: the products are asked for again.
    case storeChanged
    /// The question to move a subscription held elsewhere, asked of the server again (`recheckMoveQuestion`).
    case moveQuestionRechecked(MoveQuestionVerdict)
    /// At launch: the alerts telling a charge that the last launch told and the reader never dismissed (the app was
    /// quit or killed first), kept on the phone to be told now (`ChargeAlertsUnseen`, invariant 11).
    case chargeAlertsKept([Alert])
}

/// Work the app asks for, as data: the simulation runs it and answers with events.
public enum AppEffect: Equatable, Sendable {
    case loadCatalog
    /// The storefront or language changed: the offers held are another country's, never to be shown again.
    case forgetCatalog
    /// Buys an offer; `parentalGatePassed` when a grown-up answered the gate (a kids app requires it).
    case purchase(offerId: String, parentalGatePassed: Bool)
    /// The reader's answer on Apple's sheet, delivered to the store.
    case answerPaymentSheet(confirm: Bool)
    case loadFullContent(id: String, requiredLevels: [String])
    case restore(confirmMoveFromAccount: Bool)
    case logIn(email: String, password: String)
    case signUp(email: String, password: String)
    case transferAnonymousPurchases
    case logOut
    /// Asks the backend again for levels and subscriptions (the profile opened).
    case reloadAccess
    /// Asks again after a change on Apple's sheet: the backend reads Apple's records first, since a change kept for
    /// the renewal or a cancel brings the app no transaction and Apple's notification may not have arrived.
    case reloadAccessAskingApple
    /// The app is active again: reload access and show a pending price-consent sheet.
    case becomeActive
    /// "Manage my subscription": Apple's sheet, which lists what the Apple ID pays for (StoreKit's
    /// `showManageSubscriptions`); the app hands over and is told nothing of the backend's. `parentalGatePassed`
    /// when a grown-up answered the gate; where one is required the sheet does not open without it.
    case showManageSubscriptions(parentalGatePassed: Bool)
    /// "Manage my subscription": auto-renew on or off, in the store's sheet, of the subscription on `productId`.
    case setAutoRenew(Bool, productId: String)
    /// "Manage my subscription": another plan of the group, changed by the store with Apple's timing.
    case changePlan(productId: String)
    /// "Move it?" of a subscription held elsewhere is on screen as the app becomes active: the server asked again.
    case recheckMoveQuestion
}
