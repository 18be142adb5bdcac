import SimKernel

/// The one service every screen relies on. It reconciles the catalog, runs purchases from the
/// store's sheet to the backend's word, keeps the identity (an account, an anonymous identity, or
/// none), restores, transfers, and broadcasts every change of access.
/// Apple's "purchased" is evidence, never access: levels come only from backend answers.
///
/// The flows live in their own files: `PurchaseFlow`, `RestoreFlow`, `AccountFlow`, `ContentAccess`.
public final class SubscriptionCoordinator {
    /// When the store's transaction is finished, so the seeds' trade-off can be shown side by side.
    public enum FinishPolicy: String, Sendable, CaseIterable {
        /// As the seeds do: keeps Apple's queue clean; if the server check fails, Restore is the way back.
        case beforeServerCheck = "before-server-check"
        /// The transaction stays unfinished until validated, and is delivered again at the next launch.
        case afterServerCheck = "after-server-check"
    }

    public internal(set) var catalog = OfferCatalog.empty
    public internal(set) var access = AccessSnapshot.unknown
    public var finishPolicy = FinishPolicy.beforeServerCheck
    /// A kids app, or a reader under age: no payment reaches the store before a grown-up answered the parental gate.
    public var requiresParentalGate = false
    /// A rule broken on purpose for the fuzzer to catch; nil in every normal run.
    public var defect: CoordinatorDefect? {
        didSet {
            backend.renewsAnonymousTokens = defect != .anonymousTokenExpires
            receipts.joinsWaiters = defect != .refreshPerCaller
            receipts.tellsCancelApart = defect != .refreshCancelToldAsError
            backend.tradesOnlyHeldRefreshTokens = defect != .replacedRefreshTokenTradedAgain
        }
    }
    /// The levels the app's content asks for: a reader holding them all has no restore to gain; what
    /// `CoordinatorDefect.unlockOnPurchased` unlocks by itself.
    public var contentLevels: Set<AccessLevel> = []

