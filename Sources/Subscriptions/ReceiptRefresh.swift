/// Gets the app receipt, refreshing it when missing. One refresh at a time: everyone who asks
/// while it runs waits for that same answer.
final class ReceiptRefresh {
    private let store: StoreAdapter
    private var waiting: [(String?) -> Void] = []
    private let log: (String) -> Void

    init(store: StoreAdapter, log: @escaping (String) -> Void) {
        self.store = store
        self.log = log
    }

    /// The receipt, or nil when even a refresh could not get one.
    func receipt(_ completion: @escaping (String?) -> Void) {
        if let receipt = store.appReceipt { return completion(receipt) }
        waiting.append(completion)
        guard waiting.count == 1 else {
            log("receipt missing: waiting for the refresh already running")
            return
        }
        log("receipt missing: asking the App Store for a fresh one")
        store.refreshReceipt { [self] receipt in
            let callers = waiting
            waiting = []
            for caller in callers { caller(receipt) }
        }
    }
}
