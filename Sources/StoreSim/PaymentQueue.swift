import SimKernel

/// One device's view of the App Store, as StoreKit 1 offers it: products requests, the payment
/// queue with its observer, Apple's payment sheet, the app receipt and its refresh.
public final class PaymentQueue {
    public let deviceId: String
    public let appleId: String
    /// False on a restricted device (Screen Time, parental controls).
    public var canMakePayments = true
    /// Apple's sheet appearing (a value) or going away (nil); the system, not the app, shows it.
    public var onSheetChange: ((PaymentSheet?) -> Void)?
    public private(set) var sheet: PaymentSheet?

    unowned let store: AppStore
    let receipt: ReceiptSlot
    private(set) var observer: ((PaymentTransaction) -> Void)?
    /// The app's `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`: the products whose family share was taken
    /// away while it runs (`entitlementsRevoked`).
    public var onEntitlementsRevoked: (([String]) -> Void)?
    /// When this app process's observer started, and how often each transaction reached it: what the app heard.
    public private(set) var observingSince: SimInstant?
    public private(set) var deliveries: [String: Int] = [:]
    private var sheetPayment:
        (number: Int, product: Product, appAccountToken: String?, offer: AppliedOffer?, trialShown: Bool)?
    /// The offer the payment sheet on screen applies: a promotional or win-back offer, or the introductory offer it
    /// shows (a paid one is charged now too, session 28); nil without one.
    public var sheetOffer: ProductDiscount? {
        guard let payment = sheetPayment else { return nil }
        return payment.offer?.discount ?? (payment.trialShown ? payment.product.introductoryOffer : nil)
    }
    /// The product as the payment sheet on screen sells it: its price and currency when the sheet was drawn (the
    /// storefront may have moved since).
    public var sheetProduct: Product? { sheetPayment?.product }
    /// A payment's sheet due while another sheet was up: shown once that one is answered.
    private var waitingPaymentSheet: PaymentSheet?
    var paymentCount = 0
    /// Payments this launch added and not yet purchased, failed or deferred, each with its product.
    private var addedInFlight: [Int: String] = [:]
    /// The phone's payments in Apple's queue, whichever launch added them: this launch's, and those confirmed on Apple's
    /// sheet before a restart and not yet settled. More than one means the app let a second payment start while one
    /// was running (a restart mid-payment hid the first from the app and from this count, session 27).
    public var paymentsInFlight: [Int: String] {
        addedInFlight.merging(store.settling[deviceId] ?? [:]) { added, _ in added }
    }
    /// The products of this Apple ID's Ask to Buy requests waiting for a parent, whichever of its phones asked (the
    /// manage sheet's switches too): Apple holds them for the Apple ID until the parent answers or they lapse.
    public var productsAwaitingApproval: [String] {
        store.pendingAskToBuy.filter { $0.appleId == appleId }.map(\.product.productIdentifier)
    }
    /// The products the family shares with this Apple ID now (StoreKit 2's current entitlements of ownership type
    /// `familyShared`): a share standing, neither revoked nor expired.
    public var familySharedEntitlements: [String] {
        let now = store.scheduler.now
        return store.familySharedTransactions(appleId: appleId).filter {
            $0.revocationDate == nil && !$0.isUpgraded && ($0.expiresDate.map { $0 > now } ?? false)
        }.map(\.productIdentifier)
    }
    /// Receipt refresh requests this app process sent that have not answered yet.
    private var refreshesRunning = 0

    init(store: AppStore, deviceId: String, appleId: String, receipt: ReceiptSlot) {
        self.store = store
        self.deviceId = deviceId
        self.appleId = appleId
        self.receipt = receipt
    }