    let store: StoreAdapter
    let backend: BackendClient
    let storage: DeviceStorage
    let configured: [ConfiguredOffer]
    let log: (String) -> Void
    let receipts: ReceiptRefresh
    var accessListeners: [(AccessSnapshot) -> Void] = []
    var activePurchase: ActivePurchase?
    /// Payments an earlier launch handed to Apple that Apple still processes, by number (StoreKit tells a relaunched
    /// app's observer they are purchasing): each is a payment running, and a second is refused until it ends (a
    /// restart mid-payment let the reader start another of the same group, session 27).
    var paymentsRunning: Set<Int> = []
    /// Run once the purchase on screen ends: a restore whose answer came while Apple still had its payment.
    var afterPurchase: [() -> Void] = []
    /// The serial of the last purchase started (`ActivePurchase.serial`).
    var purchasesStarted = 0
    /// Charges nobody on screen waited for, while the server checks them (`CarriedOnCheck`).
    var carriedOnChecks: [CarriedOnCheck] = []
    /// Carried-on transactions seen (each one Apple delivered that no purchase on screen waited for), to name each
    /// check, and to tell the check before paying that the receipt it sent may lack one.
    var carriedOnSeen = 0
    /// Payments this launch heard deferred (Ask to Buy), by number: their failure is a parent's decline.
    var deferredPayments: Set<Int> = []
    /// Products whose request this launch told the reader waits for a parent (a second tap refused).
    var toldWaiting: Set<String> = []
    /// Told how a purchase nobody on screen is waiting for ended: Ask to Buy approved later, an
    /// interrupted purchase resolved, a charge redelivered at launch. The reader must hear of it. `freshCharge`: Apple
    /// charged for it while this launch observed, and this launch had not heard of it before.
    public var onPurchaseCarriedOn: (PurchaseOutcome, StoreTransaction, _ freshCharge: Bool) -> Void = { _, _, _ in }
    /// Told when a parent answered a request this launch told the reader waits: approved (before the server's word
    /// on it) or declined.
    public var onParentAnswered: () -> Void = {}
    /// Told when the app, becoming active, reads that no request of the Apple ID waits for a parent any more.
    public var onNoRequestWaits: () -> Void = {}
    /// Told when the coordinator corrects the offers by itself (a free trial no longer Apple's to give).
    public var onCatalogChange: (OfferCatalog) -> Void = { _ in }
    /// Told the subscriptions every answer lists: a sign-in's for the account, so the profile shows them at once, each
    /// `reloadAccess`'s, whoever asked, and, signed in, those listed for the phone's own anonymous identity when it is
    /// asked again.
    public var onSubscriptionsListed: ((SubscriptionList) -> Void)?
    /// Told when the server ended the account's session and the reader was signed out: they must hear of it.
    public var onSessionEnded: ((AccountOutcome) -> Void)?
    /// The restore under way: a second tap joins it rather than sending another.
    var restoreInFlight = false
    /// The reload of access asked last, while its answer is on its way: another asked in the same instant for the same
    /// identity joins it (`reloadAccess`).
    private var joinableReload: JoinedReload?
    /// The reload whose answer is being delivered: an ask its own news raises for the same identity (the profile's plan
    /// lines asked again as the levels it brought change) is served by it, the list of that answer (session 43: the
    /// profile opened after a refund asked `GET /v1/me` twice).
    private var delivering: JoinedReload?
    /// Receipts this run sent and the server has not answered: while one is out, nothing is sent again.
    var receiptSendsInFlight = 0
    /// The server time of the newest answer kept about each identity.
    var newestWord: [String: ServerStamp] = [:]
    /// The newest answer heard about each account, dropped or kept: a sign-in to it composed before is older news
    /// (`SignInLanding`).
    var accountWords: [String: AccessAnswer] = [:]
    /// Run once the latest sign-in has landed or failed: what waited to know who the phone holds (`SignInLanding`).
    var afterSignIn: [() -> Void] = []
    /// The ends of the levels the phone holds (`LevelsEnd`) already asked about once passed, each identity's its own: one
    /// end kept for both, the earlier, left the later unasked when the earlier's answer did not come (long fuzz seed 1204).
    var levelsEndsAsked: Set<Int64> = []
    /// The latest end of levels the server could not be asked about once past it: levels given until then are off
    /// until it answers again (`LevelsEnd`).
    var levelsEndUnanswered: Int64?
    /// Runs a closure at an instant on the app's clock and returns what cancels it, as an app schedules a timer: the
    /// levels' end asked about when it passes while the app runs (`LevelsEnd`). Nil: no timer, the reader's next act
    /// asks.
    public var timer: ((SimInstant, @escaping () -> Void) -> () -> Void)?
    /// The levels' end the timer is set for, and what cancels it.
    var levelsEndTimer: (end: SimInstant, cancel: () -> Void)?
    /// The move of this phone's anonymous subscription to the account under way.
    var transferInFlight = false
    /// A tap that joined the move on its way, with the account signed in when it was made: a move answered after its
    /// account left is asked again for the account signed in now, whose tap waited for it (long fuzz seed 1298).
    var transferJoined: (account: String?, completion: (AccountOutcome) -> Void)?
    /// Products requests made, so an answer can tell whether a newer one was sent after it.
    var catalogRequests = 0
    /// Log-ins and sign-ups started, for the same reason, and the latest whose answer the app took.
    var signIns = 0
    var signInTaken = 0
    /// Apple took a family share back while nobody was signed in on the phone, nor a guest held: nobody to ask the
    /// server as, so the next sign-in asks, reading Apple's records (its own answer may predate Apple's REVOKE).
    var revocationUnasked = false
    /// The latest log-in's words, sent again since the first of them: one request to the reader (`AccountFlow.logIn`).
    var sameLogIns: SameLogIns?

