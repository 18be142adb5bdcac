import SimKernel

/// The one service every screen relies on. It reconciles the catalog, runs purchases from the
/// store's sheet to the backend's word, keeps the identity, and broadcasts access changes.
/// Apple's "purchased" is evidence, never access: levels come only from backend answers.
public final class SubscriptionCoordinator {
    /// When the store's transaction is finished, so the seeds' trade-off can be shown side by side.
    public enum FinishPolicy: String, Sendable {
        /// As the seeds do: keeps Apple's queue clean; if the server check fails, Restore is the way back.
        case beforeServerCheck = "before-server-check"
        /// The transaction stays unfinished until validated, and is delivered again at the next launch.
        case afterServerCheck = "after-server-check"
    }

    public private(set) var catalog = OfferCatalog.empty
    public private(set) var access = AccessSnapshot.unknown
    public var finishPolicy = FinishPolicy.beforeServerCheck

    private let store: StoreAdapter
    private let backend: BackendClient
    private let storage: DeviceStorage
    private let configured: [ConfiguredOffer]
    private let log: (String) -> Void
    private let receipts: ReceiptRefresh
    private var accessListeners: [(AccessSnapshot) -> Void] = []
    private var activePurchase: ActivePurchase?

    private struct ActivePurchase {
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
        backend.credentials = { [storage] in storage.anonymousIdentity.map { .anonymous(token: $0.token) } ?? .none }
    }

    /// Called at app launch: reads the stored identity and starts the transaction observer.
    public func start() {
        if let anonymous = storage.anonymousIdentity {
            publish(
                AccessSnapshot(identity: .anonymous(id: anonymous.id), levels: Set(anonymous.levels), isKnown: true))
        } else {
            publish(AccessSnapshot(identity: .none, levels: [], isKnown: true))
        }
        store.startObserving { [weak self] transaction in self?.observe(transaction) }
    }

    /// Listens to every access change, whatever caused it.
    public func onAccessChange(_ listener: @escaping (AccessSnapshot) -> Void) {
        accessListeners.append(listener)
    }

    /// Asks the store for the configured products and keeps those it returned, in the owner's order.
    public func loadCatalog(completion: @escaping (OfferCatalog) -> Void) {
        store.requestProducts(configured.map(\.productId)) { [self] products, invalid in
            catalog = OfferCatalog.reconcile(configured: configured, returned: products, invalid: invalid)
            for left in catalog.leftOut { log("offer \(left.id) left out: \(left.reason)") }
            completion(catalog)
        }
    }

    // MARK: - Purchase

    /// Buys an offer: checks, Apple's sheet, then the backend's word. `completion` runs once.
    public func purchase(
        offerId: String, progress: @escaping (PurchaseStage) -> Void, completion: @escaping (PurchaseOutcome) -> Void
    ) {
        guard activePurchase == nil else {
            log("purchase refused: another payment is in progress")
            return completion(.refused(.purchaseInProgress))
        }
        guard let offer = catalog.offer(offerId) else { return completion(.refused(.offerUnavailable)) }
        guard store.canMakePayments else {
            log("purchase refused: this device cannot make payments")
            return completion(.refused(.paymentsNotAllowed))
        }
        activePurchase = ActivePurchase(productId: offer.productId, progress: progress, completion: completion)
        log("purchase \(offer.id): handing over to the App Store")
        progress(.waitingForStore)
        store.addPayment(productIdentifier: offer.productId)
    }

    private func observe(_ transaction: StoreTransaction) {
        switch transaction.state {
        case .purchasing:
            break
        case .deferred:
            log("payment waiting for a parent's approval")
            finishPurchase(.pending, keepActive: false)
        case .purchased, .restored:
            if finishPolicy == .beforeServerCheck { store.finish(transaction) }
            validatePayment(transaction)
        case .cancelled:
            store.finish(transaction)
            log("payment cancelled by the reader: no error shown")
            finishPurchase(.cancelled)
        case .failed(let reason):
            store.finish(transaction)
            log("payment failed: \(reason)")
            finishPurchase(.failed(message: "The App Store could not complete the payment. You were not charged."))
        }
    }

    /// After Apple charged: receipt → backend → identity and levels; only then is the purchase done.
    private func validatePayment(_ transaction: StoreTransaction) {
        activePurchase?.progress(.checkingWithServer)
        receipts.receipt { [self] receipt in
            guard let receipt else {
                return finishPurchase(
                    .serverCheckFailed(
                        message: "Your purchase could not be checked. Use Restore purchase to get it back."))
            }
            log("sending the receipt to the server")
            backend.validateReceipt(receipt) { [self] result in
                switch result {
                case .success(let answer):
                    if finishPolicy == .afterServerCheck { store.finish(transaction) }
                    save(answer)
                    finishPurchase(.purchased)
                case .failure(let failure):
                    log("server check failed: \(failure)")
                    finishPurchase(
                        .serverCheckFailed(
                            message:
                                "Your payment went through but could not be confirmed. Use Restore purchase to get it back."
                        ))
                }
            }
        }
    }

    private func save(_ answer: AccessAnswer) {
        let token = answer.token ?? storage.anonymousIdentity?.token ?? ""
        storage.anonymousIdentity = AnonymousIdentity(id: answer.identityId, token: token, levels: answer.levels)
        publish(AccessSnapshot(identity: .anonymous(id: answer.identityId), levels: Set(answer.levels), isKnown: true))
    }

    private func finishPurchase(_ outcome: PurchaseOutcome, keepActive: Bool = false) {
        guard let purchase = activePurchase else { return }
        if !keepActive { activePurchase = nil }
        purchase.completion(outcome)
    }

    // MARK: - Access

    /// The full version of content, from the per-level cache or fetched with the reader's identity.
    public func fullContent(
        _ contentId: String, requiredLevels: [String], completion: @escaping (Result<String, BackendFailure>) -> Void
    ) {
        let held = requiredLevels.map(AccessLevel.init).filter(access.levels.contains).sorted()
        if let level = held.first, let cached = storage.cachedContent(contentId, level: level) {
            return completion(.success(cached))
        }
        backend.fullContent(contentId) { [self] result in
            if case .success(let body) = result, let level = held.first, access.levels.contains(level) {
                storage.cacheContent(contentId, level: level, body: body)
            }
            completion(result)
        }
    }

    /// One broadcast for every change; the cache of any lost level is deleted first.
    private func publish(_ snapshot: AccessSnapshot) {
        for lost in access.levels.subtracting(snapshot.levels) {
            storage.purgeContent(level: lost)
            log("level \(lost) lost: cached full content deleted")
        }
        let changed = snapshot != access
        access = snapshot
        if changed {
            log(
                "access: \(snapshot.levels.isEmpty ? "no levels" : snapshot.levels.sorted().map(\.rawValue).joined(separator: ", "))"
            )
            for listener in accessListeners { listener(snapshot) }
        }
    }
}
