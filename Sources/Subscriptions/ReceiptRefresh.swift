/// Gets the app receipt, refreshing it when missing. One refresh at a time: everyone who asks
/// while it runs waits for that same answer, a cancellation by the reader too.
final class ReceiptRefresh {
    private let store: StoreAdapter
    private var waiting: [(ReceiptAnswer) -> Void] = []
    private let log: (String) -> Void
    /// False only under the `refresh-per-caller` defect: each caller sends its own request.
    var joinsWaiters = true
    /// False only under the `refresh-cancel-told-as-error` defect: a refresh the reader cancelled is answered as one
    /// that failed, and the act that needed it tells an error.
    var tellsCancelApart = true
    /// Receipts Apple sent since launch: a check made with an older receipt may predate a purchase.
    private(set) var refreshes = 0

    init(store: StoreAdapter, log: @escaping (String) -> Void) {
        self.store = store
        self.log = log
    }

    /// The receipt, or none when even a refresh could not get one, or the reader cancelled the refresh's sign-in.
    func receipt(_ completion: @escaping (ReceiptAnswer) -> Void) {
        if let receipt = store.appReceipt { return completion(.receipt(receipt)) }
        refreshed(because: "receipt missing", completion)
    }

    /// A receipt asked of Apple now, even if the phone has one: the one it has may predate a purchase
    /// (approved by a parent, or made on another phone of the Apple ID).
    func fresh(_ completion: @escaping (ReceiptAnswer) -> Void) {
        refreshed(because: "receipt may be out of date", completion)
    }

    private func refreshed(because why: String, _ completion: @escaping (ReceiptAnswer) -> Void) {
        guard joinsWaiters else {
            log("\(why): asking the App Store for a fresh one")
            return store.refreshReceipt { [self] answer in
                completion(heard(answer))
            }
        }
        waiting.append(completion)
        guard waiting.count == 1 else {
            log("\(why): waiting for the refresh already running")
            return
        }
        log("\(why): asking the App Store for a fresh one")
        store.refreshReceipt { [self] answer in
            let answer = heard(answer)
            let callers = waiting
            waiting = []
            for caller in callers { caller(answer) }
        }
    }

    /// The refresh's answer as the callers hear it, counted when it brought a receipt.
    private func heard(_ answer: ReceiptAnswer) -> ReceiptAnswer {
        if answer.receipt != nil { refreshes += 1 }
        guard answer == .cancelled, tellsCancelApart else { return answer == .cancelled ? .none : answer }
        log("the reader cancelled Apple's sign-in for a receipt: whatever needed it ends as cancelled, with no error")
        return answer
    }

    /// The app quit: the App Store's answer reaches no one now, so the callers waiting for it are let go. They hold the
    /// flows that hold this refresh, a cycle the answer used to break (session 28: a run's memory grew a phone's worth
    /// with each app quit mid-refresh).
    func abandon() { waiting = [] }
}
