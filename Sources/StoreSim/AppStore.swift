import Database
import FoundationEssentials
import Signing
import SimKernel
import WhiteLabel

/// Why the fake App Store could not be set up.
public struct StoreSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The file at fault when it is not the config: the store's records in a state folder.
    public var file: String? = nil
}

/// The fake App Store of one app: its catalog, its records of every charge, the key that signs
/// receipts, one payment queue per device, and the server API the backend asks for the truth.
public final class AppStore {
    public let bundleId: String
    public let environment: StoreEnvironment = .sandbox
    public let catalog: Catalog
    public var storefront: Storefront
    /// Errors met on a money or access path (`StoreErrors.swift`), each also a line on the timeline.
    public internal(set) var errors: [String] = []
    /// The first write or read of `appstore.sqlite` the disk failed (full, a file-size limit, an I/O error):
    /// the state cannot be kept, and `run` ends on it.
    public internal(set) var storageFailure: StorageFailure?
    public var locale: String
    /// Products requests answered, by `identifiers|storefront|locale` (`products(for:)`).
    var productsAnswers: [String: ProductsResponse] = [:]
    /// Prices raised in App Store Connect, by `product|storefront` (also in `appstore.sqlite`).
    var priceIncreases: [String: PriceIncrease] = [:]
    /// The backend's offer-signing keys, by key identifier.
    var offerKeys: [String: () -> VerifyingKey?] = [:]
    public var latency: LatencyProfile
    public let verifyingKey: VerifyingKey
    /// Where the App Store posts `signedPayload`s of server notifications (the backend's URL in App Store Connect), and
    /// the server's answer: nil when none came back (lost, timed out). Anything but a 2xx is retried
    /// (`NotificationRetry`).
    public var notificationEndpoint: ((String) -> HTTPResponse?)?
    /// Every purchase by every Apple ID needs a parent's approval (`SKTestSession.askToBuyEnabled`).
    public var askToBuyEnabled = false
    /// Every purchase needs an action outside the app first (`SKTestSession.interruptedPurchasesEnabled`).
    public var interruptedPurchasesEnabled = false
    /// Renewals fail for billing reasons (`SKTestSession.shouldEnterBillingRetryOnRenewal`).
    public var billingRetryOnRenewal = false
    /// A failed renewal keeps access through a grace period (`billingGracePeriodIsEnabled`).
    public var billingGracePeriodEnabled = false
    /// A plan chosen (bought, switched to) at the price Apple's sheet showed answers the consent the old plan waited
    /// for. False only for the planted `consent-follows-the-subscription` (the store before session 24).
    public var choosingAPlanEndsItsConsent = true
    /// A recovery from a billing issue past the grace period reaches the running app's observer (`deliverRecovery`).
    /// False only for the planted `recovery-kept-from-the-app` (the store before session 34).
    public var deliversRecoveries = true
    /// A family share taken back reaches the member's running app's observer (`entitlementsRevoked`). False only for
    /// the planted `revocation-kept-from-the-app` (the store before session 38).
    public var deliversRevocations = true