    /// The app's clock (the phone's), to tell a fresh charge from an old transaction delivered again.
    public var clock: () -> SimInstant = { SimInstant(milliseconds: 0) }
    /// When this launch started observing the store, and the transactions it has heard of since: a charge made
    /// since and not heard of before is news (an approval, an upgrade made in Settings heard of moments later);
    /// anything else is Apple's record delivered again (at launch, or as the answer to a payment).
    var observingSince = SimInstant(milliseconds: 0)
    var heardOf: Set<String> = []
    /// What the launch before this one heard, kept on the phone: a charge delivered again that it never heard of is
    /// news too (`HeardCharges`).
    var lastLaunchHeard: HeardCharges?

    struct ActivePurchase {
        /// Which purchase of this app process it is: an answer to an earlier one (its check before paying, its
        /// offer's signature) arriving after it ended is not this one's.
        var serial = 0
        let productId: String
        /// The store's number for this purchase's payment, from its first update: another payment of the
        /// same product (an earlier one a parent approves now) is not this purchase.
        var paymentNumber: Int?
        /// The payment went to the store: before, no store update can be this purchase's.
        var handedOver = false
        var startedAt = SimInstant(milliseconds: 0)
        /// A grown-up answered the parental gate for this purchase.
        var gatePassed = false
        /// Who the phone showed and the levels it held when the purchase started: levels gained since are told with a
        /// failure (`storeFailure`).
        var accessAtStart = AccessSnapshot.unknown
        /// The account signed in when the purchase was asked for, nil for a guest: a move before paying is this
        /// asker's, never an account's that signed in since (`MoveBeforePayingAsker`).
        var askedBy: String?
        /// The server's word on the receipt heard while the check before paying was on its way (a restore's ask
        /// where its purchases are), and who asked: what the app knows when its own check fails (fuzz seed 4276).
        var heardMeanwhile: (receipt: String, asked: AccessSnapshot.Identity, purchases: [RestorablePurchase])?
        /// The server's latest word on the receipt heard while the purchase ran (the check before paying acted on, a
        /// restore's ask where its purchases are, even with Apple's sheet up), and who asked: what a restore here would
        /// answer, known still when the payment's own ask goes unheard or finds no receipt to ask with (long fuzz seeds
        /// 1471, 2251). `knew`: the transactions this launch had heard of when it came (`heardOf`).
        var heardLatest: (asked: AccessSnapshot.Identity, purchases: [RestorablePurchase], knew: Set<String>)?
        /// Apple charged a payment of this product while the purchase ran (one nobody on screen waited for, carried
        /// on): a purchase stopped before Apple does not tell "Nothing was charged" (long fuzz seed 1542).
        var chargeHeard = false
        /// A guest's purchase whose check before paying asks only whether the family shares the group with the Apple
        /// ID (`FamilyShareFirst`): any other answer, or none, goes on to pay.
        var asksOnlyForFamilyShare = false
        /// The check before paying asked the server to move the phone's guest's purchases to the account
        /// (`GuestMoveBeforePaying`): once per purchase.
        var guestMoveAsked = false
        let progress: (PurchaseStage) -> Void
        let completion: (PurchaseOutcome) -> Void
    }

    /// A charge nobody on screen waited for (a parent's approval, a resolved interruption), while the server
    /// checks it. A purchase of the same product reaching the App Store meanwhile joins this check instead of
    /// paying again: the reader hears the charge's own end, and Apple is not asked twice for one product.
    struct CarriedOnCheck {
        let id: Int
        let productId: String
        /// When Apple took the payment.
        let paidAt: SimInstant
        /// Apple charged it while this launch observed (not its record delivered again).
        var fresh = false
        /// The purchase on screen waiting for this check's answer (`ActivePurchase.serial`), and its offer: paid
        /// for after all when an old charge delivered again gives no access.
        var joinedBy: (serial: Int, offer: Offer)?
    }

