extension SubscriptionCoordinator {
    /// A receipt the last run sent and never heard back about (the app was killed or restarted while the server
    /// checked it, or gave up waiting) is sent again at launch. Its transaction is finished already, so StoreKit
    /// delivers nothing again; and the launch's own `me` may reach the server before that slow first send did,
    /// leaving the phone without the levels the server then granted (seeds 6072, 6094), or without the identity
    /// the server made for it (found-by-hand/20). Checking a receipt twice is harmless.
    /// Sent again at launch, and when the app becomes active while one is still unanswered: a send that met a
    /// passing fault (a 500, an unreadable answer, a refused token) keeps the receipt for the next try, as nobody
    /// told the reader their payment is unconfirmed (seed 001: a paying user "should simply retain the access
    /// they purchased"). Only the server's verdict (a 4xx) ends it.
    func resendUnansweredReceipt() {
        guard storage.unansweredReceipts > 0, receiptSendsInFlight == 0, defect != .forgetUnansweredReceipt else {
            return
        }
        storage.unansweredReceipts = 1  // the last run's answers are lost; only this send's is awaited
        receiptSendsInFlight += 1
        receipts.receipt { [self] receipt in
            guard let receipt else {
                receiptSendsInFlight -= 1
                storage.unansweredReceipts = 0
                return log("a receipt sent before the app quit was never answered, and none is on the phone now")
            }
            log("a receipt sent before the app quit was never answered: sending it again")
            let askedAs = anonymousId
            backend.validateReceipt(receipt) { [self] result in
                receiptSendsInFlight -= 1
                switch result {
                case .success(let answer):
                    receiptAnswered(result)
                    save(answer, askedAs: askedAs)
                case .failure(.refused(let status, let code)):
                    receiptAnswered(result)
                    log("the receipt sent again was refused (\(status) \(code)): Restore purchase brings it back")
                case .failure(let failure):
                    log(
                        "the receipt sent again could not be checked (\(failure)): "
                            + "kept to send when the app is next active")
                }
            }
        }
    }

    /// A receipt's answer came: one receipt fewer to send again, unless the app gave up waiting (the server may
    /// have it and have acted on it, as a lost answer: the next launch sends it again).
    func receiptAnswered(_ result: Result<AccessAnswer, BackendFailure>) {
        if case .failure(.timedOut) = result { return }
        storage.unansweredReceipts = max(0, storage.unansweredReceipts - 1)
    }
}
