import SimKernel

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
        // An outcome waiting for a sign-in is the payment's kept one (`keepUntold`): told once the sign-in lands.
        guard storage.unansweredReceipts > 0, receiptSendsInFlight == 0, afterSignIn.isEmpty,
            defect != .forgetUnansweredReceipt
        else { return }
        storage.unansweredReceipts = 1  // the last run's answers are lost; only this send's is awaited
        receiptSendsInFlight += 1
        receipts.receipt { [self] answer in
            // The payments it answers for: those this launch sends for later are answered by their own sends.
            let waiting = storage.unansweredPayments
            // A refresh the reader cancelled keeps the payments as one that failed: they were charged.
            guard let receipt = answer.receipt else {
                // A receipt missing, its refresh failed, passes as a failed send does: kept to send when the app is
                // next active, each payment told once. Forgetting it left a code redeemed as the app restarted, which
                // the server then granted, locked with nothing said (long fuzz seed 1430).
                receiptSendsInFlight -= 1
                log("a receipt sent before the app quit was never answered, and none is on the phone now: kept")
                // Nothing to ask the server with: what a restore here would do is unheard (found-by-hand/548).
                return tell(
                    waiting.filter { !$0.toldUnconfirmed }.map { ($0, $0.unconfirmed.toldUnchecked(defect)) },
                    keeping: true)
            }
            log("a receipt sent before the app quit was never answered: sending it again")
            let askedAs = anonymousId
            sendRefreshingIfInvalid(receipt, backend.validateReceipt) { [self] receipt, result in
                receiptSendsInFlight -= 1
                switch result {
                case .success(let answer):
                    receiptAnswered(result)
                    save(answer, askedAs: askedAs)
                    tellAsked(waiting.map { ($0, resentOutcome(answer, $0)) }, receipt)
                    tellPhonesGuestHeld(waiting, answer, receipt)
                case .failure(.refused(let status, let code)):
                    receiptAnswered(result)
                    log("the receipt sent again was refused (\(status) \(code)): Restore purchase brings it back")
                    tellAsked(waiting.filter { !$0.toldUnconfirmed }.map { ($0, $0.unconfirmed) }, receipt)
                case .failure(let failure):
                    log(
                        "the receipt sent again could not be checked (\(failure)): "
                            + "kept to send when the app is next active")
                    // Told once, as a failed check after paying is told (session 27: charged, locked and never told).
                    tellAsked(
                        waiting.filter { !$0.toldUnconfirmed }.map { ($0, $0.unconfirmed) }, receipt, keeping: true)
                }
            }
        }
    }

    /// Tells each payment how it ended, where an outcome that advises Restore purchase ("use Restore purchase to get it
    /// back", "Restore purchase can move it to you") is told only where a restore here would bring it: the server is
    /// asked first, as `validatePayment` asks it, and a refusal is told instead (a signed-out phone told to restore its
    /// account's payment, which Restore then refused: fuzz seed 3030, session 30; a fresh charge someone else holds,
    /// answered to the receipt sent again after a restart, told "Restore purchase can move it to you" past the move
    /// limit: long fuzz seed 1451, session 232). Counted as a send in flight meanwhile, so the app becoming active does
    /// not send and tell it again. The outcomes are read when the answer came, for who was signed in then.
    private func tellAsked(
        _ told: [(payment: UnansweredPayment, outcome: PurchaseOutcome?)], _ receipt: String, keeping: Bool = false
    ) {
        guard told.contains(where: { $0.outcome?.advisesRestore == true }) else { return tell(told, keeping: keeping) }
        let asked = storedAccess().identity
        receiptSendsInFlight += 1
        backend.inspectRestore(receipt) { [self] result in
            receiptSendsInFlight -= 1
            var inspected: [RestorablePurchase]?
            if case .success(let purchases) = result, storedAccess().identity == asked { inspected = purchases }
            let answered = told.map { payment, outcome in
                // Unheard, or heard of an identity no longer on screen: someone else's subscription is told as not
                // checked, not with a guessed "Restore purchase can move it" (session 37).
                guard let inspected else { return (payment, outcome?.toldUnchecked(defect)) }
                guard let outcome, outcome.advisesRestore, let why = restoreRefusal(for: payment.productId, inspected)
                else { return (payment, outcome) }
                log("a restore here would be refused (\(why.rawValue)): the reader is told so")
                return (payment, PurchaseOutcome.heldElsewhere(why, charged: payment.freshCharge))
            }
            tell(answered, keeping: keeping)
        }
    }

    /// Tells the reader how each payment a receipt sent again answered for ended, as a purchase nobody on screen
    /// waited for is told; kept (`keeping`), each is marked told, or it is forgotten.
    private func tell(_ told: [(payment: UnansweredPayment, outcome: PurchaseOutcome?)], keeping: Bool = false) {
        let ids = Set(told.map(\.payment.transactionId))
        storage.unansweredPayments = storage.unansweredPayments.compactMap { kept in
            guard ids.contains(kept.transactionId) else { return kept }
            guard keeping else { return nil }
            var marked = kept
            marked.toldUnconfirmed = true
            return marked
        }
        for (payment, outcome) in told {
            guard let outcome else { continue }
            onPurchaseCarriedOn(outcome, payment.transaction, payment.freshCharge)
        }
    }

    /// What the server's answer to a receipt sent again says of a payment it was sent for, as `validatePayment` reads it.
    private func resentOutcome(_ answer: AccessAnswer, _ payment: UnansweredPayment) -> PurchaseOutcome? {
        if let original = payment.originalTransactionId, answer.ownedElsewhere.contains(original) {
            // Signed in, the phone's own guest is asked (`tellPhonesGuestHeld`). Otherwise a fresh charge went to
            // someone else's subscription, as `validatePayment` tells it (signed in on a phone without a guest, it was
            // told nothing: fuzz seed 4102); an older one is the account's question (Restore purchase asks it).
            if storage.accountSession != nil, storage.anonymousIdentity != nil { return nil }
            return payment.freshCharge ? .chargedForAnotherOwner : nil
        }
        guard !answer.levels.isEmpty, Self.grants(answer, payment.transaction) else { return .subscriptionNotActive }
        // Told "could not be confirmed": it is, now. A fresh charge is told so as a charge ("Purchase complete"); an
        // earlier one would come in silence (session 32).
        return payment.toldUnconfirmed && !payment.freshCharge ? .confirmedAfterAll : .purchased
    }

    /// A signed-in reader's payment the server says someone else holds may be the phone's own, made without an
    /// account: the phone's guest is asked, as `validatePayment` asks it, and the reader hears how it ended (a
    /// resubscription of the guest's plan, its first answer lost to a restart, was charged in silence: fuzz seed
    /// 4102).
    /// A fresh charge the guest does not hold is told as `validatePayment` tells it, the restore inspect asked first.
    private func tellPhonesGuestHeld(_ payments: [UnansweredPayment], _ answer: AccessAnswer, _ receipt: String) {
        guard storage.accountSession != nil, let guest = storage.anonymousIdentity else { return }
        for payment in payments {
            guard let original = payment.originalTransactionId, answer.ownedElsewhere.contains(original) else {
                continue
            }
            askPhonesGuest(guest, about: original, payment.productId, freshCharge: payment.freshCharge) {
                [self] outcome in
                let carriedOn = { [self] (told: PurchaseOutcome) in
                    onPurchaseCarriedOn(told, payment.transaction, payment.freshCharge)
                }
                let charged = outcome == .chargedForAnotherOwner
                guard charged || outcome == .ownedByAnotherAccount(canMove: true) else { return carriedOn(outcome) }
                tellIfRestoreRefused(
                    receipt, payment.productId, charged: charged, told: outcome, askAgain: ({ false }, {}), carriedOn)
            }
        }
    }

    /// A receipt's answer came: one receipt fewer to send again, unless the app gave up waiting (the server may
    /// have it and have acted on it, as a lost answer: the next launch sends it again).
    /// `transaction`: the payment it was sent for; given up on, the reader was told it is not confirmed.
    func receiptAnswered(_ result: Result<AccessAnswer, BackendFailure>, for transaction: StoreTransaction? = nil) {
        let id = transaction?.transactionIdentifier
        if case .failure(.timedOut) = result {
            guard transaction != nil else { return }
            storage.unansweredPayments = storage.unansweredPayments.map { kept in
                var told = kept
                if kept.transactionId == id { told.toldUnconfirmed = true }
                return told
            }
            return
        }
        checkEnded(for: transaction)
    }

    /// A payment whose answer came but whose outcome waits to be told (a log-in on its way decides it): kept as a
    /// payment never answered, until told, so an app killed meanwhile has the next launch send the receipt again and
    /// tell how it ended. Kept only in the app, the outcome was lost with it (found-by-hand/528).
    func keepUntold(_ transaction: StoreTransaction, freshCharge: Bool) {
        storage.unansweredReceipts += 1
        storage.unansweredPayments.append(UnansweredPayment(transaction, freshCharge: freshCharge))
    }

    /// A check ended with the reader told how (answered, or no receipt to send): nothing to send again for it.
    /// Of two checks of one transaction (a redeemed code's given up on, then Apple delivering the same transaction to a
    /// parent's approval), the one ending is the one still waiting, not the one given up on and told not confirmed:
    /// that one is sent again to tell it confirmed, and the waiting one left behind was told "could not be confirmed"
    /// when the app next became active, of a payment whose check had granted it (found-by-hand/549, long fuzz seed 2441).
    func checkEnded(for transaction: StoreTransaction?) {
        storage.unansweredReceipts = max(0, storage.unansweredReceipts - 1)
        guard let transaction else { return }
        let id = transaction.transactionIdentifier
        let kept = storage.unansweredPayments
        let waiting = kept.lastIndex { $0.transactionId == id && !$0.toldUnconfirmed }
        if let index = waiting ?? kept.firstIndex(where: { $0.transactionId == id }) {
            storage.unansweredPayments.remove(at: index)
        }
    }
}

