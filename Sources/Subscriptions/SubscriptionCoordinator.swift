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
    /// A kids app: no payment reaches the store before a grown-up answered the parental gate.
    public var requiresParentalGate = false
    /// A rule broken on purpose for the fuzzer to catch; nil in every normal run.
    public var defect: CoordinatorDefect?
    /// The levels the app's content asks for: what `CoordinatorDefect.unlockOnPurchased` unlocks by itself.
    public var contentLevels: Set<AccessLevel> = []

    let store: StoreAdapter
    let backend: BackendClient
    let storage: DeviceStorage
    let configured: [ConfiguredOffer]
    let log: (String) -> Void
    let receipts: ReceiptRefresh
    var accessListeners: [(AccessSnapshot) -> Void] = []
    var activePurchase: ActivePurchase?
    /// Products requests made, so an answer can tell whether a newer one was sent after it.
    var catalogRequests = 0
    /// Log-ins and sign-ups started, for the same reason.
    var signIns = 0

    struct ActivePurchase {
        let productId: String
        let progress: (PurchaseStage) -> Void
        let completion: (PurchaseOutcome) -> Void
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
        backend.credentials = { [storage] in
            if let session = storage.accountSession {
                return .account(token: session.token, refreshToken: session.refreshToken)
            }
            return storage.anonymousIdentity.map { .anonymous(token: $0.token) } ?? .none
        }
        backend.onSessionRefreshed = { [weak self] access, refreshToken in
            self?.storage.accountSession?.refreshToken = refreshToken
            self?.log("account token refreshed")
            self?.save(access)
        }
        backend.onSessionEnded = { [weak self] in self?.endSession() }
    }

    /// The server refused the account's refresh token: the reader is signed out, back to this
    /// phone's anonymous identity if it has one, rather than left signed in with a dead session.
    func endSession() {
        guard storage.accountSession != nil else { return }
        log("the account's session ended: signed out")
        storage.accountSession = nil
        publishStoredAccess()
    }

    /// Called at app launch: reads the stored identity and starts the transaction observer.
    public func start() {
        publishStoredAccess()
        store.startObserving { [weak self] transaction in self?.observe(transaction) }
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
        store.requestProducts(configured.map(\.productId)) { [self] products, invalid in
            guard request == catalogRequests else {
                log("products answer dropped: a newer request is on its way")
                return
            }
            catalog = OfferCatalog.reconcile(configured: configured, returned: products, invalid: invalid)
            for left in catalog.leftOut { log("offer \(left.id) left out: \(left.reason)") }
            completion(catalog)
        }
    }

    /// Whether the subscription was bought on this platform, so "Manage my subscription" can open the store's sheet.
    public var canManageInStore: Bool { access.isSubscriber }

    // MARK: - Access

    /// The access the phone's storage holds: the account's if signed in, else the anonymous identity's.
    func storedAccess() -> AccessSnapshot {
        if let session = storage.accountSession {
            return AccessSnapshot(identity: .account(email: session.email), levels: Set(session.levels), isKnown: true)
        }
        if let anonymous = storage.anonymousIdentity {
            return AccessSnapshot(identity: .anonymous(id: anonymous.id), levels: Set(anonymous.levels), isKnown: true)
        }
        return AccessSnapshot(identity: .none, levels: [], isKnown: true)
    }

    func publishStoredAccess() {
        publish(storedAccess())
    }

    /// Keeps what the backend said about the current identity, then publishes it.
    func save(_ answer: AccessAnswer) {
        if let session = storage.accountSession, answer.kind == "account", answer.identityId != session.identityId {
            // An answer sent for the account signed in before this one: it says nothing of this reader.
            log("an answer about another account is dropped")
            return publishStoredAccess()
        }
        if var session = storage.accountSession, answer.kind == "account" {
            session.levels = answer.levels
            if let token = answer.token { session.token = token }
            if let appAccountToken = answer.appAccountToken { session.appAccountToken = appAccountToken }
            storage.accountSession = session
        } else if answer.kind == "anonymous" {
            let token = answer.token ?? storage.anonymousIdentity?.token ?? ""
            storage.anonymousIdentity = AnonymousIdentity(id: answer.identityId, token: token, levels: answer.levels)
        }
        publishStoredAccess()
    }

    /// One broadcast for every change; the cache of any lost level is deleted first.
    func publish(_ snapshot: AccessSnapshot) {
        for lost in access.levels.subtracting(snapshot.levels) where defect != .keepCache {
            storage.purgeContent(level: lost)
            log("level \(lost) lost: cached full content deleted")
        }
        let changed = snapshot != access
        access = snapshot
        guard changed else { return }
        let levels =
            snapshot.levels.isEmpty ? "no levels" : snapshot.levels.sorted().map(\.rawValue).joined(separator: ", ")
        log("access: \(levels)")
        for listener in accessListeners { listener(snapshot) }
    }

    /// The app came to the foreground: access may have changed while it was away (a renewal, a refund),
    /// and a price increase may wait for the reader's consent.
    public func appBecameActive(completion: @escaping ([SubscriptionSummary]) -> Void) {
        log("app became active")
        store.showPriceConsentIfNeeded()
        reloadAccess(completion: completion)
    }

    /// Asks the backend again for the current identity's levels and subscriptions (the profile opened,
    /// the app became active, a renewal or a refund happened).
    public func reloadAccess(completion: @escaping ([SubscriptionSummary]) -> Void = { _ in }) {
        guard storage.accountSession != nil || storage.anonymousIdentity != nil else { return completion([]) }
        backend.me { [self] result in
            switch result {
            case .success(let (answer, subscriptions)):
                save(answer)
                completion(subscriptions)
            case .failure(.unauthorized) where storage.accountSession != nil:
                endSession()
                completion([])
            case .failure:
                completion([])
            }
        }
    }
}
