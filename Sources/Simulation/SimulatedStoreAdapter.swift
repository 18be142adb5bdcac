import StoreSim
import Subscriptions

/// The app's `StoreAdapter` over the fake App Store's payment queue: the one place where
/// StoreKit-shaped values become the app's normalized ones.
final class SimulatedStoreAdapter: StoreAdapter {
    private let queue: PaymentQueue

    init(queue: PaymentQueue) {
        self.queue = queue
    }

    var canMakePayments: Bool { queue.canMakePayments }
    var appReceipt: String? { queue.appReceipt }

    func startObserving(_ observer: @escaping (StoreTransaction) -> Void) {
        queue.startObserving { observer(Self.transaction($0)) }
    }

    func requestProducts(_ identifiers: [String], completion: @escaping ([StoreProduct], [String]) -> Void) {
        queue.requestProducts(identifiers) { response in
            completion(response.products.map(Self.product), response.invalidProductIdentifiers)
        }
    }

    func addPayment(productIdentifier: String, applicationUsername: String?) {
        queue.add(productIdentifier: productIdentifier, appAccountToken: applicationUsername ?? "")
    }

    func finish(_ transaction: StoreTransaction) {
        queue.finish(transaction.transactionIdentifier)
    }

    func showPriceConsentIfNeeded() {
        queue.showPriceConsent()
    }

    func refreshReceipt(completion: @escaping (String?) -> Void) {
        queue.refreshReceipt { [queue] succeeded in completion(succeeded ? queue.appReceipt : nil) }
    }

    func restoreCompletedTransactions(completion: @escaping (String?) -> Void) {
        queue.restoreCompletedTransactions { completion($0?.rawValue) }
    }

    static func product(_ product: Product) -> StoreProduct {
        let trial = product.introductoryOffer.flatMap { $0.paymentMode == .freeTrial ? $0.subscriptionPeriod : nil }
        return StoreProduct(
            productIdentifier: product.productIdentifier, localizedTitle: product.localizedTitle,
            localizedDescription: product.localizedDescription, localizedPrice: product.localizedPrice,
            subscriptionPeriod: product.subscriptionPeriod, freeTrialPeriod: trial)
    }

    static func transaction(_ transaction: PaymentTransaction) -> StoreTransaction {
        let state: StoreTransaction.State
        switch transaction.state {
        case .purchasing: state = .purchasing
        case .deferred: state = .deferred
        case .purchased: state = .purchased
        case .restored: state = .restored
        case .failed:
            state =
                transaction.error == .paymentCancelled
                ? .cancelled : .failed(reason: transaction.error?.rawValue ?? "unknown")
        }
        return StoreTransaction(
            paymentNumber: transaction.paymentNumber, transactionIdentifier: transaction.transactionIdentifier,
            productIdentifier: transaction.productIdentifier, state: state)
    }
}
