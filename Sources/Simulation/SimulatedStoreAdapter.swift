import SimKernel
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

    /// The trial is offered only where this Apple ID may still take it, as a StoreKit 1 app decides from
    /// the receipt's intro-offer history: the paywall and Apple's sheet must never disagree.
    func requestProducts(_ identifiers: [String], completion: @escaping ([StoreProduct], [String], String?) -> Void) {
        queue.requestProducts(identifiers) { [queue] response in
            let products = response.products.map {
                Self.product($0, trialEligible: queue.isEligibleForIntroductoryOffer($0))
            }
            completion(products, response.invalidProductIdentifiers, response.error?.rawValue)
        }
    }

    func freeTrialPeriod(for productIdentifier: String) -> CalendarPeriod? {
        guard let product = queue.product(productIdentifier) else { return nil }
        return Self.product(product, trialEligible: queue.isEligibleForIntroductoryOffer(product)).freeTrialPeriod
    }

    func addPayment(productIdentifier: String) {
        queue.add(productIdentifier: productIdentifier)
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

    static func product(_ product: Product, trialEligible: Bool = true) -> StoreProduct {
        let trial = product.introductoryOffer.flatMap {
            $0.paymentMode == .freeTrial && trialEligible ? $0.subscriptionPeriod : nil
        }
        return StoreProduct(
            productIdentifier: product.productIdentifier, localizedTitle: product.localizedTitle,
            localizedDescription: product.localizedDescription, localizedPrice: product.localizedPrice,
            subscriptionPeriod: product.subscriptionPeriod, freeTrialPeriod: trial,
            subscriptionGroupIdentifier: product.subscriptionGroupIdentifier)
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
            productIdentifier: transaction.productIdentifier, state: state,
            originalTransactionIdentifier: transaction.originalTransactionIdentifier,
            transactionDate: transaction.transactionDate)
    }
}