    let scheduler: Scheduler
    let timeline: Timeline
    var random: SeededGenerator
    /// Draws for chance faults only, so planning faults leaves latency draws where they were.
    var faultRandom: SeededGenerator
    var faultPlan = FaultPlan()
    let ledger: StoreLedger
    /// Ask to Buy as a parent set it for an Apple ID (Family Sharing), over `askToBuyEnabled`.
    var askToBuyAppleIds: [String: Bool] = [:]
    /// The raised prices each subscription's subscriber agreed to, by `ORIGINAL|STOREFRONT|PRODUCT` (`price_consents`).
    var consentsGiven: [String: Decimal] = [:]
    /// Apple IDs whose payment method fails (an expired card).
    var billingIssueAppleIds: Set<String> = []
    /// Payments waiting for a parent or for an action outside the app, oldest first.
    var pendingPayments: [PendingPayment] = []
    /// Ask to Buy requests that lapsed with no parent's answer (`AskToBuyLapse`), oldest first.
    public internal(set) var lapsedRequests: [PendingPayment] = []
    var nextPendingNumber = 0
    /// Payments confirmed on Apple's sheet in this world: each one's number is what its charge names.
    var confirmedPayments = 0
    /// Each phone's payments confirmed on Apple's sheet and not yet settled, by payment number, with their products:
    /// in Apple's queue whichever launch of the app added them (a restart mid-payment lost none, session 27).
    var settling: [String: [Int: String]] = [:]
    /// Each phone's requests a parent declined while no app of that phone observed, by payment number, with their
    /// products: the failure is in Apple's queue until that phone's next launch hears it, in this run or the next
    /// (`DeclinesUnheard`, kept in `declines_unheard`).
    var declinedUnheard: [String: [Int: String]] = [:]
    /// Products requests made from every phone: an answer says which request it answers (`WorldEvent.productsReturned`).
    var productsRequests = 0
    /// The live payment queue of each device: where a later approval or renewal is delivered.
    var queues: [String: WeakQueue] = [:]
    /// The next lifecycle event (period end, grace end, retry end) of each subscription.
    var lifecycleEvents: [String: Scheduler.EventID] = [:]
    /// A reordered notification, delivered after the next one.
    var heldBackNotification: NotificationOnItsWay?
    /// The subscriptions (original transaction ids) whose latest news a notification fault kept from the server: dropped,
    /// held back until the next one, not answered with a 2xx until a retry of it is, or answered with a 2xx that is not
    /// the server's (not JSON: a fault answered in its place). The next notification about one tells its whole state
    /// again. For invariants that judge the server by what it was told (fuzz seed 4207).
    public internal(set) var newsWithheld: Set<String> = []
    /// Notifications posted in this run, and the last one about each subscription (`NotificationOnItsWay.serial`): a
    /// retry delivered tells the server the latest news only when it is the last posted.
    var postsMade = 0
    var latestPost: [String: Int] = [:]
    /// The signing time of the last notification (`notificationSignedDate`).
    var lastNotificationSigned: Int64 = 0
    /// What the server was last told of each subscription's renewal (`RenewalTold`), this run.
    var renewalsTold: [String: RenewalTold] = [:]
    private let signingKey: SigningKey
    /// Where the store's unguessable values (receipt nonces) come from.
    let keys: Keyring
    /// Receipts' entries as encoded, and the last receipts issued (`ReceiptMemo`).
    let receipts = ReceiptMemo()