    /// Starts the transaction observer. Transactions the app did not finish are delivered again now,
    /// as StoreKit does at launch.
    public func startObserving(_ observer: @escaping (PaymentTransaction) -> Void) {
        self.observer = observer
        observingSince = store.scheduler.now
        bringFamilySharesToReceipt()
        let records = store.logged("read the unfinished transactions to deliver again") {
            try store.ledger.transactions(appleId: appleId)
        }
        let unfinished = (records ?? []).filter {
            !$0.finished && $0.deviceId == deviceId
        }
        // A charge made while the app was not running (a held payment settled, an approval) is on the phone's
        // receipt by the time StoreKit delivers it, as after any purchase: the app's check reads that receipt.
        if !unfinished.isEmpty, let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId) {
            receipt.save(issued)
        }
        for record in unfinished {
            paymentCount += 1
            store.log("redeliver unfinished transaction \(record.transactionIdentifier)")
            deliver(purchased(paymentCount, record), after: store.delay(.productsRequest))
        }
        // A payment an earlier launch handed over that Apple still processes is in the queue: StoreKit tells the new
        // observer it is purchasing, so the app knows one runs (it let a second one start, session 27).
        for (number, productId) in (store.settling[deviceId] ?? [:]).sorted(by: { $0.key < $1.key })
        where addedInFlight[number] == nil {
            store.log("payment \(number) of \(productId) still in the queue: observer told it is purchasing")
            deliver(
                PaymentTransaction(
                    paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
                    productIdentifier: productId, transactionDate: store.scheduler.now, state: .purchasing, error: nil),
                after: .zero)
        }
        // A request this phone's app asked that still waits for a parent is in the queue too, deferred: StoreKit tells
        // the new observer so, and the app knows a parent's "no" for what it is. A restart between "Waiting for
        // approval" and the decline heard only a failed payment, and the reader was never told (session 39).
        for request in store.pendingAskToBuy
        where request.deviceId == deviceId && request.paymentNumber > 0 && request.lapsedAt == nil
            && addedInFlight[request.paymentNumber] == nil
        {
            store.log(
                "\(request.identifier) of \(request.product.productIdentifier) still waits: observer told deferred")
            deliver(
                PaymentTransaction(
                    paymentNumber: request.paymentNumber, transactionIdentifier: nil,
                    originalTransactionIdentifier: nil,
                    productIdentifier: request.product.productIdentifier, transactionDate: request.requestDate,
                    state: .deferred, error: nil), after: .zero)
        }
        // A request a parent declined while no app of this phone ran, in this run or one before: the queue held it
        // deferred until then, and holds its failure now, which this launch is the first to hear.
        for (number, productId) in store.takeDeclinesUnheard(deviceId) {
            store.log("payment \(number) of \(productId) was declined while no app observed: observer told so now")
            deliver(
                PaymentTransaction(
                    paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
                    productIdentifier: productId, transactionDate: store.scheduler.now, state: .deferred,
                    error: nil), after: .zero)
            deliver(failed(number, productId, .paymentNotAllowed), after: .zero)
        }
    }

    /// Whether an app process of this phone observes the queue now (a killed app's queue is kept, unobserved).
    var isObserved: Bool { observer != nil }

    /// The subscription whose price-increase sheet is up, if any, and the plan and price the sheet shows: what Agree
    /// agrees to.
    private var consentSubscription: String?
    private var consentShown: (plan: String, price: StorePrice)?

    /// Whether Apple would show its price-consent sheet if the app asked now: a subscription of this Apple ID
    /// waits for consent to a higher price, its product is sold in this storefront, and no sheet is up.
    public var priceConsentDue: Bool { sheet == nil && consentToShow != nil }

    /// The subscription waiting for consent whose sheet can show, with the product it renews to.
    private var consentToShow: (subscription: SubscriptionRecord, product: Product)? {
        guard let subscription = pendingConsent, let product = store.product(subscription.autoRenewProductId) else {
            return nil
        }
        return (subscription, product)
    }

    private var pendingConsent: SubscriptionRecord? {
        (store.logged("read the subscriptions waiting for price consent") {
            try store.ledger.subscriptions(appleId: appleId)
        } ?? []).first {
            // One that will renew: cancelled, "Agree to keep it" kept nothing (session 25); in billing retry, Apple may
            // still renew it, so the raise is asked there too.
            $0.priceIncreaseStatus == 0 && $0.isRunning && $0.autoRenew
        }
    }

    /// Shows Apple's price-increase sheet for the first subscription that waits for consent (the app
    /// asks when it becomes active, as `paymentQueueShouldShowPriceConsent` lets it).
    public func showPriceConsent() {
        guard sheet == nil, let (subscription, product) = consentToShow else { return }
        consentSubscription = subscription.originalTransactionId
        consentShown = (product.productIdentifier, StorePrice(product.price, in: store.storefront.countryCode))
        let words = StoreWords(locale: product.priceLocale).consent
        var shown = PaymentSheet(
            kind: .priceConsent, appleId: appleId,
            productTitle: words.heading.replacing("{title}", with: product.localizedTitle),
            localizedPrice: store.priceChangeText(product.productIdentifier) ?? product.localizedPrice,
            terms: store.offerDue(subscription) ? words.termsAfterOffer : words.terms, confirmLabel: words.agree,
            cancelLabel: words.notNow)
        shown.productIdentifier = product.productIdentifier
        shown.appleIdLine = StoreWords(locale: product.priceLocale).appleIdLine(appleId)
        sheet = shown
        store.log(
            "price increase sheet shown: \(product.localizedTitle)", event: .priceConsentShown(deviceId: deviceId))
        onSheetChange?(shown)
    }

    /// The App Store's country changed: a price-increase sheet up speaks of a raise in the old one (its Agree agreed to
    /// nothing, session 26). It closes; due still, it shows again, in this country's prices, when the app becomes active.
    func storefrontChanged() {
        guard consentSubscription != nil else { return }
        consentSubscription = nil
        consentShown = nil
        sheet = nil
        store.log("price increase sheet closed: the App Store's country changed")
        onSheetChange?(nil)
        if let waiting = waitingPaymentSheet {
            waitingPaymentSheet = nil
            presentPaymentSheet(waiting)
        }
    }

    /// Agree records the consent. "Not now" is no answer: the increase still waits, Apple shows the sheet again
    /// the next time the app becomes active, and without consent by the period's end the subscription expires
    /// (`showPriceConsentIfNeeded` shows it "if the user hasn't yet responded").
    private func answerPriceConsent(_ consent: Bool, originalTransactionId: String) {
        let shown = consentShown
        consentSubscription = nil
        consentShown = nil
        sheet = nil
        onSheetChange?(nil)
        if let waiting = waitingPaymentSheet {
            waitingPaymentSheet = nil
            presentPaymentSheet(waiting)
        }
        guard consent else {
            store.log("price increase sheet: not now; \(originalTransactionId) still waits for consent")
            return
        }
        _ = store.logged("record the consent to the price increase of \(originalTransactionId)") {
            try store.answerPriceIncrease(
                consent: true, originalTransactionId: originalTransactionId, shown: shown?.price, plan: shown?.plan)
        }
    }

    /// The app quit: it hears no more payment updates until it starts observing again. Apple's payment sheet closes
    /// with it, and its payment is dropped, nothing charged: the timeline's story of it stopped at "payment sheet shown"
    /// (session 32, h13 04).
    public func stopObserving() {
        observer = nil
        onSheetChange = nil
        guard let payment = sheetPayment else { return }
        sheetPayment = nil
        waitingPaymentSheet = nil
        if sheet?.kind != .priceConsent { sheet = nil }
        addedInFlight[payment.number] = nil
        store.log(
            "payment sheet closed with the app: the payment of \(payment.product.productIdentifier) is dropped, "
                + "nothing charged")
    }

    /// Asks for products; the answer comes after the products-request latency, unless a fault plan
    /// makes it fail, time out or come back with only part of the products.
    public func requestProducts(_ identifiers: [String], completion: @escaping (ProductsResponse) -> Void) {
        store.log("products request: \(identifiers.joined(separator: ", "))")
        store.productsRequests += 1
        let request = store.productsRequests
        var response = store.products(for: identifiers)
        var wait = store.delay(.productsRequest)
        switch store.fault(for: .productsRequest) {
        case .error(let code):
            response = ProductsResponse(products: [], invalidProductIdentifiers: identifiers, error: code)
        case .timeout:
            wait = wait + StoreFault.timeoutDelay
            response = ProductsResponse(
                products: [], invalidProductIdentifiers: identifiers, error: .cloudServiceNetworkConnectionFailed)
        case .partialProducts where !response.products.isEmpty:
            // The seeded draw picks which product survives; the others look invalid, as in a propagation delay.
            let kept = Int.random(in: response.products.indices, using: &store.faultRandom)
            let dropped = response.products.indices.filter { $0 != kept }.map {
                response.products[$0].productIdentifier
            }
            response = ProductsResponse(
                products: [response.products[kept]],
                invalidProductIdentifiers: response.invalidProductIdentifiers + dropped)
        default:
            break
        }
        let pricedAt = store.scheduler.now
        store.scheduler.schedule(after: wait) { [store, deviceId, request] in
            let invalid = response.invalidProductIdentifiers
            if let error = response.error {
                store.log("products request failed: \(error.rawValue)")
            } else {
                store.log(
                    "products response: \(response.products.count) valid"
                        + (invalid.isEmpty ? "" : ", invalid: \(invalid.joined(separator: ", "))"),
                    event: .productsReturned(
                        deviceId: deviceId, productIds: response.products.map(\.productIdentifier),
                        request: request, pricedAt: pricedAt))
            }
            completion(response)
        }
    }

    /// When the App Store charged for a transaction, if it knows it.
    public func purchaseDate(ofTransaction identifier: String) -> SimInstant? {
        do {
            return try store.ledger.transaction(identifier)?.purchaseDate
        } catch {
            store.log("the transaction \(identifier) could not be read: \(error)")
            return nil
        }
    }

    /// Whether the subscription a transaction belongs to still gives what it bought (StoreKit 2's
    /// `Transaction.currentEntitlements` holds one of it): not once Apple refunded it, it ended or its renewal failed
    /// past the grace period; a plan changed since is the same subscription. A family share, with no subscription of
    /// its own, stands until Apple revokes it. Nil when the App Store's records cannot be read (said on the timeline).
    public func stillEntitles(transaction identifier: String) -> Bool? {
        do {
            guard let record = try store.ledger.transaction(identifier) else { return false }
            if let subscription = try store.ledger.subscription(record.originalTransactionIdentifier) {
                return subscription.state.isEntitled
            }
            return record.revocationDate == nil
        } catch {
            store.log("the transaction \(identifier) could not be read: \(error)")
            return nil
        }
    }

    /// The product as this device's storefront sells it, if it does.
    public func product(_ identifier: String) -> Product? { store.product(identifier) }

    /// Whether this Apple ID may still take the product's introductory offer (Apple's sheet asks the same).
    public func isEligibleForIntroductoryOffer(_ product: Product) -> Bool {
        store.isEligibleForIntroductoryOffer(product, appleId: appleId)
    }

    /// Whether this Apple ID's subscription in the product's group lapsed: its win-back offer applies.
    public func isEligibleForWinBack(_ product: Product) -> Bool {
        store.isEligibleForWinBack(product, appleId: appleId)
    }

    /// The device's language as the store knows it: the app picks its owner's words by it.
    public var locale: String { store.locale }

    /// Adds a payment for `productIdentifier`: the observer sees `purchasing`, then Apple's sheet appears.
    /// `discount` applies a promotional offer signed by the backend for `appAccountToken`'s customer;
    /// an unsigned, reused, expired or tampered one fails the payment before Apple's sheet.
    public func add(productIdentifier: String, discount: PaymentDiscount? = nil, appAccountToken: String = "") {
        paymentCount += 1
        let number = paymentCount
        addedInFlight[number] = productIdentifier
        store.log(
            "payment added: \(productIdentifier)\(discount.map { " with offer \($0.identifier)" } ?? "")",
            event: .paymentAdded(productId: productIdentifier, deviceId: deviceId, receipt: heldReceipt))
        guard canMakePayments else {
            store.log("payment refused: this phone cannot make payments", event: .paymentNotAllowed(deviceId: deviceId))
            deliver(failed(number, productIdentifier, .paymentNotAllowed), after: .zero)
            return
        }
        if let discount,
            let refusal = store.refusal(
                of: discount, productId: productIdentifier, appleId: appleId, appAccountToken: appAccountToken)
        {
            store.log("promotional offer refused: \(refusal.rawValue)")
            deliver(failed(number, productIdentifier, refusal), after: store.delay(.paymentSheet))
            return
        }
        guard let product = store.product(productIdentifier) else {
            deliver(failed(number, productIdentifier, .storeProductNotAvailable), after: store.delay(.paymentSheet))
            return
        }
        deliver(
            PaymentTransaction(
                paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
                productIdentifier: productIdentifier, transactionDate: store.scheduler.now, state: .purchasing,
                error: nil), after: .zero)
        // The signature was verified: the sheet and the charge are at the offer's price.
        let offer = discount.flatMap { discount in
            product.discounts.first { $0.identifier == discount.identifier }.map {
                AppliedOffer(discount: $0, offerType: 2, key: discount.identifier)
            }
        }
        store.scheduler.schedule(after: store.delay(.paymentSheet)) { [self] in
            let eligible = store.isEligibleForIntroductoryOffer(product, appleId: appleId)
            sheetPayment = (
                number, product, appAccountToken.isEmpty ? nil : appAccountToken.lowercased(), offer,
                offer == nil && eligible && product.introductoryOffer != nil
            )
            let words = StoreWords(locale: product.priceLocale)
            var terms = Self.terms(product, introductoryOfferEligible: eligible, offer: offer?.discount)
            if let change = planChangeWords(product, words) { terms += " " + change }
            // Apple's sheet heads with what is charged now: a paid offer's price, the regular one only in its terms
            // (a win-back sheet headed "$4.99" over "$1.99 per month for 3 months", session 27; a paid introductory
            // offer's too, session 28).
            let charged = sheetOffer.flatMap { $0.paymentMode == .freeTrial ? nil : $0.localizedPrice }
            var shown = PaymentSheet(
                appleId: appleId, productTitle: product.localizedTitle,
                localizedPrice: charged ?? product.localizedPrice, terms: terms, confirmLabel: words.subscribe,
                cancelLabel: words.cancel)
            shown.productIdentifier = product.productIdentifier
            shown.appleIdLine = words.appleIdLine(appleId)
            shown.regularPrice = charged == nil ? nil : product.localizedPrice
            // One sheet at a time: a payment's waits for the price-consent sheet up to be answered. Shown over it,
            // the reader's Subscribe answered the consent and the payment waited for good (session 23, long 673).
            guard sheet == nil else {
                waitingPaymentSheet = shown
                return store.log("payment sheet waits for the sheet on screen: \(product.localizedTitle)")
            }
            presentPaymentSheet(shown)
        }
    }

    private func presentPaymentSheet(_ shown: PaymentSheet) {
        sheet = shown
        store.log("payment sheet shown: \(shown.productTitle) \(shown.localizedPrice)")
        onSheetChange?(shown)
    }

    /// The reader's answer on Apple's sheet: Subscribe charges, Cancel fails the payment as cancelled.
    /// After Subscribe, Ask to Buy defers the payment and an interrupted purchase fails until resolved.
    public func answerSheet(confirm: Bool) {
        if let subscription = consentSubscription {
            return answerPriceConsent(confirm, originalTransactionId: subscription)
        }
        guard let (number, product, appAccountToken, offer, trialShown) = sheetPayment else { return }
        sheetPayment = nil
        sheet = nil
        onSheetChange?(nil)
        guard confirm else {
            store.log("payment sheet: cancelled by the reader")
            deliver(failed(number, product.productIdentifier, .paymentCancelled), after: .zero)
            return
        }
        store.log("payment sheet: confirmed")
        let confirmation = store.confirmed(product, offer: offer, trialShown: trialShown)
        let held = store.holdConfirmed(
            number, product, appleId: appleId, deviceId: deviceId, appAccountToken: appAccountToken,
            offerId: offer?.key)
        var wait = store.delay(.payment)
        let fault = store.fault(for: .payment)
        if fault == .timeout { wait = wait + StoreFault.timeoutDelay }
        let terms = ChargeTerms(
            appAccountToken: appAccountToken, offerId: offer?.key, confirmation: confirmation,
            introductoryOfferShown: trialShown)
        store.settling[deviceId, default: [:]][number] = product.productIdentifier
        store.scheduler.schedule(after: wait) { [self] in
            settleConfirmed(number, product, held: held, fault: fault, terms: terms, retry: Self.firstChargeRetry)
        }
    }

    /// How long the App Store waits before it writes down a charge again whose commit was lost; doubled each time.
    public static let firstChargeRetry = SimDuration.seconds(10)

    /// Settles a confirmed payment in one commit: the held payment is released in the commit that charges it (or
    /// holds it again for a parent). A lost commit (a full disk) leaves it held, in the file and on the phone's
    /// receipt as before, the app still waiting: the App Store tries again a while later, and a run that stops
    /// first leaves it to the next, which charges it at launch (session 27).
    private func settleConfirmed(
        _ number: Int, _ product: Product, held: Int64?, fault: StoreFault?, terms: ChargeTerms, retry: SimDuration
    ) {
        let receiptBefore = receipt.load()
        store.settling[deviceId]?[number] = nil
        let written = store.inOneCommit("write down the payment of \(product.productIdentifier)") {
            settleConfirmed(number, product, held: held, fault: fault, terms: terms)
        }
        guard !written else { return }
        // Still with Apple: a restart meanwhile is told it is purchasing (session 27).
        store.settling[deviceId, default: [:]][number] = product.productIdentifier
        if receipt.load() != receiptBefore { receipt.save(receiptBefore) }
        store.log("payment of \(product.productIdentifier): held, the App Store tries again in \(retry)")
        store.scheduler.schedule(after: retry, background: true) { [self] in
            settleConfirmed(
                number, product, held: held, fault: fault, terms: terms, retry: min(retry + retry, .hours(1)))
        }
    }

    /// What becomes of a payment confirmed on Apple's sheet once the store answers: failed, held for a parent
    /// or an action outside the app, or charged. Held, it keeps its offer, as an interrupted free trial keeps its trial:
    /// a held win-back payment failed (Ask to Buy) or was charged in full (interrupted) until session 26.
    private func settleConfirmed(
        _ number: Int, _ product: Product, held: Int64?, fault: StoreFault?, terms: ChargeTerms
    ) {
        store.releaseHeld(held)
        switch fault {
        case .error(let code):
            deliver(failed(number, product.productIdentifier, code), after: .zero)
        case .timeout:
            deliver(failed(number, product.productIdentifier, .cloudServiceNetworkConnectionFailed), after: .zero)
        case .cancelled:
            deliver(failed(number, product.productIdentifier, .paymentCancelled), after: .zero)
        default:
            // The App Store's country changed while the sheet was up: its price, in another currency, is not what the
            // storefront sells now (a USD price was charged in Britain, then judged against a pound raise, session 25),
            // held or not (an interrupted one was charged an offer's price of another country, long fuzz seed 1066).
            guard let sold = store.product(product.productIdentifier), sold.currencyCode == product.currencyCode else {
                store.log(
                    "payment of \(product.productIdentifier): the App Store's country changed while its sheet was up; "
                        + "nothing charged")
                return deliver(failed(number, product.productIdentifier, .storeProductNotAvailable), after: .zero)
            }
            if fault == .deferred {
                postpone(number, product, kind: .askToBuy, terms: terms, byFault: true)
            } else if fault == .interrupted {
                postpone(number, product, kind: .interrupted, terms: terms)
            } else if store.needsAskToBuy(appleId),
                !store.chargesNothing(product, appleId: appleId, offerId: terms.offerId)
            {
                postpone(number, product, kind: .askToBuy, terms: terms)
            } else if store.interruptedPurchasesEnabled {
                postpone(number, product, kind: .interrupted, terms: terms)
            } else {
                complete(number, product, terms: terms, confirmedNow: true)
            }
        }
    }

    /// Charges for a payment the store accepted and tells the observer: purchased, or failed if the
    /// store could not record it, or if the offer confirmed with it no longer applies (`offerAtCharge`).
    /// `confirmedNow`: the payment of a sheet just confirmed (not a held one settled): a new charge is recorded as its
    /// `WorldEvent.paymentCharged`.
    func complete(_ number: Int, _ product: Product, terms: ChargeTerms, confirmedNow: Bool = false) {
        do {
            guard
                let (record, made) = try store.purchase(
                    confirmed: product, appleId: appleId, deviceId: deviceId, terms: terms)
            else { return deliver(failed(number, product.productIdentifier, .ineligibleForOffer), after: .zero) }
            // A transaction this payment made: Apple answers "already subscribed" with an older one.
            if confirmedNow, made {
                store.timeline.record(.paymentCharged(deviceId: deviceId, transactionId: record.transactionIdentifier))
            }
            // Charged even when no receipt can be issued now: the app's check fails and a refresh brings it.
            if let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId) { receipt.save(issued) }
            deliver(purchased(number, record), after: .zero)
        } catch {
            store.log("payment failed: \(error)")
            deliver(failed(number, product.productIdentifier, .unknown), after: .zero)
        }
    }

    /// Ask to Buy: the observer sees `deferred` and the payment waits for a parent. Interrupted: the
    /// observer sees `failed` now (as StoreKit 1 reports it) and a new transaction once resolved.
    private func postpone(
        _ number: Int, _ product: Product, kind: PendingPayment.Kind, terms: ChargeTerms, byFault: Bool = false
    ) {
        var payment = PendingPayment(
            identifier: "", kind: kind, appleId: appleId, deviceId: deviceId, product: product,
            paymentNumber: number, requestDate: store.scheduler.now, appAccountToken: terms.appAccountToken)
        payment.deferredByFault = byFault
        payment.offerId = terms.offerId
        // Held, it is charged as the parent approves it or the reader accepts it outside the app, at the terms of then
        // (a trial the Apple ID no longer gets included: that approval is a new yes, at the price it shows). Only a
        // promotional offer confirmed with it is kept, and judged at its charge (`OfferChargeCheck`).
        payment.confirmation = terms.offerId == nil ? nil : terms.confirmation
        let pending = store.hold(payment)
        switch kind {
        case .askToBuy:
            store.log("ask to buy: \(product.productIdentifier) waits for a parent (\(pending.identifier))")
            deliver(
                PaymentTransaction(
                    paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
                    productIdentifier: product.productIdentifier, transactionDate: store.scheduler.now,
                    state: .deferred, error: nil), after: .zero)
        case .interrupted:
            store.log("purchase interrupted: \(product.productIdentifier) needs an action outside the app")
            deliver(failed(number, product.productIdentifier, .unknown), after: .zero)
        }
    }

    /// Tells the store the app has handled the transaction; until then it is delivered again at each launch.
    public func finish(_ transactionIdentifier: String?) {
        guard let identifier = transactionIdentifier else { return }
        let finished: Void? = store.logged("finish transaction \(identifier)") {
            try store.ledger.markFinished(identifier, appleId: appleId)
        }
        guard finished != nil else { return }
        store.log("transaction finished: \(identifier)")
    }

    /// The app receipt on the device, or nil when missing (fresh install, new device, or a planned fault); a planned
    /// `forged` fault alters what this read answers, not what the phone keeps. A phone holding no receipt has nothing
    /// to forge: a planned forged read waits for the first read that finds one, and the timeline says so (session 33:
    /// "fault: receipt forged" was spent on a new phone's read, and the receipt the refresh brought was sent as it was).
    public var appReceipt: String? {
        guard let held = receipt.load() else {
            if store.faultPlan.rules.contains(where: {
                $0.target == StoreFaultTarget.receipt.rawValue && $0.fault == "forged"
            }) {
                store.log("receipt read: this phone holds none, so the planned forged receipt waits for one")
            }
            _ = store.fault(for: .receipt, only: "missing")
            return nil
        }
        switch store.fault(for: .receipt) {
        case .receiptMissing: return nil
        case .receiptForged: return ReceiptCodec.forged(held)
        default: return held
        }
    }

    /// Whether the phone holds a receipt, asked without reading it (a file's presence): no planned fault is drawn, so
    /// one planned for the next read meets the read the app sends (session 33: a restore's look for a receipt spent the
    /// forged read, and the true receipt went to the server).
    public var holdsReceipt: Bool { receipt.load() != nil }

    /// The receipt the device holds, read without drawing a planned fault: what a check compares the app with.
    public var heldReceipt: String? { receipt.load() }

    /// Asks Apple for a fresh receipt (SKReceiptRefreshRequest); `completion` hears whether it ended (with a receipt or
    /// without one) rather than failed or was cancelled.
    public func refreshReceipt(completion: @escaping (Bool) -> Void) {
        requestReceiptRefresh { completion($0 == .ended) }
    }

    /// Asks Apple for a fresh receipt (SKReceiptRefreshRequest); a fault plan can fail it, time it out, or have the
    /// reader cancel Apple's sign-in for it (`SKErrorPaymentCancelled`): nothing is written then, and the phone keeps
    /// the receipt it had.
    public func requestReceiptRefresh(completion: @escaping (ReceiptRefreshEnd) -> Void) {
        let event = WorldEvent.receiptRefreshStarted(deviceId: deviceId, alreadyRunning: refreshesRunning)
        store.log("receipt refresh request", event: event)
        refreshesRunning += 1
        let fault = store.fault(for: .receiptRefresh)
        let asked = store.scheduler.now
        let wait = store.delay(.receiptRefresh) + (fault == .timeout ? StoreFault.timeoutDelay : .zero)
        store.scheduler.schedule(after: wait) { [self] in
            refreshesRunning -= 1
            switch fault {
            case .error, .timeout:
                store.log("receipt refresh failed")
                completion(.failed)
            case .cancelled:
                store.log(
                    "receipt refresh cancelled: the reader cancelled Apple's sign-in (paymentCancelled)",
                    event: .receiptRefreshCancelled(deviceId: deviceId, askedAt: asked))
                completion(.cancelled)
            case .receiptMissing:
                store.log("receipt refresh ended without a receipt")
                receipt.save(nil)
                completion(.ended)
            default:
                guard let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId) else {
                    store.log("receipt refresh failed")
                    return completion(.failed)
                }
                receipt.save(issued)
                store.log("receipt refreshed")
                completion(.ended)
            }
        }
    }

    func deliver(_ transaction: PaymentTransaction, after delay: SimDuration) {
        store.scheduler.schedule(after: delay) { [self] in
            let id = transaction.transactionIdentifier.map { " \($0)" } ?? ""
            let reason = transaction.error.map { " (\($0.rawValue))" } ?? ""
            let event: WorldEvent? =
                switch transaction.error {
                case .paymentCancelled: .paymentCancelled(productId: transaction.productIdentifier)
                case .some(let error):
                    .paymentFailed(
                        deviceId: deviceId, productId: transaction.productIdentifier, reason: error.rawValue)
                case nil: nil
                }
            // The app may have been restarted since: the phone's live queue hears it, as the new process's
            // observer does in StoreKit. With no app running it stays unfinished until the next launch, and the
            // timeline says so: "observer ←" of a killed app's phone told of an observer there was not (session 34).
            let live = store.queues[deviceId]?.queue ?? self
            let heard = live.observer != nil ? "observer ←" : "no app observes: kept for the next launch,"
            store.log(
                "\(heard) \(transaction.state.rawValue)\(id) \(transaction.productIdentifier)\(reason)",
                event: event)
            if transaction.state != .purchasing { addedInFlight[transaction.paymentNumber] = nil }
            if live.observer != nil, let id = transaction.transactionIdentifier { live.deliveries[id, default: 0] += 1 }
            live.observer?(transaction)
        }
    }

    /// A renewal Apple charged while this app runs, told to its observer as a purchased transaction, the phone's
    /// receipt listing it first (the app sends that receipt). Nothing when no app observes: the charge stays finished.
    func deliverRenewal(_ record: TransactionRecord, because why: String = "billing recovered") {
        guard observer != nil else { return }
        store.log(
            "\(why): renewal \(record.transactionIdentifier) of \(record.productIdentifier) goes to the "
                + "running app's observer (the reader made no purchase)")
        if let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId) { receipt.save(issued) }
        paymentCount += 1
        deliver(purchased(paymentCount, record), after: store.delay(.productsRequest))
    }

    func purchased(_ number: Int, _ record: TransactionRecord, state: TransactionState = .purchased)
        -> PaymentTransaction
    {
        PaymentTransaction(
            paymentNumber: number, transactionIdentifier: record.transactionIdentifier,
            originalTransactionIdentifier: record.originalTransactionIdentifier,
            productIdentifier: record.productIdentifier, transactionDate: record.purchaseDate, state: state, error: nil,
            isRenewal: record.transactionReason == "RENEWAL", isFamilyShared: record.isFamilyShared,
            isTrialPeriod: record.isTrialPeriod, isPaidBefore: store.paidBefore(record))
    }

    /// Apple's sheet for another plan of a group the Apple ID already subscribes to says it is a change, and when:
    /// a tap on a second phone read as a new purchase, and the running plan switched in silence (session 25).
    private func planChangeWords(_ product: Product, _ words: StoreWords) -> String? {
        guard let group = product.subscriptionGroupIdentifier else { return nil }
        if let kept = store.subscriptions(appleId: appleId).first(where: {
            $0.groupId == group && $0.state.isEntitled && $0.productId == product.productIdentifier
                && $0.autoRenewProductId != product.productIdentifier
        }) {
            let pending = store.product(kept.autoRenewProductId)?.localizedTitle ?? kept.autoRenewProductId
            return words.keeps(product.localizedTitle, instead: pending, on: kept.expiresDate.dateDescription)
        }
        guard
            let running = store.subscriptions(appleId: appleId).first(where: {
                $0.groupId == group && $0.state.isEntitled && $0.productId != product.productIdentifier
            })
        else { return nil }
        let title = store.product(running.productId)?.localizedTitle ?? running.productId
        let now = store.changesNow(from: running.productId, to: product)
        return words.replaces(title, on: now ? nil : running.expiresDate.dateDescription)
    }

    func failed(_ number: Int, _ productIdentifier: String, _ error: StoreError) -> PaymentTransaction {
        PaymentTransaction(
            paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
            productIdentifier: productIdentifier, transactionDate: store.scheduler.now, state: .failed, error: error)
    }

    /// Apple's sheet in the device's language (`StoreWords`): the offer that applies, then the price.
    static func terms(_ product: Product, introductoryOfferEligible: Bool = true, offer: ProductDiscount? = nil)
        -> String
    {
        let words = StoreWords(locale: product.priceLocale)
        let applied = offer ?? (introductoryOfferEligible ? product.introductoryOffer : nil)
        let offerText =
            applied.map {
                words.offerTerms(
                    mode: $0.paymentMode, price: $0.localizedPrice, period: $0.subscriptionPeriod,
                    count: $0.numberOfPeriods)
            } ?? ""
        return words.sheetTerms(price: product.localizedPrice, period: product.subscriptionPeriod, offer: offerText)
    }
}
