import SimKernel

extension PaymentQueue {
    /// `restoreCompletedTransactions()`: the observer sees `restored` for each non-consumable and each
    /// subscription the Apple ID ever bought (its latest transaction), the receipt is written again, then
    /// `completion` runs with nil, or with the error when the restore failed. An Apple ID that bought
    /// nothing restores nothing and still succeeds, as StoreKit does.
    public func restoreCompletedTransactions(completion: @escaping (StoreError?) -> Void) {
        store.log("restore completed transactions")
        let fault = store.fault(for: .receiptRefresh)
        let wait = store.delay(.receiptRefresh) + (fault == .timeout ? StoreFault.timeoutDelay : .zero)
        store.scheduler.schedule(after: wait) { [self] in
            switch fault {
            case .error(let code):
                store.log("restore failed: \(code.rawValue)")
                return completion(code)
            case .timeout:
                store.log("restore failed: timeout")
                return completion(.cloudServiceNetworkConnectionFailed)
            case .cancelled:
                store.log("restore cancelled: the reader cancelled Apple's sign-in")
                return completion(.paymentCancelled)
            default:
                break
            }
            var latest: [String: TransactionRecord] = [:]
            var order: [String] = []
            // Records or a receipt the store cannot read fail the restore: "nothing to restore" would be false.
            guard
                let records = store.logged(
                    "read the transactions to restore", { try store.ledger.transactions(appleId: appleId) }),
                let issued = store.issueReceipt(deviceId: deviceId, appleId: appleId)
            else {
                store.log("restore failed: \(StoreError.unknown.rawValue)")
                return completion(.unknown)
            }
            for record in records
            where store.catalog.spec(for: record.productIdentifier)?.type != .consumable {
                if latest[record.originalTransactionIdentifier] == nil {
                    order.append(record.originalTransactionIdentifier)
                }
                latest[record.originalTransactionIdentifier] = record
            }
            receipt.save(issued)
            for original in order {
                guard let record = latest[original] else { continue }
                paymentCount += 1
                deliver(purchased(paymentCount, record, state: .restored), after: .zero)
            }
            store.scheduler.schedule(after: .zero) { [store] in
                store.log("restore finished: \(order.count) transaction\(order.count == 1 ? "" : "s")")
                completion(nil)
            }
        }
    }
}