    public init(
        store: StorePart, bundleId: String, scheduler: Scheduler, timeline: Timeline, random: SeededGenerator,
        latency: LatencyProfile, databasePath: String?, keys: Keyring = .derived(seed: 1)
    ) throws(StoreSetupError) {
        guard let storefront = Storefront.named(store.storefront) else {
            let known = Storefront.known.map(\.countryCode).joined(separator: ", ")
            throw StoreSetupError(
                description: "store.storefront: unknown storefront \"\(store.storefront)\" (storefronts: \(known))")
        }
        if let problem = PriceLocales.problem(store.locale, products: store.products) {
            throw StoreSetupError(description: "store.locale: \(problem)")
        }
        // A price in a storefront the App Store does not have is a typo that sells nothing anywhere.
        for (index, product) in store.products.enumerated() {
            var priced = product.prices.keys.map { ("prices", $0) }
            priced += (product.introductoryOffer?.prices ?? [:]).keys.map { ("introductoryOffer.prices", $0) }
            for (offer, spec) in (product.promotionalOffers ?? []).enumerated() {
                priced += (spec.prices ?? [:]).keys.map { ("promotionalOffers[\(offer)].prices", $0) }
            }
            for (field, code) in priced.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) where Storefront.named(code) == nil
            {
                let known = Storefront.known.map(\.countryCode).joined(separator: ", ")
                throw StoreSetupError(
                    description:
                        "store.products[\(index)].\(field).\(code): unknown storefront (storefronts: \(known))")
            }
        }
        do {
            ledger = try StoreLedger(path: databasePath)
        } catch {
            // A full disk is not a file that is not the store's (h3 06): said as the disk's failure.
            if let storage = error.storage {
                throw StoreSetupError(description: "cannot be opened (\(storage.reason))", file: storage.path)
            }
            throw StoreSetupError(
                description: "cannot be opened as the App Store's records: \(error)", file: databasePath)
        }
        // The store's key is its root of trust: a state folder's own (kept in its `keys`), so receipts kept
        // on disk stay valid from run to run and nobody who read the source can sign one.
        guard let key = SigningKey(seed: keys.storeKeySeed) else {
            throw StoreSetupError(description: "libcrypto cannot make a P-256 key")
        }
        self.bundleId = bundleId
        self.catalog = Catalog(specs: store.products)
        self.storefront = storefront
        self.locale = store.locale
        self.scheduler = scheduler
        self.timeline = timeline
        self.random = random
        // A copy's draw, so the store's own latency numbers stay as they were without fault plans.
        var copy = random
        self.faultRandom = SeededGenerator(seed: copy.next() ^ 0x6661_756C_7473)
        self.latency = latency
        self.signingKey = key
        self.verifyingKey = key.publicKey
        self.keys = keys
        resumePriceIncreases()
        resumeAskToBuy()
        resumeDeclinesUnheard()
        resumeBillingIssues()
        consentsGiven = logged("read the consents given", { try ledger.consents() }) ?? [:]
        resumeLifecycle()
    }

    /// The payment queue of one device signed in with `appleId`; `receipt` is where the device keeps its receipt.
    public func paymentQueue(deviceId: String, appleId: String, receipt: ReceiptSlot) -> PaymentQueue {
        let queue = PaymentQueue(store: self, deviceId: deviceId, appleId: appleId, receipt: receipt)
        queue.paymentCount = queues[deviceId]?.queue?.paymentCount ?? 0
        numberPastHeldPayments(queue)
        queues[deviceId] = WeakQueue(queue: queue)
        return queue
    }

    /// A payment's number is how the app's observer tells payments apart: a new launch's queue numbers on
    /// past every payment still held for its phone (asked in an earlier launch or run), or a parent's answer
    /// to an old request would reach the purchase on screen as its own.
    func numberPastHeldPayments(_ queue: PaymentQueue) {
        let held = pendingPayments.filter { $0.deviceId == queue.deviceId }.map(\.paymentNumber).max() ?? 0
        // A declined request's failure is still to be told under its number (`declinedUnheard`).
        let declined = declinedUnheard[queue.deviceId]?.keys.max() ?? 0
        queue.paymentCount = max(queue.paymentCount, held, declined)
    }

    /// How many times the App Store charged `appleId`.
    public func charges(appleId: String) -> Int {
        logged("count the charges of \(appleId)") {
            try ledger.transactions(appleId: appleId).filter { !$0.isFamilyShared }.count
        } ?? 0
    }

    func delay(_ operation: SimKernel.Operation) -> SimDuration {
        latency.delay(for: operation, using: &random)
    }

    /// Signs `payload` and posts it to the notification endpoint after the notification latency,
    /// unless a fault plan drops, duplicates, delays or reorders it. `original`: the purchase it is about.
    func post(_ payload: NotificationPayload, about original: String?) {
        let signed = notificationEndpoint == nil ? "" : NotificationCodec.seal(payload, with: signingKey)
        let name = "\(payload.notificationType.rawValue)\(payload.subtype.map { "/\($0.rawValue)" } ?? "")"
        var wait = delay(.notification)
        let fault = fault(for: .notification)
        if case .notificationDropped = fault {
            // Lost on its way: Apple hears no answer and retries an hour later (session 30; it was lost for the run).
            if let original { newsWithheld.insert(original) }
            let firstRetry = NotificationRetry.waits[0]
            let news = onItsWay(
                signed, name: name, about: original, due: scheduler.now + wait + firstRetry, attempts: 1)
            log("notification \(name) lost on its way: Apple tries again \(NotificationRetry.text(firstRetry)) later")
            deliverNotification(news, name: name, after: wait + firstRetry)
            return
        }
        if case .notificationDelayed(let extra) = fault { wait = wait + extra }
        let news = onItsWay(signed, name: name, about: original, due: scheduler.now + wait)
        switch fault {
        case .notificationReordered:
            // Held back until the next notification has gone, so the backend sees the two swapped.
            if let earlier = heldBackNotification {
                deliverNotification(earlier, name: "held back", after: wait)
                if let told = earlier.original { newsWithheld.remove(told) }
            }
            heldBackNotification = news
            if let original { newsWithheld.insert(original) }
            return
        case .notificationDuplicated:
            deliverNotification(news, name: name + " (duplicate)", after: wait + delay(.notification), retried: false)
        default:
            break
        }
        deliverNotification(news, name: name, after: wait)
        if let original { newsWithheld.remove(original) }
        if let held = heldBackNotification {
            heldBackNotification = nil
            deliverNotification(held, name: "reordered", after: wait + .millis(1))
            if let told = held.original { newsWithheld.remove(told) }
        }
    }

    /// One attempt to deliver `news`, after `wait`; one the server does not answer with a 2xx is tried again on
    /// Apple's schedule, and dropped after the last retry. `retried` false: a copy of one delivered anyway (a
    /// duplicate), which Apple would not retry. A retry is a background event, as a renewal is: a step does not wait
    /// hours for it.
    func deliverNotification(_ news: NotificationOnItsWay, name: String, after wait: SimDuration, retried: Bool = true)
    {
        scheduler.schedule(after: wait, background: news.attempts > 0) { [self] in
            let attempt = news.attempts + 1
            var lost = false
            if attempt > 1, case .notificationDropped = fault(for: .notification, only: "dropped") { lost = true }
            if !lost { log("notification \(NotificationRetry.name(name, attempt: attempt))") }
            let answer = lost ? nil : notificationEndpoint?(news.signed)
            if answer?.isSuccess ?? (notificationEndpoint == nil) {
                // The server's own answers are all JSON: a 2xx that is not came from a fault in its place, and the
                // server never saw the news, which stays withheld until the next notification about it (long fuzz
                // seed 1484: a family share said to renew after the purchaser's AUTO_RENEW_DISABLED was lost so).
                let seen = answer.map { Self.looksLikeJSON($0.body) } ?? true
                if let answer, !seen {
                    // Apple reads the status alone: a 2xx is delivered, whatever came with it (session 31).
                    log(
                        "notification \(NotificationRetry.name(name, attempt: attempt)) answered \(answer.status) "
                            + "(not JSON): Apple counts it delivered and does not send it again")
                }
                if let original = news.original, latestPost[original] == news.serial {
                    if seen { newsWithheld.remove(original) } else { newsWithheld.insert(original) }
                }
                guard let row = news.row else { return }
                // Gone once delivered; a row left (this delete failed, or a kill came first) is delivered again in the
                // next run, and the server drops it as a duplicate.
                _ = logged("write down the notification \(name) as delivered") { try ledger.delivered(row) }
                return
            }
            guard retried else { return }
            notAnswered(news, name: name, attempt: attempt, answer: answer, lost: lost)
        }
    }

    /// Whether an answer's body opens as a JSON object or array does: the server's own answers all do.
    private static func looksLikeJSON(_ body: [UInt8]) -> Bool {
        let first = body.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
        }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// An attempt the server did not answer with a 2xx: Apple's next retry scheduled and kept, or the news dropped.
    private func notAnswered(
        _ news: NotificationOnItsWay, name: String, attempt: Int, answer: HTTPResponse?, lost: Bool
    ) {
        if let original = news.original, latestPost[original] == news.serial { newsWithheld.insert(original) }
        let what = lost ? "lost on its way" : answer.map { "answered \($0.status)" } ?? "not answered"
        let said = NotificationRetry.name(name, attempt: attempt)
        guard let next = NotificationRetry.wait(afterAttempts: attempt) else {
            log("notification \(said) \(what): Apple stops after its last retry and drops it")
            if let row = news.row {
                _ = logged("drop the notification \(name) after its last retry") { try ledger.delivered(row) }
            }
            return
        }
        log("notification \(said) \(what): Apple tries again in \(NotificationRetry.text(next))")
        var again = news
        again.attempts = attempt
        if let row = news.row {
            _ = logged("keep the notification \(name) for its retry") {
                try ledger.retryLater(row, due: scheduler.now + next, attempts: attempt)
            }
        }
        deliverNotification(again, name: name, after: next)
    }

    /// Signs a transaction or renewal info, as the JWS fields of notifications and the server API carry them.
    func sign(_ value: some CanonicalJSONWritable) -> String {
        NotificationCodec.seal(value, with: signingKey)
    }

    func log(_ text: String, event: WorldEvent? = nil) {
        timeline.log(.store, text, event: event)
    }

    /// Transaction identifiers count up from here: 16 digits, as Apple's are.
    static let firstTransactionIdentifier: Int64 = 2_000_000_000_000_000

    /// The ledger's number of a transaction this store made (`nextTransactionNumber`), from its identifier.
    static func transactionNumber(_ identifier: String) -> Int64 {
        (Int64(identifier) ?? firstTransactionIdentifier) - firstTransactionIdentifier
    }

    /// Records a charge (or a free intro period) of `product`: a new transaction, or a renewal when
    /// `original` names the subscription it continues, its period ending on the anniversary of `anniversary`.
    func recordTransaction(
        product: Product, appleId: String, deviceId: String, original: String? = nil, start: SimInstant? = nil,
        periodLength: CalendarPeriod? = nil, anniversary: SimInstant? = nil, reason: String = "PURCHASE",
        offerType: Int? = nil, appAccountToken: String? = nil, price: Decimal? = nil
    ) throws(DatabaseError) -> TransactionRecord {
        let number = try ledger.nextTransactionNumber()
        let identifier = String(Self.firstTransactionIdentifier + number)
        let purchaseDate = start ?? scheduler.now
        let expires = (periodLength ?? product.subscriptionPeriod)?.added(
            to: purchaseDate, anniversary: anniversary ?? purchaseDate)
        let record = TransactionRecord(
            transactionIdentifier: identifier, originalTransactionIdentifier: original ?? identifier,
            productIdentifier: product.productIdentifier, appleId: appleId, deviceId: deviceId,
            purchaseDate: purchaseDate, expiresDate: expires, finished: reason == "RENEWAL",
            transactionReason: reason, offerType: offerType, appAccountToken: appAccountToken,
            price: price ?? product.price, currency: storefront.currencyCode)
        try ledger.insert(record)
        return record
    }

    /// A freshly signed receipt for `deviceId`, listing every purchase of `appleId` in this app; nil, with
    /// the error on the timeline, when the store cannot read its records: a receipt that left purchases out
    /// would tell the app "nothing to restore", so the phone keeps the receipt it had.
    func issueReceipt(deviceId: String, appleId: String) -> String? {
        logged("issue a receipt for \(appleId)") {
            let (records, unchanged) = try ledger.transactionsForReceipt(appleId: appleId)
            let nonce = Self.uuid(keys.unguessableBytes(16))
            let shell = ReceiptPayload(
                bundleId: bundleId, environment: environment,
                deviceVerification: ReceiptPayload.deviceVerification(nonce: nonce, deviceId: deviceId),
                deviceVerificationNonce: nonce, creationDate: scheduler.now.milliseconds, inApp: [])
            return try receipts.issue(
                shell: shell, appleId: appleId, purchases: records, unchanged: unchanged,
                makeEntry: ReceiptPayload.InAppPurchase.init(listing:), key: signingKey)
        }
    }

    /// 16 bytes as a lowercase UUID.
    static func uuid(_ bytes: [UInt8]) -> String { UUIDText.lowercase(bytes) }

    // MARK: - Server API (what the backend asks, as Apple's verifyReceipt answers)

    /// Verifies a receipt and answers with the store's own records of its purchases, never the device's word.
    public func verifyReceipt(_ receipt: String, expecting environment: StoreEnvironment) -> ReceiptVerification {
        verify(receipt, expecting: environment, latestOnly: false)
    }

    /// `verifyReceipt`, answering only the latest transaction of each subscription (a renewal, a refund,
    /// a resubscription): what a server applies, without every earlier period of a long history.
    public func verifyReceiptLatest(_ receipt: String, expecting environment: StoreEnvironment)
        -> ReceiptVerification
    {
        verify(receipt, expecting: environment, latestOnly: true)
    }

    /// The receipt this store issued whose UTF-8 is `bytes`, when it is one of the last few: a server that
    /// finds one in a request's body takes it as it is, without copying it out into a string of its own.
    public func issuedReceipt(matching bytes: UnsafeRawBufferPointer) -> String? {
        receipts.issued(matching: bytes)
    }

    private func verify(_ receipt: String, expecting environment: StoreEnvironment, latestOnly: Bool)
        -> ReceiptVerification
    {
        guard
            let (payload, originals) = receipts.opened(receipt)
                ?? ReceiptCodec.open(receipt, with: verifyingKey).map({ ($0, ReceiptMemo.originals(of: $0)) })
        else {
            let looksLikeReceipt = receipt.split(separator: ".").count == 3
            return .invalid(status: looksLikeReceipt ? .notAuthenticated : .malformed)
        }
        if payload.environment != environment {
            return .invalid(
                status: payload.environment == .sandbox
                    ? .sandboxReceiptSentToProduction : .productionReceiptSentToSandbox)
        }
        // Like `latest_receipt_info`: every transaction of each subscription in the receipt, renewals and
        // refunds made since the device last refreshed included, so the answer is the store's truth; and
        // like `pending_renewal_info`: each subscription's renewal state (billing retry, grace period).
        var records: [TransactionRecord] = []
        var renewals: [RenewalInfo] = []
        for original in originals {
            if latestOnly {
                let latest = logged("read the latest transaction of \(original)") {
                    try ledger.latestTransaction(originalTransactionId: original)
                }
                if let latest = latest ?? nil { records.append(latest) }
            } else {
                records +=
                    logged("read the transactions of \(original)") {
                        try ledger.transactions(originalTransactionId: original)
                    } ?? []
            }
            if let subscription = logged("read subscription \(original)", { try ledger.subscription(original) }) ?? nil
            {
                renewals.append(renewalInfo(subscription))
            } else if let shared = sharedRenewal(of: original) {
                // A family member's share renews as the purchaser's subscription does: its grace period too (a member
                // who joined during the purchaser's grace was told there was nothing valid to restore, session 24).
                renewals.append(shared)
            }
        }
        return .valid(payload, transactions: records, pendingRenewals: renewals)
    }
}