    public init(
        store: StoreAdapter, backend: BackendClient, storage: DeviceStorage, configured: [ConfiguredOffer],
        log: @escaping (String) -> Void
    ) {
        self.store = store
        self.backend = backend
        self.storage = storage
        self.configured = configured
        self.log = log
        self.receipts = ReceiptRefresh(store: store, log: log)
        backend.signedInAccount = { [storage] in storage.accountSession?.identityId }
        backend.credentials = { [storage] in
            if let session = storage.accountSession {
                return .account(token: session.token, refreshToken: session.refreshToken)
            }
            return storage.anonymousIdentity.map { .anonymous(token: $0.token) } ?? .none
        }
        // A refresh answered after another sign-in replaced the session it was asked for is that old session's: its
        // tokens would sign this reader's requests as the other account, and its refusal ends nothing here.
        backend.onSessionRefreshed = { [weak self] access, refreshToken, traded in
            guard let self, storage.accountSession?.refreshToken == traded else {
                self?.log("a refresh of a session replaced since is dropped")
                return
            }
            // The new token is kept with its refresh token whatever `save` makes of the levels beside it: a refresh
            // answered after newer news about the account (a receipt's answer) is older news, but its tokens are the
            // session now. Dropped, the phone held the old token with the new refresh token, and a request sent with
            // the old pair traded the old refresh token again, which spent the phone's (fuzz seed 5440).
            storage.accountSession?.refreshToken = refreshToken
            if let token = access.token { storage.accountSession?.token = token }
            log("account token refreshed")
            save(access)
        }
        backend.onSessionEnded = { [weak self] refused in
            guard self?.storage.accountSession?.refreshToken == refused else { return }
            self?.endSession()
        }
        backend.onAnonymousTokenRenewed = { [weak self] access in
            self?.log("anonymous token renewed")
            self?.save(access, askedAs: access.identityId)
        }
        backend.log = log
    }

    /// The server refused the account's refresh token: the reader is signed out, back to this
    /// phone's anonymous identity if it has one, rather than left signed in with a dead session.
    func endSession() {
        guard let session = storage.accountSession else { return }
        log("the account's session ended: signed out")
        storage.accountSession = nil
        publishStoredAccess()
        // The phone's guest is who reads now: its levels were the backend's word when last asked, maybe a month ago
        // (an expired subscription opened from the cache, session 24). They are asked again.
        if storage.anonymousIdentity != nil { reloadAccess() }
        if defect != .silentSessionEnd { onSessionEnded?(.sessionEnded(email: session.email)) }
    }

    /// Called at app launch: reads the stored identity, starts the transaction observer, and lets Apple show a
    /// price increase waiting for consent (StoreKit shows it at launch, as whenever the app becomes active).
    /// The app quits: what waits on the App Store's answers, which a quit app never hears, is let go.
    public func quit() { receipts.abandon() }

    public func start() {
        publishStoredAccess()
        observingSince = clock()
        lastLaunchHeard = storage.heardCharges
        storage.heardCharges = HeardCharges(began: observingSince)
        store.observeRevokedEntitlements { [weak self] products in self?.entitlementsRevoked(products) }
        store.startObserving { [weak self] transaction in self?.observe(transaction) }
        if defect != .skipPriceConsent { store.showPriceConsentIfNeeded() }
        resendUnansweredReceipt()
    }

    /// Listens to every access change, whatever caused it.
    public func onAccessChange(_ listener: @escaping (AccessSnapshot) -> Void) {
        accessListeners.append(listener)
    }

    /// Asks the store for the configured products and keeps those it returned, in the owner's order.
    /// Only the latest request counts: an answer overtaken by a newer request (the storefront changed
    /// while it was on its way) is dropped, or the paywall would show another country's offers.
    public func loadCatalog(completion: @escaping (OfferCatalog) -> Void) {
        catalogRequests += 1
        let request = catalogRequests
        store.requestProducts(configured.map(\.productId)) { [self] products, invalid, error in
            guard request == catalogRequests else {
                log("products answer dropped: a newer request is on its way")
                return
            }
            if let error {
                // A failed request says nothing of what is sold: keep what the paywall had, and ask again
                // when it opens or the app returns to the foreground.
                log("products request failed (\(error)): asked again when the paywall opens")
                return completion(catalog)
            }
            catalog = OfferCatalog.reconcile(
                configured: configured, returned: products.map(offerable), invalid: invalid)
            for left in catalog.leftOut { log("offer \(left.id) left out: \(left.reason)") }
            completion(catalog)
        }
    }

