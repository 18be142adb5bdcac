import SimKernel

/// One device's view of the App Store, as StoreKit 1 offers it: products requests, the payment
/// queue with its observer, Apple's payment sheet, the app receipt and its refresh.
public final class PaymentQueue {
    public let deviceId: String
    public let appleId: String
    /// False on a restricted device (Screen Time, parental controls).
    public var canMakePayments = true
    /// Apple's sheet appearing (a value) or going away (nil); the system, not the app, shows it.
    public var onSheetChange: ((PaymentSheet?) -> Void)?
    public private(set) var sheet: PaymentSheet?

    private unowned let store: AppStore
    private let receipt: ReceiptSlot
    private var observer: ((PaymentTransaction) -> Void)?
    private var sheetPayment: (number: Int, product: Product)?
    private var paymentCount = 0

    init(store: AppStore, deviceId: String, appleId: String, receipt: ReceiptSlot) {
        self.store = store
        self.deviceId = deviceId
        self.appleId = appleId
        self.receipt = receipt
    }

    /// Starts the transaction observer. Transactions the app did not finish are delivered again now,
    /// as StoreKit does at launch.
    public func startObserving(_ observer: @escaping (PaymentTransaction) -> Void) {
        self.observer = observer
        let unfinished = ((try? store.ledger.transactions(appleId: appleId)) ?? []).filter {
            !$0.finished && $0.deviceId == deviceId
        }
        for record in unfinished {
            paymentCount += 1
            let transaction = PaymentTransaction(
                paymentNumber: paymentCount, transactionIdentifier: record.transactionIdentifier,
                originalTransactionIdentifier: record.originalTransactionIdentifier,
                productIdentifier: record.productIdentifier, transactionDate: record.purchaseDate, state: .purchased,
                error: nil)
            store.log("redeliver unfinished transaction \(record.transactionIdentifier)")
            deliver(transaction, after: store.delay(.productsRequest))
        }
    }

    /// The app quit: it hears no more payment updates until it starts observing again.
    public func stopObserving() {
        observer = nil
        onSheetChange = nil
    }

    /// Asks for products; the answer comes after the products-request latency.
    public func requestProducts(_ identifiers: [String], completion: @escaping (ProductsResponse) -> Void) {
        store.log("products request: \(identifiers.joined(separator: ", "))")
        let response = store.catalog.products(for: identifiers, storefront: store.storefront, locale: store.locale)
        store.scheduler.schedule(after: store.delay(.productsRequest)) { [store] in
            let invalid = response.invalidProductIdentifiers
            store.log(
                "products response: \(response.products.count) valid"
                    + (invalid.isEmpty ? "" : ", invalid: \(invalid.joined(separator: ", "))"))
            completion(response)
        }
    }

    /// Adds a payment for `productIdentifier`: the observer sees `purchasing`, then Apple's sheet appears.
    public func add(productIdentifier: String) {
        paymentCount += 1
        let number = paymentCount
        store.log("payment added: \(productIdentifier)")
        guard canMakePayments else {
            deliver(failed(number, productIdentifier, .paymentNotAllowed), after: .zero)
            return
        }
        let response = store.catalog.products(
            for: [productIdentifier], storefront: store.storefront, locale: store.locale)
        guard let product = response.products.first else {
            deliver(failed(number, productIdentifier, .storeProductNotAvailable), after: store.delay(.paymentSheet))
            return
        }
        deliver(
            PaymentTransaction(
                paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
                productIdentifier: productIdentifier, transactionDate: store.scheduler.now, state: .purchasing,
                error: nil), after: .zero)
        store.scheduler.schedule(after: store.delay(.paymentSheet)) { [self] in
            sheetPayment = (number, product)
            let shown = PaymentSheet(
                appleId: appleId, productTitle: product.localizedTitle, localizedPrice: product.localizedPrice,
                terms: Self.terms(product))
            sheet = shown
            store.log("payment sheet shown: \(product.localizedTitle) \(product.localizedPrice)")
            onSheetChange?(shown)
        }
    }

    /// The reader's answer on Apple's sheet: Subscribe charges, Cancel fails the payment as cancelled.
    public func answerSheet(confirm: Bool) {
        guard let (number, product) = sheetPayment else { return }
        sheetPayment = nil
        sheet = nil
        onSheetChange?(nil)
        guard confirm else {
            store.log("payment sheet: cancelled by the reader")
            deliver(failed(number, product.productIdentifier, .paymentCancelled), after: .zero)
            return
        }
        store.log("payment sheet: confirmed")
        store.scheduler.schedule(after: store.delay(.payment)) { [self] in
            do {
                let record = try store.charge(product: product, appleId: appleId, deviceId: deviceId)
                receipt.save(store.issueReceipt(deviceId: deviceId, appleId: appleId))
                store.log(
                    "charged \(appleId) for \(product.productIdentifier): transaction \(record.transactionIdentifier)")
                deliver(
                    PaymentTransaction(
                        paymentNumber: number, transactionIdentifier: record.transactionIdentifier,
                        originalTransactionIdentifier: record.originalTransactionIdentifier,
                        productIdentifier: record.productIdentifier, transactionDate: record.purchaseDate,
                        state: .purchased, error: nil), after: .zero)
            } catch {
                store.log("payment failed: \(error)")
                deliver(failed(number, product.productIdentifier, .unknown), after: .zero)
            }
        }
    }

    /// Tells the store the app has handled the transaction; until then it is delivered again at each launch.
    public func finish(_ transactionIdentifier: String?) {
        guard let identifier = transactionIdentifier else { return }
        try? store.ledger.markFinished(identifier)
        store.log("transaction finished: \(identifier)")
    }

    /// The app receipt on the device, or nil when missing (fresh install, new device).
    public var appReceipt: String? { receipt.load() }

    /// Asks Apple for a fresh receipt (SKReceiptRefreshRequest).
    public func refreshReceipt(completion: @escaping (Bool) -> Void) {
        store.log("receipt refresh request")
        store.scheduler.schedule(after: store.delay(.receiptRefresh)) { [self] in
            receipt.save(store.issueReceipt(deviceId: deviceId, appleId: appleId))
            store.log("receipt refreshed")
            completion(true)
        }
    }

    private func deliver(_ transaction: PaymentTransaction, after delay: SimDuration) {
        store.scheduler.schedule(after: delay) { [self] in
            let id = transaction.transactionIdentifier.map { " \($0)" } ?? ""
            let reason = transaction.error.map { " (\($0.rawValue))" } ?? ""
            store.log("observer ← \(transaction.state.rawValue)\(id) \(transaction.productIdentifier)\(reason)")
            observer?(transaction)
        }
    }

    private func failed(_ number: Int, _ productIdentifier: String, _ error: StoreError) -> PaymentTransaction {
        PaymentTransaction(
            paymentNumber: number, transactionIdentifier: nil, originalTransactionIdentifier: nil,
            productIdentifier: productIdentifier, transactionDate: store.scheduler.now, state: .failed, error: error)
    }

    static func terms(_ product: Product) -> String {
        guard let period = product.subscriptionPeriod else { return "One-time purchase of \(product.localizedPrice)." }
        var terms = "\(product.localizedPrice) per \(period)."
        if let offer = product.introductoryOffer, offer.paymentMode == .freeTrial {
            terms = "Free for \(offer.subscriptionPeriod.lengthDescription), then " + terms
        }
        return terms + " Renews automatically until cancelled in Settings."
    }
}
