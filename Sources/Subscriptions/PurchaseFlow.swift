/// Purchases: the checks, restore-before-purchase for a signed-in reader, Apple's sheet, the
/// transaction observer, and the backend's word before anything unlocks.
extension SubscriptionCoordinator {
    /// Buys an offer. `completion` runs once, when the purchase is over (or refused).
    /// `parentalGatePassed`: a grown-up answered the gate; a kids app refuses the purchase without it.
    public func purchase(
        offerId: String, parentalGatePassed: Bool = false, progress: @escaping (PurchaseStage) -> Void,
        completion: @escaping (PurchaseOutcome) -> Void
    ) {
        guard activePurchase == nil || defect == .secondPayment else {
            log("purchase refused: another payment is in progress")
            return completion(.refused(.purchaseInProgress))
        }
        guard let offer = catalog.offer(offerId) else { return completion(.refused(.offerUnavailable)) }
        guard !requiresParentalGate || parentalGatePassed else {
            log("purchase refused: the parental gate was not passed")
            return completion(.refused(.parentalGateRequired))
        }
        guard store.canMakePayments else {
            log("purchase refused: this device cannot make payments")
            return completion(.refused(.paymentsNotAllowed))
        }
        activePurchase = ActivePurchase(productId: offer.productId, progress: progress, completion: completion)
        guard storage.accountSession != nil else { return pay(offer) }
        // Signed in: if this Apple ID already holds a subscription the account can take, move it instead of charging.
        progress(.checkingWithServer)
        receipts.receipt { [self] receipt in
            guard let receipt else { return pay(offer) }
            backend.inspectRestore(receipt) { [self] result in
                let takeable = (try? result.get())?.filter { $0.restorable && $0.active && $0.owner != "account" } ?? []
                guard !takeable.isEmpty else { return pay(offer) }
                log("this Apple ID already holds a subscription: moving it to the account instead of charging")
                backend.restore(receipt, confirmMoveFromAccount: false) { [self] restored in
                    guard case .success(let answer) = restored, !answer.restored.isEmpty else { return pay(offer) }
                    save(answer.access)
                    finishPurchase(.restoredInsteadOfCharging)
                }
            }
        }
    }

    private func pay(_ offer: Offer) {
        log("purchase \(offer.id): handing over to the App Store")
        activePurchase?.progress(.waitingForStore)
        // A signed-in reader's payment names them (StoreKit 1's `applicationUsername`): the purchase follows who paid.
        store.addPayment(
            productIdentifier: offer.productId, applicationUsername: storage.accountSession?.appAccountToken)
    }

    /// Every payment update, for the whole session: the observer starts at launch, not with the paywall.
    func observe(_ transaction: StoreTransaction) {
        switch transaction.state {
        case .purchasing:
            break
        case .deferred:
            log("payment waiting for a parent's approval")
            finishPurchase(.pending)
        case .purchased, .restored:
            if defect == .unlockOnPurchased {
                publish(
                    AccessSnapshot(identity: access.identity, levels: access.levels.union(contentLevels), isKnown: true)
                )
            }
            if finishPolicy == .beforeServerCheck { store.finish(transaction) }
            validatePayment(transaction)
        case .cancelled:
            store.finish(transaction)
            log("payment cancelled by the reader: no error shown")
            finishPurchase(.cancelled)
        case .failed(let reason):
            store.finish(transaction)
            log("payment failed: \(reason)")
            finishPurchase(.failed(message: "The App Store could not complete the payment. You were not charged."))
        }
    }

    /// After Apple charged: receipt → backend → identity and levels; only then is the purchase done.
    private func validatePayment(_ transaction: StoreTransaction) {
        activePurchase?.progress(.checkingWithServer)
        receipts.receipt { [self] receipt in
            guard let receipt else {
                return finishPurchase(
                    .serverCheckFailed(
                        message: "Your purchase could not be checked. Use Restore purchase to get it back."))
            }
            log("sending the receipt to the server")
            backend.validateReceipt(receipt) { [self] result in
                switch result {
                case .success(let answer):
                    if finishPolicy == .afterServerCheck { store.finish(transaction) }
                    save(answer)
                    finishPurchase(.purchased)
                case .failure(let failure):
                    log("server check failed: \(failure)")
                    finishPurchase(
                        .serverCheckFailed(
                            message:
                                "Your payment went through but could not be confirmed. Use Restore purchase to get it back."
                        ))
                }
            }
        }
    }

    func finishPurchase(_ outcome: PurchaseOutcome) {
        guard let purchase = activePurchase else { return }
        activePurchase = nil
        purchase.completion(outcome)
    }
}