    /// The storefront or the language changed: the offers held are another country's prices and words,
    /// so a products request that then fails shows none rather than those.
    public func forgetCatalog() {
        catalog = .empty
    }

    // MARK: - Access

    /// The access the phone's storage holds: the account's if signed in, else the anonymous identity's.
    /// Signed in, the phone's own anonymous subscription still counts until it has moved to the account:
    /// a reader who paid keeps reading while the transfer is on its way, declined or refused.
    func storedAccess() -> AccessSnapshot {
        if let session = storage.accountSession {
            let onThisPhone = Set(storage.anonymousIdentity.map { onWord($0.levels, until: $0.levelsUntil) } ?? [])
            var snapshot = AccessSnapshot(
                identity: .account(email: session.email),
                levels: Set(onWord(session.levels, until: session.levelsUntil)).union(onThisPhone),
                isKnown: true)
            snapshot.unmovedLevels = onThisPhone
            snapshot.phoneGuest = storage.anonymousIdentity?.id
            // A move the server said it refuses for the limit, until then: not offered (`AccessSnapshot`).
            if let until = storage.anonymousIdentity?.transferRefusedUntil, until > clock().milliseconds,
                !onThisPhone.isEmpty
            {
                snapshot.moveRefusedUntil = SimInstant(milliseconds: until)
            }
            return snapshot
        }
        if let anonymous = storage.anonymousIdentity {
            var snapshot = AccessSnapshot(
                identity: .anonymous(id: anonymous.id),
                levels: Set(onWord(anonymous.levels, until: anonymous.levelsUntil)),
                isKnown: true)
            snapshot.phoneGuest = anonymous.id
            return snapshot
        }
        return AccessSnapshot(identity: .none, levels: [], isKnown: true)
    }

    func publishStoredAccess() {
        publish(storedAccess())
    }

    /// The anonymous identity the phone holds now, to tell later whether an answer is still about it.
    var anonymousId: String? { storage.anonymousIdentity?.id }

    /// Keeps what the backend said about the current identity, then publishes it. `askedAs` is the
    /// anonymous identity the phone held when it asked: an answer about an anonymous identity, arriving
    /// after the phone took another one, changes nothing.
    @discardableResult
    func save(_ answer: AccessAnswer, askedAs: String?) -> Bool {
        if answer.kind == "anonymous", let held = anonymousId, held != askedAs, held != answer.identityId {
            log("an answer about \(answer.identityId), an identity this phone no longer holds, changes nothing")
            publishStoredAccess()
            return false
        }
        return save(answer)
    }

    /// Keeps what the backend said about the current identity, then publishes it. An answer the server
    /// gave before one already kept about the same identity is older news, landing late (a slow `me`
    /// overtaken by a purchase's answer): it changes nothing. Returns whether the answer was kept.
    @discardableResult
    func save(_ answer: AccessAnswer) -> Bool {
        if let said = backend.answeringStamp {
            if let newest = newestWord[answer.identityId], said < newest {
                log("an older answer about \(answer.identityId) came after a newer one: it changes nothing")
                publishStoredAccess()
                return false
            }
            newestWord[answer.identityId] = said
            if answer.kind == "account" { accountWords[answer.identityId] = answer }
        }
        if answer.kind == "account", storage.accountSession?.identityId != answer.identityId {
            // An answer sent for the account signed in before this one, or before the session ended: it says nothing
            // of this reader.
            log("an answer about another account is dropped")
            publishStoredAccess()
            return false
        }
        if var session = storage.accountSession, answer.kind == "account" {
            session.levels = answer.levels
            session.levelsUntil = answer.levelsUntil?.milliseconds
            if let token = answer.token { session.token = token }
            if let appAccountToken = answer.appAccountToken { session.appAccountToken = appAccountToken }
            storage.accountSession = session
        } else if answer.kind == "anonymous" {
            guard
                let token = answer.token
                    ?? storage.anonymousIdentity.flatMap({
                        $0.id == answer.identityId ? $0.token : nil
                    })
            else {
                // An identity named without its token cannot be spoken as: keeping it would fail every request.
                log("an answer about \(answer.identityId) came without its token: nothing kept")
                publishStoredAccess()
                return false
            }
            var identity = AnonymousIdentity(id: answer.identityId, token: token, levels: answer.levels)
            identity.levelsUntil = answer.levelsUntil?.milliseconds
            identity.transferRefusedUntil = answer.transferRefusedUntil?.milliseconds
            storage.anonymousIdentity = identity
        }
        publishStoredAccess()
        askAgainIfHeardLate(until: answer.levelsUntil?.milliseconds)
        return true
    }

