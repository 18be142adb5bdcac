/// What happened, as data, next to the timeline line that says it in words: the invariant checks and
/// the fuzzer's coverage read these, so rewording a line never disables a check.
public enum WorldEvent: Hashable, Sendable {
    /// A planned fault fired, in the App Store (`products-request`, `payment`…) or at the network edge.
    case faultFired(FaultSide, target: String)
    /// Apple's sheet ended as cancelled (the reader's Cancel, or a `payment cancelled` fault).
    case paymentCancelled(productId: String)
    /// A payment reached Apple's queue from the phone `deviceId` (the store's device identifier), with the
    /// receipt that phone held then (what the app could have asked its server about before paying).
    case paymentAdded(productId: String, deviceId: String, receipt: String?)
    /// The App Store answered a products request of the phone `deviceId` (not a failed one): the products it returned.
    /// `request` counts the phone's requests: an older request's answer arriving after a newer one's is stale news.
    /// `pricedAt`: when the store made the answer (its prices are those of then; it arrives later).
    case productsReturned(deviceId: String, productIds: [String], request: Int, pricedAt: SimInstant)
    /// Apple refused a payment from the phone `deviceId` because that phone cannot make payments: the app
    /// handed it over without checking first.
    case paymentNotAllowed(deviceId: String)
    /// A purchase's success closed the paywall on the phone `deviceId` onto another screen than the one it was
    /// opened from (`detail` says which).
    case paywallClosedElsewhere(deviceId: String, detail: String)
    /// A reader holding levels tapped Subscribe on the phone `deviceId` and was not taken to the profile (`detail`
    /// says where they are).
    case subscriberNotOnProfile(deviceId: String, detail: String)
    /// A reader holding levels without an account signed in on the phone `deviceId` and was not asked whether to
    /// move the subscription to the account (`detail` says what they held).
    case transferNotOffered(deviceId: String, detail: String)
    /// Apple's manage sheet on the phone `deviceId` listed other subscriptions than the App Store holds for its
    /// Apple ID (`detail` says which).
    case manageSheetUntrue(deviceId: String, detail: String)
    /// One of Apple's sheets appeared on the phone `deviceId` with a choice that moves money highlighted (`detail` says
    /// which): an Enter pressed before the reader saw it would pay.
    case sheetOpenedOnMoney(deviceId: String, detail: String)
    /// The app on the phone `deviceId` asked Apple for a fresh receipt while `alreadyRunning` of its own
    /// requests had not answered yet (the app process's, not an earlier process's).
    case receiptRefreshStarted(deviceId: String, alreadyRunning: Int)
    /// A receipt refresh of the phone `deviceId`, asked at `askedAt` (where its fault fired), ended cancelled: the
    /// reader cancelled the Apple ID sign-in it asked for (a `receipt-refresh cancelled` fault). Nothing was written.
    case receiptRefreshCancelled(deviceId: String, askedAt: SimInstant)
    /// The app on the phone `deviceId` launched or came back to the foreground. `consentDue`: a price increase of
    /// its Apple ID waited for consent and no sheet of Apple's was up, so Apple's consent sheet is due now.
    case becameActive(deviceId: String, consentDue: Bool)
    /// Apple's price-increase consent sheet appeared on the phone `deviceId`.
    case priceConsentShown(deviceId: String)
    /// The app on the phone `deviceId` showed the parental gate asking `question`: a gate that came up, or asked
    /// another question after a wrong answer, even if it closed again before the step ended.
    case parentalGateShown(deviceId: String, question: String)
    /// The backend applied a report naming `transactionId` of the purchase `originalTransactionId`: a record of the
    /// app's receipt (a receipt check, a restore) or Apple's notification. Seed 003's "whoever reports it".
    case purchaseReported(originalTransactionId: String, transactionId: String)
    /// The subscriber chose the product the subscription `originalTransactionId` renews as, at the regular price
    /// `price`, the one they agreed to: a purchase, a plan change (now or at the next renewal, or back to the plan it is
    /// on), an offer code of another plan (each at the price Apple's sheet showed), or consent to a raised price.
    case renewalProductChosen(originalTransactionId: String, productId: String, price: StorePrice)
    /// Apple renewed the subscription `originalTransactionId` as `productId`, charging `price`; `offer` when the period
    /// was an offer's (introductory, promotional, a code), whose price is not the plan's.
    case renewalCharged(originalTransactionId: String, productId: String, price: StorePrice, offer: Bool)
    /// Apple charged the Apple ID for a payment the phone `deviceId` confirmed on its sheet just now (a new
    /// transaction, not "already subscribed, nothing charged", not a held payment settled later).
    case paymentCharged(deviceId: String, transactionId: String)
    /// The reader confirmed Apple's sheet of a payment for `productId` with an offer, each of its periods at `price`: the
    /// promotional offer `offerId` (Apple's `offerType` 2), or the introductory offer the sheet stated (`offerType` 1, a
    /// free trial at 0). `payment` numbers the payments confirmed in the world, as `confirmedPaymentCharged` names it.
    case offerPaymentConfirmed(payment: Int, productId: String, offerId: String, offerType: Int, price: StorePrice)
    /// Apple charged the payment `payment` confirmed on its sheet as the new transaction `transactionId`, at once or held
    /// (a parent's approval, an interrupted purchase resolved): `price` what it charged, `offerType` Apple's for the
    /// offer that priced it (nil: none).
    case confirmedPaymentCharged(payment: Int, transactionId: String, price: StorePrice?, offerType: Int?)
    /// On Apple's manage sheet of the phone `deviceId`, the subscriber chose `productId`, a plan Apple charges for at
    /// once (an upgrade): a payment started from that phone, as `paymentAdded` is, though not through its queue.
    case sheetSwitchCharges(productId: String, deviceId: String)
    /// App Store Connect raised the price of `productId` in the storefront `storefront` (or asked consent to a raise).
    /// `unraised`: the product's price there before any raise (the catalog's), nil when the store cannot say.
    case priceRaised(productId: String, storefront: String, unraised: StorePrice?)
    /// Apple ended the subscription `originalTransactionId`, which renews as `productId` at `price` now, for a raised
    /// price not agreed to (EXPIRED/PRICE_INCREASE). `offerDue`: the period it did not renew into was an offer's.
    case endedForPrice(originalTransactionId: String, productId: String, price: StorePrice?, offerDue: Bool)
    /// Apple ended the subscription `originalTransactionId` for any other reason (EXPIRED: cancelled, billing retry
    /// over, Xcode's Expire Subscription, product unavailable): in grace or billing retry its paid-through date had
    /// passed already, so only this says when it ended.
    case subscriptionExpired(originalTransactionId: String)
    /// A parent declined the Ask to Buy request for `productId` that the phone `deviceId`'s app asked (a payment of its
    /// queue, not a switch on Apple's manage sheet): Apple tells that phone's observer the payment failed.
    case askToBuyDeclined(deviceId: String, productId: String)
    /// Apple told the phone `deviceId`'s queue that its payment for `productId` failed, for `reason` (Apple's error
    /// code), any but `paymentCancelled`: the country changed while the sheet was up, an unknown product, a refused
    /// offer, payments not allowed, a fault. The app telling an error then tells the truth (long fuzz seed 2479).
    case paymentFailed(deviceId: String, productId: String, reason: String)
}

/// Where a fault fired: the store records nothing else of it; the network also keeps its last one.
public enum FaultSide: String, Hashable, Sendable {
    case store
    case backend
}

/// A `WorldEvent` with its instant and the index of the timeline entry that says it.
public struct RecordedEvent: Hashable, Sendable {
    public let time: SimInstant
    public let event: WorldEvent
    public let entry: Int
}