extension ReceiptPayload.InAppPurchase {
    /// A transaction as a receipt lists it.
    init(listing record: TransactionRecord) {
        self.init(
            transactionId: record.transactionIdentifier, originalTransactionId: record.originalTransactionIdentifier,
            productId: record.productIdentifier, purchaseDate: record.purchaseDate.milliseconds,
            expiresDate: record.expiresDate?.milliseconds, cancellationDate: record.revocationDate?.milliseconds,
            isInIntroOfferPeriod: record.offerType == 1 ? true : nil, appAccountToken: record.appAccountToken,
            inAppOwnershipType: record.inAppOwnershipType)
    }
}

/// Apple's verifyReceipt answer.
public enum ReceiptVerification: Equatable, Sendable {
    /// Apple's status codes for a refused receipt.
    public enum Status: Int, Sendable {
        case malformed = 21002
        case notAuthenticated = 21003
        case sandboxReceiptSentToProduction = 21007
        case productionReceiptSentToSandbox = 21008
    }

    case valid(ReceiptPayload, transactions: [TransactionRecord], pendingRenewals: [RenewalInfo])
    case invalid(status: Status)
}

/// A payment queue held without keeping it alive: the device owns its queue.
struct WeakQueue {
    weak var queue: PaymentQueue?
}

/// Where a device keeps its app receipt (a file on the phone); the store writes it, the app reads it.
public protocol ReceiptSlot: AnyObject {
    func load() -> String?
    func save(_ receipt: String?)
}