    /// One broadcast for every change; the cache of any lost level is deleted first.
    func publish(_ snapshot: AccessSnapshot) {
        // Sorted: a set's order changes from one process to the next, and the timeline must not.
        for lost in access.levels.subtracting(snapshot.levels).sorted() where defect != .keepCache {
            storage.purgeContent(level: lost)
            log("level \(lost) lost: cached full content deleted")
        }
        let changed = snapshot != access
        access = snapshot
        setLevelsEndTimer()
        guard changed else { return }
        let levels =
            snapshot.levels.isEmpty ? "no levels" : snapshot.levels.sorted().map(\.rawValue).joined(separator: ", ")
        log("access: \(levels)")
        for listener in accessListeners { listener(snapshot) }
    }

    /// The app came to the foreground: access may have changed while it was away (a renewal, a refund),
    /// and a price increase may wait for the reader's consent.
    public func appBecameActive(completion: @escaping (SubscriptionList?) -> Void) {
        log("app became active")
        if defect != .skipPriceConsent { store.showPriceConsentIfNeeded() }
        // Apple tells the app nothing of a request that ends uncharged where no payment of the app's waited: a switch
        // on the manage sheet a parent declined, a request that lapsed. The store's requests waiting, read again here,
        // say whether "Waiting for approval" still holds (it stayed up for good over a declined switch, session 28).
        if store.productsAwaitingApproval.isEmpty {
            toldWaiting = []
            onNoRequestWaits()
        }
        resendUnansweredReceipt()
        // The planted `foreground-keeps-levels`: the last answer trusted until the levels' end.
        if defect == .foregroundKeepsLevels, access.isSubscriber, lapsedLevelsEnd == nil { return completion(nil) }
        reloadAccess(completion: completion)
    }

    /// The anonymous identity kept beside a signed-in account, asked again: a move to the account
    /// (restore before purchase, restore, transfer) may have emptied it, and after a log-out it must
    /// not show levels it gave away.
    /// `clearingFirst`: the levels it gave away are not shown until the backend answers (after a move).
    /// `askingApple`: the server reads Apple's records of its purchases first, as it does the account's
    /// (`reloadAccess(askingApple:)`): a family share the phone's guest holds, taken back by Apple, stayed on the phone
    /// of a signed-in member, the guest asked with `GET /v1/me` before Apple's REVOKE reached the server (session 39).
    func reloadPhoneIdentity(clearingFirst: Bool = true, askingApple: Bool = false) {
        guard storage.accountSession != nil, let anonymous = storage.anonymousIdentity else { return }
        if clearingFirst {
            storage.anonymousIdentity?.levels = []
            publishStoredAccess()
        }
        backend.me(as: .anonymous(token: anonymous.token), askingApple: askingApple) { [self] result in
            guard case .success(let (answer, list)) = result else {
                log("the phone's anonymous identity could not be asked again: its levels stay off")
                serverNotAnswered()
                return
            }
            if save(answer, askedAs: anonymous.id) {
                onSubscriptionsListed?(SubscriptionList(identity: .anonymous(id: anonymous.id), subscriptions: list))
            }
            // Levels gone from the phone's identity while signed in were most likely moved to the account
            // (a transfer the last run sent, landing after the account was asked): ask the account again.
            guard !Set(anonymous.levels).isSubset(of: answer.levels), storage.accountSession != nil else { return }
            backend.me { [self] result in
                if case .success(let (account, _)) = result { save(account) }
            }
        }
    }

