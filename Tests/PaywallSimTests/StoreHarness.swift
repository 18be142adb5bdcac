import Foundation
import Signing
import SimKernel
import StoreSim
import Testing
import WhiteLabel

/// One Apple ID on one phone in front of a fake App Store, recording what a user (and the backend)
/// would notice: the observer's transactions, the sheet, and the server notifications in order.
final class StoreHarness {
    let scheduler = Scheduler()
    let timeline: Timeline
    let store: AppStore
    let receipt = ReceiptBox()
    let queue: PaymentQueue
    let appleId: String
    private(set) var transactions: [PaymentTransaction] = []
    private(set) var notifications: [NotificationPayload] = []
    private(set) var sheets: [PaymentSheet] = []

    static let monthly = "com.dailynews.premium.monthly"
    static let yearly = "com.dailynews.premium.yearly"

    init(
        store part: StorePart? = nil, seed: UInt64 = 1, latency: LatencyProfile = .none,
        appleId: String = "a@icloud.test"
    ) throws {
        let config = try TestSupport.demoConfig()
        let scheduler = scheduler
        timeline = Timeline(clock: { scheduler.now })
        store = try AppStore(
            store: part ?? config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
            random: SeededGenerator(seed: seed), latency: latency, databasePath: nil)
        self.appleId = appleId
        queue = store.paymentQueue(deviceId: "phone-1", appleId: appleId, receipt: receipt)
        queue.startObserving { [unowned self] in transactions.append($0) }
        queue.onSheetChange = { [unowned self] in if let sheet = $0 { sheets.append(sheet) } }
        let key = store.verifyingKey
        store.notificationEndpoint = { [unowned self] signed in
            if let payload = NotificationCodec.open(NotificationPayload.self, from: signed, with: key) {
                notifications.append(payload)
            }
            return HTTPResponse(status: 200)
        }
    }

    var states: [TransactionState] { transactions.map(\.state) }
    var charges: Int { store.charges(appleId: appleId) }

    /// `SUBSCRIBED/INITIAL_BUY`, `DID_RENEW`: what the backend was told, in order.
    var notificationNames: [String] {
        notifications.map { $0.notificationType.rawValue + ($0.subtype.map { "/\($0.rawValue)" } ?? "") }
    }

    /// The reader taps the product, then answers Apple's sheet.
    func buy(_ productIdentifier: String = monthly, confirm: Bool = true) {
        queue.add(productIdentifier: productIdentifier)
        scheduler.runUntilIdle()
        queue.answerSheet(confirm: confirm)
        scheduler.runUntilIdle()
    }

    /// The original transaction id of the last purchased transaction.
    var original: String? { transactions.last { $0.state == .purchased }?.originalTransactionIdentifier }

    func advance(days: Int64) {
        scheduler.advance(by: .days(days))
        scheduler.runUntilIdle()
    }

    func transactionInfo(_ notification: NotificationPayload) -> TransactionInfo? {
        notification.data.signedTransactionInfo.flatMap {
            NotificationCodec.open(TransactionInfo.self, from: $0, with: store.verifyingKey)
        }
    }

    func renewalInfo(_ notification: NotificationPayload) -> RenewalInfo? {
        notification.data.signedRenewalInfo.flatMap {
            NotificationCodec.open(RenewalInfo.self, from: $0, with: store.verifyingKey)
        }
    }

    /// The store's verifyReceipt answer for the device's receipt, as the backend gets it.
    func verifiedTransactions() -> [TransactionRecord] {
        guard let receipt = receipt.receipt,
            case .valid(_, let transactions, _) = store.verifyReceipt(receipt, expecting: .sandbox)
        else { return [] }
        return transactions
    }

    /// A catalog with levels: Gold (level 1) above Silver (level 2), both monthly, plus Silver yearly.
    static func leveledStore() throws -> StorePart {
        func product(_ id: String, _ level: Int, _ period: String, _ price: String) -> String {
            """
            {"productId": "\(id)", "type": "auto-renewable", "subscriptionGroup": "news", "groupLevel": \(level),
             "subscriptionPeriod": "\(period)", "prices": {"USA": "\(price)"},
             "localizations": {"en_US": {"title": "\(id)", "description": "\(id)"}}}
            """
        }
        let products = [
            product("gold.monthly", 1, "P1M", "9.99"), product("silver.monthly", 2, "P1M", "4.99"),
            product("silver.yearly", 2, "P1Y", "49.99"),
        ]
        let json = #"{"storefront": "USA", "locale": "en_US", "products": ["# + products.joined(separator: ",") + "]}"
        return try JSONDecoder().decode(StorePart.self, from: Data(json.utf8))
    }
}
