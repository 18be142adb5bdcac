import Database
import Foundation
import Signing
import SimKernel
import WhiteLabel

/// Why the fake App Store could not be set up.
public struct StoreSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The fake App Store of one app: its catalog, its records of every charge, the key that signs
/// receipts, one payment queue per device, and the server API the backend asks for the truth.
public final class AppStore {
    public let bundleId: String
    public let environment: StoreEnvironment = .sandbox
    public let catalog: Catalog
    public var storefront: Storefront
    public var locale: String
    public var latency: LatencyProfile
    public let verifyingKey: VerifyingKey
    /// Where the App Store posts `signedPayload`s of server notifications (the backend's URL in App Store Connect).
    public var notificationEndpoint: ((String) -> Void)?

    let scheduler: Scheduler
    let timeline: Timeline
    var random: SeededGenerator
    let ledger: StoreLedger
    private let signingKey: SigningKey

    public init(
        store: StorePart, bundleId: String, scheduler: Scheduler, timeline: Timeline, random: SeededGenerator,
        latency: LatencyProfile, databasePath: String?
    ) throws(StoreSetupError) {
        guard let storefront = Storefront.named(store.storefront) else {
            throw StoreSetupError(description: "unknown storefront \"\(store.storefront)\"")
        }
        do {
            ledger = try StoreLedger(path: databasePath)
        } catch {
            throw StoreSetupError(description: "cannot open the App Store's records: \(error)")
        }
        // The store's key is its root of trust: the same for every run, so receipts kept on disk stay valid.
        guard let key = SigningKey(seed: Digest.sha256(Array("paywall-sim app store receipt key".utf8))) else {
            throw StoreSetupError(description: "libcrypto has no Ed25519")
        }
        self.bundleId = bundleId
        self.catalog = Catalog(specs: store.products)
        self.storefront = storefront
        self.locale = store.locale
        self.scheduler = scheduler
        self.timeline = timeline
        self.random = random
        self.latency = latency
        self.signingKey = key
        self.verifyingKey = key.publicKey
    }

    /// The payment queue of one device signed in with `appleId`; `receipt` is where the device keeps its receipt.
    public func paymentQueue(deviceId: String, appleId: String, receipt: ReceiptSlot) -> PaymentQueue {
        PaymentQueue(store: self, deviceId: deviceId, appleId: appleId, receipt: receipt)
    }

    /// How many times the App Store charged `appleId`.
    public func charges(appleId: String) -> Int {
        (try? ledger.transactions(appleId: appleId).count) ?? 0
    }

    func delay(_ operation: SimKernel.Operation) -> SimDuration {
        latency.delay(for: operation, using: &random)
    }

    /// Signs `payload` and posts it to the notification endpoint after the notification latency.
    func post(_ payload: NotificationPayload) {
        let signed = NotificationCodec.seal(payload, with: signingKey)
        scheduler.schedule(after: delay(.notification)) { [self] in
            log("notification \(payload.notificationType.rawValue)\(payload.subtype.map { "/\($0.rawValue)" } ?? "")")
            notificationEndpoint?(signed)
        }
    }

    /// Signs a transaction or renewal info, as the JWS fields of notifications and the server API carry them.
    func sign<T: Encodable>(_ value: T) -> String {
        NotificationCodec.seal(value, with: signingKey)
    }

    func log(_ text: String) {
        timeline.log(.store, text)
    }

    /// Charges `appleId` for `product` and records the transaction.
    func charge(product: Product, appleId: String, deviceId: String) throws(DatabaseError) -> TransactionRecord {
        let number = try ledger.nextTransactionNumber()
        let identifier = String(2_000_000_000_000_000 + number)
        let now = scheduler.now
        var expires: SimInstant?
        if let period = product.subscriptionPeriod {
            let firstPeriod = product.introductoryOffer.map(\.subscriptionPeriod) ?? period
            expires = firstPeriod.added(to: now)
        }
        let record = TransactionRecord(
            transactionIdentifier: identifier, originalTransactionIdentifier: identifier,
            productIdentifier: product.productIdentifier, appleId: appleId, deviceId: deviceId, purchaseDate: now,
            expiresDate: expires, finished: false)
        try ledger.insert(record)
        return record
    }

    /// A freshly signed receipt for `deviceId`, listing every purchase of `appleId` in this app.
    func issueReceipt(deviceId: String, appleId: String) -> String {
        let purchases = ((try? ledger.transactions(appleId: appleId)) ?? []).map {
            ReceiptPayload.InAppPurchase(
                transactionId: $0.transactionIdentifier, originalTransactionId: $0.originalTransactionIdentifier,
                productId: $0.productIdentifier, purchaseDate: $0.purchaseDate.milliseconds,
                expiresDate: $0.expiresDate?.milliseconds)
        }
        let payload = ReceiptPayload(
            bundleId: bundleId, environment: environment, deviceId: deviceId,
            creationDate: scheduler.now.milliseconds, inApp: purchases)
        return ReceiptCodec.seal(payload, with: signingKey)
    }

    // MARK: - Server API (what the backend asks, as Apple's verifyReceipt answers)

    /// Verifies a receipt and answers with the store's own records of its purchases, never the device's word.
    public func verifyReceipt(_ receipt: String, expecting environment: StoreEnvironment) -> ReceiptVerification {
        guard let payload = ReceiptCodec.open(receipt, with: verifyingKey) else {
            let looksLikeReceipt = receipt.split(separator: ".").count == 3
            return .invalid(status: looksLikeReceipt ? .notAuthenticated : .malformed)
        }
        if payload.environment != environment {
            return .invalid(
                status: payload.environment == .sandbox
                    ? .sandboxReceiptSentToProduction : .productionReceiptSentToSandbox)
        }
        let records = payload.inApp.compactMap { try? ledger.transaction($0.transactionId) }
        return .valid(payload, transactions: records)
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

    case valid(ReceiptPayload, transactions: [TransactionRecord])
    case invalid(status: Status)
}

/// Where a device keeps its app receipt (a file on the phone); the store writes it, the app reads it.
public protocol ReceiptSlot: AnyObject {
    func load() -> String?
    func save(_ receipt: String?)
}
