import Foundation
import Signing
import SimKernel
import Subscriptions
import WhiteLabel

@testable import BackendSim
@testable import StoreSim

/// The fake store and the backend over one ledger, with as many phones as a test needs; each phone
/// talks to the backend through the real `BackendClient` over an immediate transport.
final class LedgerWorld {
    let scheduler = Scheduler()
    let timeline: Timeline
    let store: AppStore
    let backend: Backend
    private var receipts: [String: ReceiptBox] = [:]
    private var queues: [String: PaymentQueue] = [:]

    init(
        policy: RestorePolicy? = nil, databasePath: String? = nil, storePath: String? = nil,
        keys: Keyring = .derived(seed: 1), edit: (inout DemoConfig) -> Void = { _ in }
    ) throws {
        var config = try TestSupport.demoConfig()
        edit(&config)
        config.backend.restorePolicy = policy
        let scheduler = scheduler
        timeline = Timeline(clock: { scheduler.now })
        store = try AppStore(
            store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
            random: SeededGenerator(seed: 1), latency: .none, databasePath: storePath, keys: keys)
        backend = try Backend(
            config: config, store: store, clock: { scheduler.now }, timeline: timeline, databasePath: databasePath,
            keys: keys)
        store.registerOfferKey(backend.offerKeyIdentifier) { [backend] in backend.offerVerifyingKey }
    }

    /// The payment queue of `device`, signed in with `appleId`.
    func queue(_ device: String, appleId: String = "a@icloud.test") -> PaymentQueue {
        if let queue = queues[device] { return queue }
        let box = ReceiptBox()
        receipts[device] = box
        let queue = store.paymentQueue(deviceId: device, appleId: appleId, receipt: box)
        queue.startObserving { _ in }
        queues[device] = queue
        return queue
    }

    /// Buys `product` on `device` and returns the receipt the device then holds.
    @discardableResult
    func buy(
        _ product: String = "com.dailynews.premium.monthly", on device: String, appleId: String = "a@icloud.test",
        appAccountToken: String = ""
    ) -> String {
        let queue = queue(device, appleId: appleId)
        queue.add(productIdentifier: product, appAccountToken: appAccountToken)
        scheduler.runUntilIdle()
        queue.answerSheet(confirm: true)
        scheduler.runUntilIdle()
        return receipts[device]?.receipt ?? ""
    }

    /// The receipt `device` gets from a refresh (a new phone on the same Apple ID).
    func refreshedReceipt(on device: String, appleId: String = "a@icloud.test") -> String {
        queue(device, appleId: appleId).refreshReceipt { _ in }
        scheduler.runUntilIdle()
        return receipts[device]?.receipt ?? ""
    }

    /// A client on `device`, over `transport` (the backend at once unless given), timed by the world's scheduler.
    func client(
        on device: String, credentials: BackendCredentials = .none, over transport: BackendTransport? = nil
    ) -> BackendClient {
        let client = BackendClient(
            transport: transport ?? ImmediateTransport(backend: backend), deviceId: device,
            timer: { [scheduler] delay, action in
                let event = scheduler.schedule(after: delay, action)
                return { scheduler.cancel(event) }
            })
        client.credentials = { credentials }
        return client
    }

    /// A client that keeps the session each refresh gives it, as the app does: its next refresh trades the new token.
    func signedInClient(on device: String, _ session: SessionAnswer) -> BackendClient {
        var current = BackendCredentials.account(token: session.access.token ?? "", refreshToken: session.refreshToken)
        let client = client(on: device)
        client.credentials = { current }
        client.onSessionRefreshed = { access, refreshToken, _ in
            current = .account(token: access.token ?? "", refreshToken: refreshToken)
        }
        return client
    }

    /// Runs a client call to its answer.
    func await<T>(_ call: (@escaping (T) -> Void) -> Void) -> T? {
        var answer: T?
        call { answer = $0 }
        scheduler.runUntilIdle()
        return answer
    }

    func owner(of originalTransactionId: String) -> String? {
        (try? backend.ledger.purchase(originalTransactionId))?.ownerId ?? nil
    }

    var auditCount: Int { (try? backend.ledger.auditTrail().count) ?? -1 }
}

/// Hands each request to the backend at once.
final class ImmediateTransport: BackendTransport {
    let backend: Backend
    init(backend: Backend) { self.backend = backend }
    func send(_ request: HTTPRequest, completion: @escaping (HTTPResponse) -> Void) {
        completion(backend.handle(request))
    }
}

extension Result {
    var value: Success? { try? get() }
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
