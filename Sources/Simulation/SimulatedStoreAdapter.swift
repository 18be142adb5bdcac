import Signing
import SimKernel
import StoreSim
import Subscriptions

/// The app's `StoreAdapter` over the fake App Store's payment queue: the one place where
/// StoreKit-shaped values become the app's normalized ones.
final class SimulatedStoreAdapter: StoreAdapter {
    private let queue: PaymentQueue
    /// The app quit: the App Store's answers still on their way reach no one. A refresh answered after a restart ran
    /// the quit launch's check, which forgot the payment the next launch was to tell (long fuzz seed 1215).
    private var quit = false

    init(queue: PaymentQueue) {
        self.queue = queue
    }

    func stopAnswering() { quit = true }

    var canMakePayments: Bool { queue.canMakePayments }
    var appReceipt: String? { queue.appReceipt }
    var holdsReceipt: Bool { queue.holdsReceipt }
    var productsAwaitingApproval: [String] { queue.productsAwaitingApproval }
    var familySharedEntitlements: [String] { queue.familySharedEntitlements }

    func observeRevokedEntitlements(_ handler: @escaping ([String]) -> Void) {
        queue.onEntitlementsRevoked = handler
    }

    func startObserving(_ observer: @escaping (StoreTransaction) -> Void) {
        queue.startObserving { observer(Self.transaction($0)) }
    }

    /// An introductory offer is offered only where this Apple ID may still take it, as a StoreKit 1 app
    /// decides from the receipt's intro-offer history: the paywall says what Apple's sheet will charge.
    func requestProducts(_ identifiers: [String], completion: @escaping ([StoreProduct], [String], String?) -> Void) {
        queue.requestProducts(identifiers) { [self, queue] response in
            guard !quit else { return }
            let products = response.products.map { product in
                Self.product(
                    product, eligible: queue.isEligibleForIntroductoryOffer(product),
                    lapsed: queue.isEligibleForWinBack(product))
            }
            completion(products, response.invalidProductIdentifiers, response.error?.rawValue)
        }
    }

    func currentProduct(_ productIdentifier: String) -> StoreProduct? {
        guard let product = queue.product(productIdentifier) else { return nil }
        return Self.product(
            product, eligible: queue.isEligibleForIntroductoryOffer(product),
            lapsed: queue.isEligibleForWinBack(product))
    }

    func addPayment(productIdentifier: String, applicationUsername: String?) {
        queue.add(productIdentifier: productIdentifier, appAccountToken: applicationUsername ?? "")
    }

    /// A signature that does not decode is passed on empty: the store refuses it, as StoreKit would.
    func addPayment(productIdentifier: String, offer: SignedOffer) {
        let discount = PaymentDiscount(
            identifier: offer.offerId, keyIdentifier: offer.keyIdentifier, nonce: offer.nonce,
            signature: Base64URL.decode(offer.signature) ?? [], timestamp: offer.timestamp)
        queue.add(productIdentifier: productIdentifier, discount: discount, appAccountToken: offer.appAccountToken)
    }

    func finish(_ transaction: StoreTransaction) {
        queue.finish(transaction.transactionIdentifier)
    }

    func showPriceConsentIfNeeded() {
        queue.showPriceConsent()
    }

    func refreshReceipt(completion: @escaping (ReceiptAnswer) -> Void) {
        queue.requestReceiptRefresh { [self, queue] end in
            guard !quit else { return }
            switch end {
            case .ended: completion(queue.appReceipt.map(ReceiptAnswer.receipt) ?? .none)
            case .failed: completion(.none)
            case .cancelled: completion(.cancelled)
            }
        }
    }

    func restoreCompletedTransactions(completion: @escaping (String?) -> Void) {
        queue.restoreCompletedTransactions { [self] error in
            guard !quit else { return }
            completion(error?.rawValue)
        }
    }

    /// `lapsed`: the store's win-back rule gives this Apple ID the product's promotional offer (StoreKit 2's
    /// `winBackOffers` are the eligible ones only), so a reader who is not eligible is never shown it.
    static func product(_ product: Product, eligible: Bool = true, lapsed: Bool = false) -> StoreProduct {
        let intro = eligible ? product.introductoryOffer : nil
        let trial = intro.flatMap { $0.paymentMode == .freeTrial ? $0.wholeLength : nil }
        var answer = StoreProduct(
            productIdentifier: product.productIdentifier, localizedTitle: product.localizedTitle,
            localizedDescription: product.localizedDescription, localizedPrice: product.localizedPrice,
            subscriptionPeriod: product.subscriptionPeriod, freeTrialPeriod: trial,
            subscriptionGroupIdentifier: product.subscriptionGroupIdentifier)
        let words = StoreWords(locale: product.priceLocale)
        func terms(_ offer: ProductDiscount) -> String {
            words.offerTerms(
                mode: offer.paymentMode, price: offer.localizedPrice, period: offer.subscriptionPeriod,
                count: offer.numberOfPeriods)
        }
        var introTerms: String?
        if let offer = intro, offer.paymentMode != .freeTrial {
            answer.paidIntroductoryOffer = PaidIntroductoryOffer(
                mode: offer.paymentMode == .payAsYouGo ? .payAsYouGo : .payUpFront,
                localizedPrice: offer.localizedPrice,
                period: offer.subscriptionPeriod, numberOfPeriods: offer.numberOfPeriods)
            introTerms = terms(offer)
        }
        if let period = product.subscriptionPeriod {
            answer.words = ProductWords(
                period: words.unit(period), perPeriod: words.perPeriod(period), trial: trial.map(words.length),
                freeTrial: trial.map(words.freeTrial), introTerms: introTerms,
                trialTerms: intro.flatMap { $0.paymentMode == .freeTrial ? terms($0) : nil })
        }
        // The owner's win-back offer, else the first promotional offer: what a lapsed reader is shown.
        if lapsed, let offer = product.discounts.first(where: \.isWinBack) ?? product.discounts.first,
            let id = offer.identifier
        {
            answer.winBackOffer = StoreOffer(id: id, terms: terms(offer))
        }
        return answer
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
            transactionDate: transaction.transactionDate, isRenewal: transaction.isRenewal,
            isFamilyShared: transaction.isFamilyShared, isTrialPeriod: transaction.isTrialPeriod,
            isPaidBefore: transaction.isPaidBefore)
    }
}