    /// Asks the backend again for the current identity's levels and subscriptions (the profile opened,
    /// the app became active, a renewal or a refund happened).
    /// `completion`: the subscriptions listed for the identity asked as; nil when the backend did not answer.
    /// `askingApple`: after the reader changed something on Apple's sheet, the server reads Apple's records first.
    public func reloadAccess(
        askingApple: Bool = false, completion: @escaping (SubscriptionList?) -> Void = { _ in }
    ) {
        let asked = storedAccess().identity
        guard storage.accountSession != nil || storage.anonymousIdentity != nil else {
            let none = SubscriptionList(identity: asked, subscriptions: [])
            onSubscriptionsListed?(none)
            return completion(none)
        }
        let askedAs = anonymousId
        // Two reasons to ask in one instant (a restore's end on the profile, whose levels changed, asks twice) are one
        // question: the second `GET /v1/me` left beside the first, the same answer to the same asker (session 34).
        // Asked later, something may have changed since the first left, so it asks again.
        if !askingApple, let joinable = joinableReload, joinable.asked == asked, joinable.askedAs == askedAs,
            joinable.at == clock()
        {
            log("access: already asked for at this instant; that answer serves this ask too")
            return joinable.waiters.append(completion)
        }
        if !askingApple, let answering = delivering, answering.asked == asked, answering.askedAs == askedAs {
            log("access: asked again as its answer arrives; that answer serves this ask too")
            return answering.waiters.append(completion)
        }
        // Signed in, the phone's own anonymous subscription is asked about too: it may have ended.
        reloadPhoneIdentity(clearingFirst: false, askingApple: askingApple)
        let reload = JoinedReload(asked: asked, askedAs: askedAs, at: clock(), waiters: [completion])
        if !askingApple { joinableReload = reload }
        let completion = { [self] (list: SubscriptionList?) in
            if joinableReload === reload { joinableReload = nil }
            for waiter in reload.waiters { waiter(list) }
        }
        backend.me(askingApple: askingApple) { [self] result in
            switch result {
            case .success(let (answer, subscriptions)):
                delivering = reload
                save(answer, askedAs: askedAs)
                // The list is of whom the server answered for: an account's ask whose session ended on the way was
                // answered as the phone's guest, and its list, labelled the account's, put the guest's plan line off
                // the profile on screen (session 36).
                let listed = answer.kind == "anonymous" ? .anonymous(id: answer.identityId) : asked
                let list = SubscriptionList(identity: listed, subscriptions: subscriptions)
                // Every answer's list reaches the app, whoever asked: one asked as the levels' end passed (a renewal)
                // or for an article or a restore was dropped, and the profile kept the renewal date it showed, under
                // an alert or not (session 36's note).
                onSubscriptionsListed?(list)
                delivering = nil
                completion(list)
            case .failure(.unauthorized) where storage.accountSession != nil:
                endSession()
                completion(nil)
            case .failure(.unauthorized) where asked != storedAccess().identity && asked.isAccount:
                // Asked as an account whose session ended meanwhile (the refresh this request asked for was refused):
                // the phone already shows what it holds without it, "access: …" said so, and "keeps what the backend
                // said last" contradicted that line (session 28).
                log("the account's session ended while its access was asked: the phone shows what it holds without it")
                completion(nil)
            case .failure(let failure):
                let keeps = passedEnd == nil ? "; the phone keeps what the backend said last" : ""
                log("access could not be reloaded: \(failure)\(keeps)")
                serverNotAnswered()
                completion(nil)
            }
        }
    }
}

/// A reload of access on its way, and whoever asked for it: the first caller and those that joined it.
private final class JoinedReload {
    let asked: AccessSnapshot.Identity
    let askedAs: String?
    let at: SimInstant
    var waiters: [(SubscriptionList?) -> Void]

    init(asked: AccessSnapshot.Identity, askedAs: String?, at: SimInstant, waiters: [(SubscriptionList?) -> Void]) {
        self.asked = asked
        self.askedAs = askedAs
        self.at = at
        self.waiters = waiters
    }
}