/// A payment whose check began (its receipt fetched or sent) with no answer heard yet (the app was killed or
/// restarted meanwhile, or gave up waiting): the receipt sent again answers for it, and the reader hears how it
/// ended, as of a purchase nobody on screen waited for. A restart lost that word: an approval unlocked in silence, and
/// a send again that met a 500 left a paid purchase locked with nothing said (session 27).
public struct UnansweredPayment: Codable, Equatable, Sendable {
    public var productId: String
    public var transactionId: String?
    public var originalTransactionId: String?
    /// When Apple charged, its milliseconds.
    public var chargedAt: Int64?
    /// Apple charged anew for the plan asked: the reader may be told a payment went through.
    public var freshCharge: Bool
    /// The reader was told it is not confirmed (the app gave up waiting, or a send again failed): not told again.
    public var toldUnconfirmed = false
    /// Apple renewed (StoreKit 2's `Transaction.reason`), and of a family share: told after a restart as it would have
    /// been before, never "Purchase complete" of a renewal (fuzz seed 4927). Nil in what an older build kept.
    public var isRenewal: Bool?
    public var isFamilyShared: Bool?
    /// A free trial's start, and a subscription paid before (`StoreTransaction`): told after a restart in the words it
    /// would have been told in before. Nil in what an older build kept.
    public var isTrialPeriod: Bool?
    public var isPaidBefore: Bool?

    public init(_ transaction: StoreTransaction, freshCharge: Bool) {
        productId = transaction.productIdentifier
        transactionId = transaction.transactionIdentifier
        originalTransactionId = transaction.originalTransactionIdentifier
        chargedAt = transaction.transactionDate?.milliseconds
        self.freshCharge = freshCharge
        isRenewal = transaction.isRenewal ? true : nil
        isFamilyShared = transaction.isFamilyShared ? true : nil
        isTrialPeriod = transaction.isTrialPeriod ? true : nil
        isPaidBefore = transaction.isPaidBefore ? true : nil
    }

    var transaction: StoreTransaction {
        StoreTransaction(
            paymentNumber: 0, transactionIdentifier: transactionId, productIdentifier: productId, state: .purchased,
            originalTransactionIdentifier: originalTransactionId,
            transactionDate: chargedAt.map(SimInstant.init(milliseconds:)), isRenewal: isRenewal == true,
            isFamilyShared: isFamilyShared == true, isTrialPeriod: isTrialPeriod == true,
            isPaidBefore: isPaidBefore == true)
    }

    /// A failed check, told as `validatePayment` tells one: a new transaction that cost nothing, a free trial's
    /// start, is told as the trial's, never as a payment that went through (session 44's walk, hand-01c).
    var unconfirmed: PurchaseOutcome {
        guard freshCharge else {
            return .notConfirmed(message: "Your purchase could not be confirmed. Use Restore purchase to get it back.")
        }
        return isTrialPeriod == true ? .trialNotConfirmed : .paymentNotConfirmed
    }

    /// A payment made signed in, unconfirmed, whose account was signed out meanwhile: it follows the account that paid.
    var signedOutMeanwhile: PurchaseOutcome {
        isTrialPeriod == true ? .trialNotConfirmedSignedOut : .paymentNotConfirmedSignedOut
    }
}
