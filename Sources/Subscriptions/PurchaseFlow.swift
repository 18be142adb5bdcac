/// Purchases: the checks, restore-before-purchase for a signed-in reader, Apple's sheet, the
/// transaction observer, and the backend's word before anything unlocks.
extension SubscriptionCoordinator {
    /// Buys an offer. `completion` runs once, when the purchase is over (or refused).
    /// `parentalGatePassed`: a grown-up answered the gate; where one is required the purchase stops
    /// at `.refused(.parentalGateRequired)` without it, and the app shows the gate.
    public func purchase(
        offerId: String, parentalGatePassed: Bool = false, progress: @escaping (PurchaseStage) -> Void,
        completion: @escaping (PurchaseOutcome) -> Void
    ) {
        guard activePurchase == nil || defect == .secondPayment else {
            log("purchase refused: another payment is in progress")
            return completion(.refused(.purchaseInProgress))
        }
        guard paymentsRunning.isEmpty || defect == .secondPayment else {
            log("purchase refused: a payment handed to Apple before the app restarted is still going through")
            return completion(.refused(.earlierPaymentRunning))
        }
        // Seed 001's order: for a signed-in reader, what the receipt already holds first ("before starting another
        // payment"); then payments allowed, the product, and the parental gate, so a phone that cannot pay never
        // shows a child's gate only to refuse once a grown-up answered it. A signed-in reader on a phone that
        // cannot pay is still asked about: what the Apple ID pays for moves to the account with no payment at all,
        // and only a payment is refused (`mayHandOver`), with no gate before it.
        let checksFirst = storage.accountSession != nil && defect != .skipRestoreBeforePurchase
        let canPay = store.canMakePayments || defect == .skipPaymentsCheck
        guard canPay || checksFirst else {
            log("purchase refused: this device cannot make payments")
            return completion(.refused(.paymentsNotAllowed))
        }
        guard let offer = catalog.offer(offerId) else { return completion(.refused(.offerUnavailable)) }
        // Before the gate: a child who just watched the grown-up answer it was asked again, Apple's sheet sent a second
        // request, and the parent's two approvals changed the plan in silence (session 26).
        guard !awaitsApproval(offer) || defect == .secondPayment else {
            log("purchase refused: a request for this subscription waits for a parent's approval")
            toldWaiting.formUnion(awaitingApproval(like: offer))
            return completion(.refused(.approvalPending))
        }
        guard !requiresParentalGate || parentalGatePassed || defect == .skipParentalGate || !canPay else {
            log("purchase waits for the parental gate")
            return completion(.refused(.parentalGateRequired))
        }
        purchasesStarted += 1
        let serial = purchasesStarted
        activePurchase = ActivePurchase(
            serial: serial, productId: offer.productId, startedAt: clock(), gatePassed: parentalGatePassed,
            progress: progress, completion: completion)
        activePurchase?.accessAtStart = access
        activePurchase?.askedBy = storage.accountSession?.identityId
        // A charge of this product whose check still runs is heard during this purchase (its end told meanwhile).
        activePurchase?.chargeHeard = carriedOnChecks.contains { $0.fresh && $0.productId == offer.productId }
        // A guest asks only whether the family already shares the group with this Apple ID (`FamilyShareFirst`).
        let asksForShare = !checksFirst && asksForFamilyShare(offer)
        guard checksFirst || asksForShare else { return pay(offer) }
        activePurchase?.asksOnlyForFamilyShare = asksForShare
        // Signed in: if this Apple ID already holds a subscription the account can take, move it instead of charging.
        progress(.checkingWithServer)
        checkBeforePaying(offer, serial: serial)
    }

    /// Asks the server what the phone's receipt holds that the account has or may take. `askedAgain`: the
    /// second ask, after a newer receipt arrived while the first was on its way; never a third.
    private func checkBeforePaying(_ offer: Offer, serial: Int, askedAgain: Bool = false) {
        // The phone's receipt lists the family's shares as Apple updates it (`FamilyShareReceipts`): a guest's check
        // (`FamilyShareFirst`) sends it as it is, refreshed only when the phone holds none.
        receipts.receipt { [self] answer in
            guard stillRuns(serial) else { return }
            if answer == .cancelled {
                // The reader cancelled Apple's sign-in for the receipt: the purchase ends as if they cancelled Apple's
                // sheet, with no error and nothing handed to Apple (a check of a charge still running tells its own).
                log("the reader cancelled Apple's sign-in before paying: the purchase stops, nothing handed to Apple")
                return finishPurchase(.cancelled)
            }
            guard let receipt = answer.receipt else { return pay(offer) }
            let refreshes = receipts.refreshes
            let delivered = carriedOnSeen
            // Whom the server answered: a refresh refused on the way sends the check again as the phone's guest.
            var answeredGuest = false
            let inspect = {
                [backend] (receipt: String, done: @escaping (Result<[RestorablePurchase], BackendFailure>) -> Void) in
                backend.inspectRestore(
                    receipt,
                    sentAs: { if case .anonymous = $0 { answeredGuest = true } else { answeredGuest = false } },
                    completion: done)
            }
            sendRefreshingIfInvalid(receipt, inspect) { [self] sent, result in
                guard stillRuns(serial) else { return }
                // The refresh a refused receipt asked for is this check's own: the receipt it sent is the newest.
                let ownRefresh = sent == receipt ? 0 : 1
                switch result {
                case .success(let purchases):
                    // A restore running meanwhile may have brought a receipt with a purchase this one lacks
                    // (another phone's), or Apple delivered one (a parent's approval): "nothing to take" is then
                    // not known.
                    guard askedAgain || (receipts.refreshes == refreshes + ownRefresh && carriedOnSeen == delivered)
                    else {
                        log("a newer receipt arrived while the server checked: asking again with it")
                        return checkBeforePaying(offer, serial: serial, askedAgain: true)
                    }
                    if activePurchase?.asksOnlyForFamilyShare == true {
                        return reconcileFamilyShare(offer, receipt: sent, purchases: purchases, serial: serial)
                    }
                    if asksForFamilyShare(offer) {
                        // The account's session ended on the way and the server answered the guest: that answer is the
                        // guest's check. Asked again, a fault on the second ask sent the guest to Apple's sheet for the
                        // family's share (long fuzz seed 2225).
                        guard answeredGuest else { return askAsGuestNow(offer, serial: serial) }
                        log("the account's session ended while the server checked, which answered the phone's guest")
                        activePurchase?.asksOnlyForFamilyShare = true
                        return reconcileFamilyShare(offer, receipt: sent, purchases: purchases, serial: serial)
                    }
                    reconcileBeforePaying(offer, receipt: sent, purchases: purchases, serial: serial)
                case .failure(let failure) where activePurchase?.asksOnlyForFamilyShare == true:
                    // Whether the family shares it is not known: a guest pays as before the check was asked.
                    log("the check for a family share failed (\(failure)): going on to pay")
                    pay(offer)
                case .failure(let failure):
                    // The server said meanwhile, to the same reader, what the receipt holds (a restore tapped while the
                    // check was on its way): the app knows, and a fault on its own ask does not make paying right.
                    if let heard = activePurchase?.heardMeanwhile, heard.asked == storedAccess().identity {
                        log("the check before paying failed (\(failure)), but the server answered a restore meanwhile")
                        return reconcileBeforePaying(
                            offer, receipt: heard.receipt, purchases: heard.purchases, serial: serial)
                    }
                    // Refused as no receipt of Apple's, even fresh: what the Apple ID pays for is unknown, and the
                    // purchase's own check would be refused too. Paying moved another account's plan and told the
                    // reader "use Restore purchase to get it back" of nothing they had (session 31).
                    if case .refused(_, "receipt_invalid") = failure {
                        log("the check before paying refused the receipt as not Apple's: nothing handed to Apple")
                        // A payment of this product Apple charged meanwhile (an interruption resolved outside the
                        // app) is what the reader hears of, not "Nothing was charged": its check still running is
                        // joined, as paying would; one already told is not contradicted (long fuzz seed 1542).
                        if joinCarriedOnCheck(offer) { return }
                        if activePurchase?.chargeHeard == true { return finishPurchase(.receiptNotVerifiedAfterCharge) }
                        return finishPurchase(.receiptNotVerified)
                    }
                    // The failure ended the account's session (a refresh refused): the reader paying is a guest now,
                    // and the family may share the group with this Apple ID (long fuzz seed 1636), as on success.
                    if asksForFamilyShare(offer) { return askAsGuestNow(offer, serial: serial) }
                    log("the check before paying failed (\(failure)): going on to pay")
                    pay(offer)
                }
            }
        }
    }

    /// The account's session ended while its check was on its way (a refresh refused): the reader paying is a guest
    /// now, whom the answer about the account does not cover, and StoreKit says the family shares the group with this
    /// Apple ID. The guest's check is asked instead, with the phone's receipt, which lists the share: paying was Apple's
    /// sheet for what the family gives (fuzz seed 13, session 34).
    private func askAsGuestNow(_ offer: Offer, serial: Int) {
        log("the account's session ended while the server checked: asking about the family's share as a guest")
        activePurchase?.asksOnlyForFamilyShare = true
        checkBeforePaying(offer, serial: serial)
    }

    /// The server answered where the receipt's purchases are, for `asked`, outside the check before paying: a
    /// purchase whose check is still on its way keeps the answer (fuzz seed 4276), and one with Apple keeps it as the
    /// latest word on what a restore here would do (long fuzz seed 2251).
    func heardInspected(_ receipt: String, asked: AccessSnapshot.Identity, _ purchases: [RestorablePurchase]) {
        guard activePurchase != nil else { return }
        activePurchase?.heardLatest = (asked, purchases, heardOf)
        guard activePurchase?.handedOver == false else { return }
        activePurchase?.heardMeanwhile = (receipt, asked, purchases)
    }

    /// Restore before purchase, as seed 001 says it: what the Apple ID already pays for in the offer's
    /// group is moved to the account, or, when another account holds it, surfaced and asked about.
    func reconcileBeforePaying(
        _ offer: Offer, receipt: String, purchases: [RestorablePurchase], serial: Int
    ) {
        if stopsForAnotherAsker() { return }
        activePurchase?.heardLatest = (storedAccess().identity, purchases, heardOf)
        let active = purchases.filter { $0.active && sameGroup($0.productId, as: offer) }
        let alreadyYours = active.contains { $0.owner == "you" }
        // A guest holds it where a restore is refused: it may be the phone's own, bought here before the log-in, which
        // moves to the account by a transfer whatever the restore policy (`GuestMoveBeforePaying`).
        if !alreadyYours, mayBeThePhonesGuests(active) {
            return moveGuestBeforePaying(offer, receipt: receipt, purchases: purchases, serial: serial)
        }
        // Someone else's, and the rules keep it there: Apple's sheet would only answer "already subscribed", and "Move
        // it?" be refused after it (a move limit, a keep-with-owner policy: session 27).
        // Another account's kept by the policy is said as before ("it stays with that account"), not as a limit.
        if !alreadyYours, !active.contains(where: \.restorable), let why = Self.refusalHere(active),
            why == .limit || !active.contains(where: { $0.owner == "account" })
        {
            log("this Apple ID pays for a subscription someone else holds, which cannot move here (\(why.rawValue))")
            return finishPurchase(.heldElsewhere(why, charged: false))
        }
        // The family's share of the group, held by another account of this Apple ID's (the member's other account):
        // the family's, not a subscription this Apple ID pays for, so no "This Apple ID already pays for this
        // subscription… Move it?" (session 35, as the share came to the member's receipt): the reader is told the family
        // shares it and where it is, and nothing is handed to Apple.
        if !alreadyYours, active.contains(where: { $0.owner == "account" }),
            active.allSatisfy({ $0.familyShared == true })
        {
            log("the family shares this subscription with this Apple ID, held by another account: nothing to Apple")
            return finishPurchase(.sharedHeldElsewhere(Self.refusalHere(active) ?? .accountOwned))
        }
        if !alreadyYours, let other = active.first(where: { $0.owner == "account" }) {
            log("this Apple ID pays for another account's subscription: asking before moving it")
            return finishPurchase(.ownedByAnotherAccount(canMove: other.restorable))
        }
        guard alreadyYours || active.contains(where: { $0.restorable }) else { return pay(offer) }
        log(
            alreadyYours
                ? "this Apple ID already pays for the account's subscription: nothing to buy"
                : "this Apple ID already holds a subscription: moving it to the account instead of charging")
        // A restore even of what the account holds: the server writes Apple's state over a ledger that missed
        // news (a notification late or lost), so the access it answers is Apple's.
        backend.restore(receipt, confirmMoveFromAccount: false) { [self] restored in
            guard stillRuns(serial) else { return }
            if case .success(let answer) = restored, answer.access.kind == "account",
                storage.accountSession?.identityId != answer.access.identityId
            {
                // The account that asked signed out, or its session ended, while the server answered: what it holds
                // is not on this phone, and the guest now here did not ask to pay (fuzz seed 9311, long).
                log("the account that asked is no longer signed in: the purchase stops, nothing handed to Apple")
                return finishPurchase(.cancelled)
            }
            switch restored {
            case .success(let answer) where !answer.restored.isEmpty:
                save(answer.access)
                reloadPhoneIdentity()
                finishPurchase(Self.insteadOfCharging(answer))
            case .success(let answer) where answer.refusal == nil || alreadyYours:
                // Nothing moved and nothing refused: every purchase of the receipt is the account's already (a
                // restore running meanwhile may have moved it). Paying would ask Apple for what the account holds.
                // With the group's purchase the account's own, a refusal is about another purchase of the
                // receipt (another account's, asked about on its own): it does not make paying right.
                save(answer.access)
                guard !answer.access.levels.isEmpty else {
                    log("the server grants nothing from what this Apple ID pays for: going on to pay")
                    return pay(offer)
                }
                if !alreadyYours { log("the account already holds what this Apple ID pays for: nothing to buy") }
                finishPurchase(Self.insteadOfCharging(answer))
            case .success(let answer):
                log("the move was refused (\(answer.refusal ?? "nothing moved")): going on to pay")
                pay(offer)
            case .failure(let failure) where failure == .timedOut || failure == .unavailable:
                moveUnanswered(offer, failure, serial: serial)
            case .failure(let failure):
                // Refused unheard (a 401 after the token refreshes, a 4xx): the server moved nothing, but the check
                // said the Apple ID already pays, so Apple's sheet would ask for a second payment (fuzz seed 4247).
                log("the move failed (\(failure)): nothing handed to Apple")
                finishPurchase(.moveNotMade)
            }
        }
    }

    /// The move before paying went unanswered (a timeout, a lost answer, a 500): the server may have made it, and the
    /// check said the Apple ID already pays, so Apple's sheet would ask for a second payment (session 27: "$4.99" for
    /// what the account then held). The server is asked where the subscription is, as the log-in transfer does
    /// (found-by-hand/55); unasked or not moved, nothing goes to Apple.
    func moveUnanswered(_ offer: Offer, _ failure: BackendFailure, serial: Int) {
        log("the move is unanswered (\(failure)): asking the server where the subscription is")
        let asked = storedAccess().identity
        reloadAccess { [self] list in
            guard stillRuns(serial) else { return }
            guard storedAccess().identity == asked else {
                log("the account that asked is no longer signed in: the purchase stops, nothing handed to Apple")
                return finishPurchase(.cancelled)
            }
            guard let list else {
                log("where the subscription is could not be checked: nothing handed to Apple")
                return finishPurchase(.moveNotChecked)
            }
            guard access.isSubscriber,
                list.subscriptions.contains(where: { $0.active && sameGroup($0.productId, as: offer) })
            else {
                log("the server did not move it: nothing handed to Apple")
                return finishPurchase(.moveNotMade)
            }
            log("the server moved it: the account holds the subscription, nothing to buy")
            let group = list.subscriptions.filter { $0.active && sameGroup($0.productId, as: offer) }
            finishPurchase(
                group.allSatisfy { $0.familyShared == true } ? .sharedInsteadOfCharging : .restoredInsteadOfCharging)
        }
    }

    /// Not charged, the Apple ID's subscription moved here instead: a family member's shared with it is said to be
    /// the family's (session 33), as the restore says it.
    static func insteadOfCharging(_ answer: RestoreAnswer) -> PurchaseOutcome {
        WhoPays.of(answer.access, brought: answer.restored) == .family
            ? .sharedInsteadOfCharging : .restoredInsteadOfCharging
    }

    /// Why the first of `purchases` held by someone else would be refused to a restore here, if one is (one nobody
    /// holds yet is refused where the restore enters it as another customer's first: its appAccountToken's).
    static func refusalHere(_ purchases: [RestorablePurchase]) -> MoveRefusal? {
        purchases.lazy.filter { $0.owner != "you" }
            .compactMap { $0.refusal.flatMap(MoveRefusal.init(rawValue:)) }.first
    }

    /// A reader about to be told to use Restore purchase (a guest told the Apple ID's subscription is held elsewhere,
    /// a charge someone else's subscription took, a check that failed after paying): the server is asked what a
    /// restore here would answer, so "use Restore purchase" is not said where it would be refused (a move limit, a
    /// keep-with-owner policy: session 27, and after a failed check, session 30). `told`: the outcome when a restore
    /// would move it, or the server cannot say.
    /// `askAgain`: a sign-in that lands while the server is asked makes the answer about a guest no longer on
    /// screen; the receipt is checked again for who is signed in now (fuzz seed 4106).
    /// `payment`: the transaction Apple answered the purchase on screen with, whose latest word heard from the server
    /// is judged when this ask goes unheard (long fuzz seed 2251: "use Restore purchase" after a restore's ask, heard
    /// while Apple's sheet was up, said the owner's policy keeps it).
    func tellIfRestoreRefused(
        _ receipt: String, _ productId: String, charged: Bool, told: PurchaseOutcome,
        askAgain: (signedInSince: () -> Bool, ask: () -> Void), payment: StoreTransaction? = nil,
        _ completion: @escaping (PurchaseOutcome) -> Void
    ) {
        let asked = storedAccess().identity
        backend.inspectRestore(receipt) { [self] result in
            if askAgain.signedInSince() { return askAgain.ask() }
            // A purchase waiting on screen keeps the answer: its own ask before paying may fail, and the app then
            // knows what the receipt holds all the same (fuzz seed 4748, session 32).
            if case .success(let purchases) = result { heardInspected(receipt, asked: asked, purchases) }
            // "Move it?" only of what gives access: the server moves nothing that ended (expired, refunded, in billing
            // retry past its grace), so the question asked of one offered a move that brings nothing; it is told as
            // the phone's own would be, not active (fuzz seed 4946, session 36: the monthly a guest elsewhere held,
            // lapsed in billing retry, answered a purchase of the yearly on a new phone).
            if case .success(let purchases) = result, told == .ownedByAnotherAccount(canMove: true),
                activeInGroup(of: productId, purchases).isEmpty
            {
                log("the subscription held elsewhere is not active: nothing to move here")
                return completion(.subscriptionNotActive)
            }
            guard case .success(let purchases) = result else {
                // Unheard (a fault, or given up at the timeout): what a restore here would do is the owner's policy's,
                // so it is told as not checked, not guessed (session 37: "use Restore purchase" of a restore refused),
                // unless the server said it while the purchase ran.
                if let payment, let why = refusalHeard(payment, charged: charged) {
                    log("a restore here would be refused (\(why.rawValue)), as the server said while the purchase ran")
                    return completion(Self.restoreRefused(why, told: told, charged: charged))
                }
                let unchecked = told.toldUnchecked(defect)
                if unchecked != told { log("what a restore here would do could not be checked: the reader is told so") }
                return completion(unchecked)
            }
            guard let why = restoreRefusal(for: productId, purchases) else { return completion(told) }
            log("a restore here would be refused (\(why.rawValue)): the reader is told so")
            completion(Self.restoreRefused(why, told: told, charged: charged))
        }
    }

    /// What is told instead of `told` where a restore here would be refused: a plan change Apple set is told with it
    /// (session 28: "use Restore purchase" of one Restore refused).
    static func restoreRefused(_ why: MoveRefusal, told: PurchaseOutcome, charged: Bool) -> PurchaseOutcome {
        if case .alreadySubscribedOnAppleId(planChanged: true) = told { return .planChangeSetElsewhere(why) }
        return .heldElsewhere(why, charged: charged)
    }

    /// Why a restore here would not bring `productId`'s group, by the server's inspect answer: nil when one of its
    /// active purchases would come, or none is refused.
    func restoreRefusal(for productId: String, _ purchases: [RestorablePurchase]) -> MoveRefusal? {
        let held = activeInGroup(of: productId, purchases)
        guard !held.contains(where: \.restorable) else { return nil }
        return Self.refusalHere(held)
    }

    /// The purchases of the server's inspect answer active by Apple's word in `productId`'s group (all of them where
    /// neither the catalog nor the server knows the product's). Each purchase's group is the server's word first: the
    /// App Store's answers to the phone leave out a plan it does not sell in the phone's storefront, and a subscription
    /// renewed as that plan was judged of no group, its refusal dropped and "Restore purchase can move it to you" said
    /// of what the owner's policy keeps where it is (long fuzz seed 1940).
    func activeInGroup(of productId: String, _ purchases: [RestorablePurchase]) -> [RestorablePurchase] {
        func catalogGroup(_ productId: String) -> String? {
            catalog.offers.first { $0.productId == productId }?.product.subscriptionGroupIdentifier
        }
        let group =
            catalogGroup(productId)
            ?? purchases.first { $0.productId == productId && $0.subscriptionGroupIdentifier != nil }?
            .subscriptionGroupIdentifier
        return purchases.filter { purchase in
            purchase.active
                && (group == nil || (purchase.subscriptionGroupIdentifier ?? catalogGroup(purchase.productId)) == group)
        }
    }

    /// Whether purchase `serial` still runs: an answer for one that ended (the reader was told how, and may
    /// have started another) hands nothing to the App Store.
    func stillRuns(_ serial: Int) -> Bool {
        guard activePurchase?.serial == serial else {
            log("an answer for a purchase that has ended: nothing is handed to the App Store")
            return false
        }
        return true
    }

    /// Judged again just before a payment goes to Apple, since any may have changed while the server was asked
    /// first: the store still returns the product, the phone can still make payments, and a grown-up answered the
    /// gate where one is required (the reader's age may have become known; seed 001 keeps the gate "close to the
    /// operation that can spend money").
    private func mayHandOver(_ offer: Offer) -> Bool {
        // Seed 001: the payment is for "a fetched SKProduct"; the store's last answer may have dropped it since the
        // reader chose (a storefront change while the server was asked), and it has its own failure path.
        guard catalog.offer(offer.id)?.productId == offer.productId || defect == .payUnreturnedProduct else {
            log(
                "purchase \(offer.id): the App Store's last answer no longer returns \(offer.productId): "
                    + "nothing handed over")
            finishPurchase(.refused(.offerUnavailable))
            return false
        }
        guard store.canMakePayments || defect == .skipPaymentsCheck else {
            log("purchase refused: this device cannot make payments")
            finishPurchase(.refused(.paymentsNotAllowed))
            return false
        }
        // Another phone of the Apple ID may have asked a parent meanwhile.
        guard !awaitsApproval(offer) || defect == .secondPayment else {
            log("purchase refused: a request for this subscription waits for a parent's approval")
            toldWaiting.formUnion(awaitingApproval(like: offer))
            finishPurchase(.refused(.approvalPending))
            return false
        }
        guard requiresParentalGate, activePurchase?.gatePassed != true, defect != .skipParentalGate else { return true }
        log("purchase waits for the parental gate")
        finishPurchase(.refused(.parentalGateRequired))
        return false
    }

    /// Whether a request of the Apple ID for a plan of `offer`'s group waits for a parent: seed 000's table keeps it open
    /// ("the request stays open") and refuses a second payment while one runs. A waiting product the store does not
    /// sell here (asked in another storefront) is taken as of the group, as `sameGroup` takes one: better to refuse
    /// than to charge twice (fuzz seed 1, session 1515: a yearly request asked in the USA, the monthly plan bought in
    /// France).
    private func awaitsApproval(_ offer: Offer) -> Bool { !awaitingApproval(like: offer).isEmpty }

    /// The products of the Apple ID's requests waiting for a parent that `awaitsApproval` takes as of `offer`'s group.
    private func awaitingApproval(like offer: Offer) -> [String] {
        let group = offer.product.subscriptionGroupIdentifier
        return store.productsAwaitingApproval.filter { productId in
            guard productId != offer.productId else { return true }
            guard let group else { return false }
            guard let waiting = store.currentProduct(productId) else { return true }
            return waiting.subscriptionGroupIdentifier == group
        }
    }

    /// Whether a product the receipt holds replaces `offer` (one group: Apple charges for one at a time).
    /// A product the paywall does not know is taken as the same group: better to ask than to charge twice.
    func sameGroup(_ productId: String, as offer: Offer) -> Bool {
        guard let group = offer.product.subscriptionGroupIdentifier,
            let other = catalog.offers.first(where: { $0.productId == productId })?.product.subscriptionGroupIdentifier
        else { return true }
        return group == other
    }

    /// Whether a payment of `offer`'s product that went through moments ago is still being checked: the purchase on
    /// screen waits for that check, and hears its end, instead of asking Apple again.
    private func joinCarriedOnCheck(_ offer: Offer) -> Bool {
        guard let index = carriedOnChecks.firstIndex(where: { $0.joinedBy == nil && $0.productId == offer.productId }),
            let serial = activePurchase?.serial
        else { return false }
        log("a payment for this subscription went through moments ago: waiting for its check instead of paying again")
        carriedOnChecks[index].joinedBy = (serial, offer)
        activePurchase?.progress(.checkingEarlierPayment(paidAt: carriedOnChecks[index].paidAt))
        return true
    }

    func pay(_ offer: Offer) {
        // The same product only: its end is what this purchase's reader asked for. Another plan of the group
        // goes to Apple as before (the reader's own choice, and the check's end would be about another product).
        if joinCarriedOnCheck(offer) { return }
        var now = store.currentProduct(offer.productId).map(offerable)
        // A win-back offer the paywall did not show is not applied unasked: the reader pays what was shown.
        if offer.product.winBackOffer == nil { now?.winBackOffer = nil }
        guard now == nil || Self.sameIntroductoryTerms(now, offer.product) else {
            log(
                "purchase \(offer.id): the paywall's introductory offer is not Apple's any more; the paywall is corrected"
            )
            updateTrials(likeGroupOf: offer.productId)
            return finishPurchase(.refused(.termsChanged))
        }
        // Apple's terms are still the reader's choice, but the paywall may have changed under the purchase (a trial
        // dropped for a charge since refunded): it says again what Apple's sheet will (fuzz seed 4362).
        if let shown = catalog.offer(offer.id), now != nil, !Self.sameIntroductoryTerms(now, shown.product) {
            updateTrials(likeGroupOf: offer.productId)
        }
        guard mayHandOver(offer) else { return }
        activePurchase?.progress(.waitingForStore)
        if let winBack = offer.product.winBackOffer { return payWithOffer(offer, winBack) }
        log("purchase \(offer.id): handing over to the App Store")
        activePurchase?.handedOver = true
        // A signed-in reader's payment names them (StoreKit 1's `applicationUsername`): the purchase follows who paid.
        let first = catalog.offers.first?.productId
        let productId = defect == .payForFirstOffer ? first ?? offer.productId : offer.productId
        store.addPayment(productIdentifier: productId, applicationUsername: storage.accountSession?.appAccountToken)
    }

    /// A lapsed reader's win-back offer: the server signs it for this payment, the store checks the signature
    /// and charges the offer's price. Without a signature the purchase stops: the paywall promised the offer.
    private func payWithOffer(_ offer: Offer, _ winBack: StoreOffer) {
        log("purchase \(offer.id): asking the server to sign offer \(winBack.id)")
        let productId = offer.productId
        let serial = activePurchase?.serial
        backend.signOffer(productId: productId, offerId: winBack.id) { [self] result in
            guard let serial, stillRuns(serial) else { return }
            switch result {
            case .success(let signed):
                guard mayHandOver(offer) else { return }
                log("purchase \(offer.id): handing over to the App Store with offer \(winBack.id)")
                activePurchase?.handedOver = true
                store.addPayment(productIdentifier: productId, offer: signed)
            case .failure(let failure):
                log("the server did not sign offer \(winBack.id) (\(failure)): nothing is charged")
                finishPurchase(.offerNotSigned)
            }
        }
    }

    /// Every payment update, for the whole session: the observer starts at launch, not with the paywall.
    func observe(_ transaction: StoreTransaction) {
        var transaction = transaction
        if defect == .trialToldAsCharge {
            transaction.isTrialPeriod = false
            transaction.isPaidBefore = true
        }
        let onScreen = isOnScreen(transaction)
        let heardBefore = transaction.transactionIdentifier.map { !heardOf.insert($0).inserted } ?? false
        if transaction.state == .purchased, !heardBefore, let id = transaction.transactionIdentifier {
            storage.heardCharges?.transactionIds.append(id)
        }
        if transaction.state != .purchasing { paymentsRunning.remove(transaction.paymentNumber) }
        switch transaction.state {
        case .purchasing:
            if onScreen {
                activePurchase?.paymentNumber = transaction.paymentNumber
            } else {
                log("a payment handed to Apple before this launch is still running")
                paymentsRunning.insert(transaction.paymentNumber)
            }
        case .deferred:
            log("payment waiting for a parent's approval")
            deferredPayments.insert(transaction.paymentNumber)
            if onScreen { finishPurchase(.pending) }
        case .purchased, .restored:
            // An approval: whatever its end tells (nothing charged when the Apple ID already paid), the wait is over.
            // A request told waiting that waits no more was answered too: an approved switch within a group
            // delivers the running subscription's transaction, of another product (fuzz seed 4111).
            if transaction.state == .purchased {
                let awaiting = store.productsAwaitingApproval
                let approved =
                    !awaiting.contains(transaction.productIdentifier)
                    && deferredPayments.remove(transaction.paymentNumber) != nil
                let answered = toldWaiting.filter { !awaiting.contains($0) }
                toldWaiting.subtract(answered)
                if !answered.isEmpty || approved { onParentAnswered() }
            }
            if defect == .unlockOnPurchased {
                var unlocked = AccessSnapshot(
                    identity: access.identity, levels: access.levels.union(contentLevels), isKnown: true)
                unlocked.phoneGuest = access.phoneGuest
                publish(unlocked)
            }
            if finishPolicy == .beforeServerCheck { store.finish(transaction) }
            // Apple gives one introductory offer per group: the paywall stops promising it at once.
            updateTrials(likeGroupOf: transaction.productIdentifier)
            guard onScreen else {
                // Nobody on screen waits for it (Ask to Buy approved, an interruption resolved, a charge
                // redelivered at launch): it carries on all the same, and the reader hears how it ended.
                if transaction.isRenewal {
                    let whose = transaction.isFamilyShared ? "the family's share of " : ""
                    log(
                        "Apple renewed \(whose)\(transaction.productIdentifier): no purchase, checking it with the server"
                    )
                } else {
                    log("payment \(transaction.productIdentifier) carries on: \(transaction.state)")
                }
                // A charge this launch had not heard of, made while it observed (`heardOf`), or delivered again after
                // the last launch missed it (`HeardCharges`); Apple's record delivered again is not, and a failure then
                // does not say a payment just went through.
                let missed =
                    transaction.state == .purchased
                    && transaction.transactionIdentifier.flatMap { id in
                        transaction.transactionDate.map { lastLaunchHeard?.missed(id, chargedAt: $0) ?? false }
                    } == true
                let fresh =
                    !heardBefore && ((transaction.transactionDate.map { $0 >= observingSince } ?? false) || missed)
                // A payment (not Apple's records restored): a purchase of its product may wait for its check.
                carriedOnSeen += 1
                let check = carriedOnSeen
                if transaction.state == .purchased {
                    // The purchase on screen, of this product, did not charge, but its reader heard a charge of it.
                    if fresh, activePurchase?.productId == transaction.productIdentifier {
                        activePurchase?.chargeHeard = true
                    }
                    let paidAt = transaction.transactionDate ?? clock()
                    carriedOnChecks.append(
                        CarriedOnCheck(
                            id: check, productId: transaction.productIdentifier, paidAt: paidAt, fresh: fresh))
                }
                return validatePayment(transaction, freshCharge: fresh) { [self] outcome in
                    let joined = carriedOnChecks.first { $0.id == check }?.joinedBy
                    carriedOnChecks.removeAll { $0.id == check }
                    if let joined, activePurchase?.serial == joined.serial {
                        // A fresh charge's end is the purchase's. An older charge that gives no access (its
                        // subscription ended, or the check failed) is told as any charge carried on, and the
                        // reader's purchase goes on to Apple as asked.
                        if outcome == .purchased || fresh { return finishPurchase(outcome) }
                        onPurchaseCarriedOn(outcome, transaction, fresh)
                        // A signed-in reader's own check before paying may have gone unanswered, and the charge
                        // carried on is the Apple ID's: the server is asked again what the account may take (fuzz
                        // seed 4479: Apple's sheet after the server had said the first phone's plan could move).
                        guard storage.accountSession != nil, defect != .skipRestoreBeforePurchase else {
                            log("the earlier payment's check gave no access: paying as the reader asked")
                            return pay(joined.offer)
                        }
                        log("the earlier payment's check gave no access: asking the server again before paying")
                        activePurchase?.progress(.checkingWithServer)
                        return checkBeforePaying(joined.offer, serial: joined.serial)
                    }
                    if defect == .silentApproval, outcome != .purchased { return }
                    onPurchaseCarriedOn(outcome, transaction, fresh)
                }
            }
            activePurchase?.progress(.checkingWithServer)
            if defect == .closeBeforeServerCheck { finishPurchase(.purchased) }
            let startedAt = activePurchase?.startedAt ?? clock()
            let fresh = transaction.transactionDate.map { $0 >= startedAt } ?? true
            let paidForAsked = activePurchase.map { $0.productId == transaction.productIdentifier } ?? true
            validatePayment(transaction, freshCharge: fresh, paidForAsked: paidForAsked) { [self] outcome in
                finishPurchase(outcome)
            }
        case .cancelled:
            store.finish(transaction)
            log("payment cancelled by the reader: no error shown")
            if onScreen {
                finishPurchase(defect == .alertOnCancel ? .failed(message: "The purchase was cancelled.") : .cancelled)
            }
        case .failed(let reason):
            store.finish(transaction)
            log("payment failed: \(reason)")
            // A payment this launch heard deferred, or one of a product it told the reader waits (a launch after a
            // kill hears of the request only from the store): its failure is a parent's decline.
            let deferred = deferredPayments.remove(transaction.paymentNumber) != nil
            let toldWaits = toldWaiting.remove(transaction.productIdentifier) != nil
            if deferred || toldWaits { onParentAnswered() }
            if deferred || toldWaits, !onScreen {
                // The reader hears it ended ("Waiting for approval" stayed up over a declined request, session 27).
                if defect == .silentDecline { return }
                onPurchaseCarriedOn(.declined, transaction, false)
            } else if onScreen {
                finishPurchase(storeFailure())
            }
        }
    }

    /// Apple failed the payment on screen: nothing was charged. Levels the reader gained while the purchase ran are
    /// said too, not only the failure: a session refreshed during the check before paying brought a subscription a
    /// parent approved days before, and the reader read "could not complete the payment" over what it unlocked (long
    /// fuzz seed 1422, session 32).
    private func storeFailure() -> PurchaseOutcome {
        guard let before = activePurchase?.accessAtStart, before.identity == access.identity,
            !access.levels.subtracting(before.levels).isEmpty
        else { return defect == .foundMeanwhileUnfounded ? .storeFailedBesideLevelsFound : .storeFailed }
        log("payment failed, and the reader gained levels while it ran: they are told they have a subscription")
        return .storeFailedBesideLevelsFound
    }

    /// After Apple charged: receipt → backend → identity and levels; only then is the purchase done.
    /// `freshCharge`: Apple charged for this purchase now, so a failure says the payment went through.
    /// `paidForAsked`: the charge is of the product the reader asked for; a plan change Apple keeps for the next
    /// renewal answers with the running subscription, whose renewal during the purchase is no payment for the plan
    /// asked (seed 3481: "your payment went through" of a payment that charged nothing).
    /// `askedAgain`: the second ask, after a sign-in landed while the first was on its way; never a third.
    private func validatePayment(
        _ transaction: StoreTransaction, freshCharge: Bool = true, paidForAsked: Bool = true, askedAgain: Bool = false,
        completion: @escaping (PurchaseOutcome) -> Void
    ) {
        // "Held elsewhere" answered for a guest who has signed in since may be about the account now signed in.
        let signedInSince = { [self] (account: String?) in
            !askedAgain && storage.accountSession != nil && storage.accountSession?.identityId != account
        }
        let askAgainBecause = { [self] (why: String) in
            log("the reader \(why) while the server checked: asking again for who is signed in now")
            validatePayment(
                transaction, freshCharge: freshCharge, paidForAsked: paidForAsked, askedAgain: true,
                completion: completion)
        }
        let askAgain = { askAgainBecause("signed in") }
        // Held elsewhere is said of who the phone is: with a sign-in on its way, whose it is waits for it to land or
        // fail, then is asked again (long fuzz seed 2165: "log in to the account that holds it" told to a reader
        // logging in to that very account, her resubscription shown as locked).
        let waitsForSignIn = { [self] () -> Bool in
            guard !askedAgain, signInOnItsWay else { return false }
            log("the server says someone else holds it, and a sign-in is on its way: asked again once it lands")
            keepUntold(transaction, freshCharge: freshCharge && paidForAsked)  // a kill meanwhile: sent again at launch
            afterSignIn.append { [self] in
                checkEnded(for: transaction)
                askAgainBecause("was signing in")
            }
            return true
        }
        // Kept from the moment its check begins, not only once the receipt is on its way: a restart while the receipt
        // was fetched (a refresh, the phone having none) lost a payment whose transaction was finished, so the next
        // launch told nothing of it (long fuzz seed 1215).
        storage.unansweredReceipts += 1
        storage.unansweredPayments.append(UnansweredPayment(transaction, freshCharge: freshCharge && paidForAsked))
        receiptSendsInFlight += 1
        // A refresh the reader cancelled is no receipt either: Apple charged, and what the reader is told of the
        // payment (unchecked, Restore to get it back) is about money, not the cancel.
        receipts.receipt { [self] answer in
            guard let receipt = answer.receipt else {
                receiptSendsInFlight -= 1
                checkEnded(for: transaction)
                log("server check impossible: no receipt even after a refresh")
                // "Use Restore purchase" only where a restore would bring it, by what the server said before paying:
                // no receipt, nothing to ask it again with (long fuzz seed 1471, session 349: advised past the move
                // limit).
                if let why = refusalHeard(transaction, charged: freshCharge && paidForAsked) {
                    log(
                        "a restore here would be refused (\(why.rawValue)), as the server said while the purchase ran: the reader is told so"
                    )
                    return completion(.heldElsewhere(why, charged: freshCharge && paidForAsked))
                }
                // Nothing the server said to go by (a payment nobody on screen started: a parent's approval, an
                // interruption resolved outside the app; a guest's, never checked before paying): Restore is not
                // advised, as the server may refuse it (session 32: advised past the move limit).
                guard heardWhilePaying(transaction) != nil else {
                    log("no word of the server on what a restore here would do: Restore purchase is not advised")
                    return completion(.noReceiptToCheck)
                }
                return completion(
                    .serverCheckFailed(
                        message: "Your purchase could not be checked. Use Restore purchase to get it back."))
            }
            log("sending the receipt to the server")
            let askedAs = anonymousId
            let account = storage.accountSession?.identityId
            let email = storage.accountSession?.email
            sendRefreshingIfInvalid(receipt, backend.validateReceipt) { [self] receipt, result in
                receiptSendsInFlight -= 1
                receiptAnswered(result, for: transaction)
                switch result {
                case .success(let answer):
                    if finishPolicy == .afterServerCheck { store.finish(transaction) }
                    save(answer, askedAs: askedAs)
                    if let account, storage.accountSession?.identityId != account, answer.identityId == account,
                        let original = transaction.originalTransactionIdentifier,
                        answer.ownedElsewhere.contains(original), !askedAgain
                    {
                        // Held elsewhere (the phone's guest bought it first, fuzz seed 5107): it did not go to the
                        // account the reader left, and who the phone is now decides what is true to say.
                        return askAgainBecause("logged out")
                    }
                    if let account, storage.accountSession?.identityId != account, answer.identityId == account,
                        !answer.levels.isEmpty, Self.grants(answer, transaction)
                    {
                        // The reader logged out while the server checked: the purchase is the account's, and
                        // "purchased" would promise access this phone no longer has (not when the answer is the
                        // phone's anonymous identity's: the session ended and the app asked again). Only where the
                        // account has it: one not active (billing retry) is said so, as to a reader still signed in;
                        // "log in again to use it" promised what logging in would not give (long fuzz 2025).
                        // A log-in to that account on its way decides it: "log in again" to a reader logging in to
                        // it was untrue, and once it lands the purchase is hers (long fuzz seed 2106); a log-in to
                        // another account is told which account has it (found-by-hand/523).
                        let wentElsewhere = { [self] in
                            if storage.accountSession?.identityId == account {
                                log("the log-in landed on the account the server gave the purchase to")
                                return completion(.purchased)
                            }
                            log("the server gave the purchase to an account no longer signed in on this phone")
                            completion(
                                .failed(
                                    message: Self.wentToAccount("purchase", email, now: storage.accountSession)))
                        }
                        guard signInOnItsWay, defect != .wentElsewhereToldAtOnce else { return wentElsewhere() }
                        log("a sign-in is on its way: the outcome waits for who it lands on")
                        // Kept on the phone until told, as a payment whose answer was lost is: the app killed before
                        // the sign-in landed never told it, and the next launch, sending the receipt again, does.
                        keepUntold(transaction, freshCharge: freshCharge && paidForAsked)
                        return afterSignIn.append { [self] in
                            checkEnded(for: transaction)
                            wentElsewhere()
                        }
                    }
                    if let original = transaction.originalTransactionIdentifier,
                        answer.ownedElsewhere.contains(original)
                    {
                        if waitsForSignIn() { return }
                        if signedInSince(account) { return askAgain() }
                        // Paid, and someone else's: "Restore purchase can move it to you" only where a restore would
                        // (an offer code carries no appAccountToken and stays with its owner; a parent's approval
                        // follows who asked: neither is the move limit, session 30).
                        // "Move it?" too only where the move would be made (session 32: asked past the move limit).
                        let told = { [self] (outcome: PurchaseOutcome) in
                            let charged = outcome == .chargedForAnotherOwner
                            guard charged || outcome == .ownedByAnotherAccount(canMove: true) else {
                                return completion(outcome)
                            }
                            tellIfRestoreRefused(
                                receipt, transaction.productIdentifier, charged: charged, told: outcome,
                                askAgain: ({ false }, {}), payment: transaction, completion)
                        }
                        if storage.accountSession != nil, let guest = storage.anonymousIdentity {
                            return askPhonesGuest(
                                guest, about: original, transaction.productIdentifier, freshCharge: freshCharge, told)
                        }
                        if freshCharge {
                            // A resubscription under an original someone else holds: paid, and still theirs (an
                            // account's too, when the purchase moved too often to follow who paid): "Move it?" spoke
                            // as if nothing had been charged (session 24).
                            log("the payment went to a subscription someone else holds: nothing unlocked here")
                            return told(.chargedForAnotherOwner)
                        }
                        log("the Apple ID's subscription is held by someone else: nothing unlocked here")
                        return told(.ownedByAnotherAccount(canMove: storage.accountSession != nil))
                    }
                    guard !answer.levels.isEmpty, Self.grants(answer, transaction) else {
                        log("the server checked the receipt: the subscription is not active, nothing unlocked")
                        return completion(.subscriptionNotActive)
                    }
                    completion(defect == .notActiveAfterPaying ? .subscriptionNotActive : .purchased)
                case .failure(.refused(_, "purchase_owned_elsewhere")) where waitsForSignIn():
                    break
                case .failure(.refused(_, "purchase_owned_elsewhere")) where signedInSince(account):
                    askAgain()
                case .failure(.refused(_, "purchase_owned_elsewhere")) where freshCharge:
                    if finishPolicy == .afterServerCheck { store.finish(transaction) }
                    log("the payment went to a subscription someone else holds: nothing unlocked here")
                    tellIfRestoreRefused(
                        receipt, transaction.productIdentifier, charged: true, told: .chargedForAnotherOwner,
                        askAgain: ({ signedInSince(account) }, askAgain), payment: transaction, completion)
                case .failure(.refused(_, "purchase_owned_elsewhere")):
                    if finishPolicy == .afterServerCheck { store.finish(transaction) }
                    log("the Apple ID already pays for this subscription elsewhere: nothing was charged")
                    // Another plan of the group answered with the running subscription: Apple set it for the renewal,
                    // which the reader is told first, with where the subscription is held when a restore would refuse it.
                    tellIfRestoreRefused(
                        receipt, transaction.productIdentifier, charged: false,
                        told: .alreadySubscribedOnAppleId(planChanged: !paidForAsked),
                        askAgain: ({ signedInSince(account) }, askAgain), payment: transaction, completion)
                case .failure(let failure):
                    // "Use Restore purchase" only where a restore would bring it: past the move limit, or where the
                    // policy keeps it with its owner, the reader is told why instead (session 30).
                    let charged = freshCharge && paidForAsked
                    let nothingNew = charged ? "" : " (Apple charged nothing new for the plan asked)"
                    log("server check failed: \(failure)\(nothingNew)")
                    let unanswered = UnansweredPayment(transaction, freshCharge: charged)
                    let told = unanswered.unconfirmed
                    tellIfRestoreRefused(
                        receipt, transaction.productIdentifier, charged: charged, told: told, askAgain: ({ false }, {}),
                        payment: transaction
                    ) { [self] outcome in
                        // The account's session ended while the server was asked: the guest left on screen would be
                        // refused a restore of what the account paid for, with its appAccountToken (default fuzz seed
                        // 1, session 1960). The account is where it went.
                        guard outcome == told, charged, account != nil, storage.accountSession == nil else {
                            return completion(outcome)
                        }
                        completion(unanswered.signedOutMeanwhile)
                    }
                }
            }
        }
    }

    /// Why a restore here would refuse `transaction`'s group, by the server's latest answer heard while the purchase on
    /// screen that Apple answered ran, for the reader still signed in: nil where one of the group's purchases would
    /// come, or nothing was heard. A fresh charge made its purchase active, and who paid for it takes it (seed 003: a
    /// signed-in reader's payment names them), but where only the move limit or an account's hold kept it from them;
    /// an uncharged one left the purchases as the server said (long fuzz seed 2251: kept with its owner), and so did a
    /// charge the app had heard of before the server spoke (long fuzz seed 2255: an interrupted payment of the owner's,
    /// resolved outside the app and checked while Apple's sheet was up, delivered as the answer to the sheet).
    private func refusalHeard(_ transaction: StoreTransaction, charged: Bool) -> MoveRefusal? {
        guard let heard = heardWhilePaying(transaction), let original = transaction.originalTransactionIdentifier
        else { return nil }
        let chargedSince = charged && !(transaction.transactionIdentifier.map(heard.knew.contains) ?? false)
        guard chargedSince else { return restoreRefusal(for: transaction.productIdentifier, heard.purchases) }
        let stands: Set<String?> = [MoveRefusal.limit.rawValue, MoveRefusal.accountOwned.rawValue]
        var purchases = heard.purchases.map { heard in
            guard heard.originalTransactionId == original else { return heard }
            let refused = stands.contains(heard.refusal)
            return RestorablePurchase(
                originalTransactionId: original, productId: transaction.productIdentifier, active: true,
                owner: heard.owner, restorable: heard.restorable || !refused, refusal: refused ? heard.refusal : nil)
        }
        if !purchases.contains(where: { $0.originalTransactionId == original }) {
            // A new subscription: the server never held it, and who paid claims it.
            purchases.append(
                RestorablePurchase(
                    originalTransactionId: original, productId: transaction.productIdentifier, active: true,
                    owner: "nobody", restorable: true, refusal: nil))
        }
        return restoreRefusal(for: transaction.productIdentifier, purchases)
    }

    /// The server's latest answer on the receipt heard while the purchase on screen that Apple answered with
    /// `transaction` ran, for the reader still signed in; nil for any other payment, or none heard.
    private func heardWhilePaying(_ transaction: StoreTransaction) -> (
        asked: AccessSnapshot.Identity, purchases: [RestorablePurchase], knew: Set<String>
    )? {
        guard let purchase = activePurchase, purchase.paymentNumber == transaction.paymentNumber,
            let heard = purchase.heardLatest, heard.asked == storedAccess().identity
        else { return nil }
        return heard
    }

    /// Whether the answer's levels come from this transaction's subscription, where the server says which
    /// purchases give them: levels held through another (a family member's purchase moved to the account)
    /// do not make a refunded or revoked one "purchased".
    static func grants(_ answer: AccessAnswer, _ transaction: StoreTransaction) -> Bool {
        guard let granting = answer.granting, let original = transaction.originalTransactionIdentifier else {
            return true
        }
        return granting.contains(original)
    }

    /// A signed-in reader's charge that landed on a purchase someone else holds may be this phone's own,
    /// bought before signing in and not moved yet (a resubscription under its original id): then it is
    /// this phone's guest identity's, shown here as the phone's, and Profile offers to move it. "Another
    /// account" would be untrue. Otherwise (another customer's, or the guest cannot be asked) it is. The guest's
    /// purchase is the one of `original`: another of the same product (a family member's share) is not it.
    func askPhonesGuest(
        _ guest: AnonymousIdentity, about original: String, _ productId: String, freshCharge: Bool,
        _ completion: @escaping (PurchaseOutcome) -> Void
    ) {
        backend.me(as: .anonymous(token: guest.token)) { [self] result in
            // What the server says of the phone's identity is kept whatever it says: it is the phone's word now.
            if case .success(let (answer, _)) = result { save(answer, askedAs: guest.id) }
            guard case .success(let (answer, subscriptions)) = result,
                case let held = subscriptions.filter({
                    $0.originalTransactionId.map { $0 == original } ?? ($0.productId == productId)
                }),
                !held.isEmpty
            else {
                // Paid just now (a resubscription under an original someone else holds, the reader signed in while
                // Apple charged: fuzz long seed 952): told as paid, not "Move it?" as if nothing was charged.
                guard !freshCharge else {
                    log("the payment went to a subscription someone else holds: nothing unlocked here")
                    return completion(.chargedForAnotherOwner)
                }
                log("the Apple ID's subscription is held by someone else: nothing unlocked here")
                return completion(.ownedByAnotherAccount(canMove: true))
            }
            log("the purchase is this phone's, made without an account: it stays with the phone until moved")
            let active = !answer.levels.isEmpty && held.contains(where: \.active)
            completion(active ? .purchased : .subscriptionNotActive)
        }
    }

    /// Asks the store again for the introductory offer of every offer in `productId`'s group and tells the
    /// app when one changed.
    func updateTrials(likeGroupOf productId: String) {
        let group = catalog.offers.first { $0.productId == productId }?.product.subscriptionGroupIdentifier
        var changed = false
        let offers = catalog.offers.map { offer -> Offer in
            guard group == nil || offer.product.subscriptionGroupIdentifier == group,
                let now = store.currentProduct(offer.productId).map(offerable),
                !Self.sameIntroductoryTerms(now, offer.product)
            else { return offer }
            changed = true
            return Offer(id: offer.id, product: now)
        }
        guard changed else { return }
        catalog = OfferCatalog(offers: offers, leftOut: catalog.leftOut)
        onCatalogChange(catalog)
    }

    /// A win-back offer needs the server's signature, and the server signs only for someone it knows: a phone
    /// with no identity yet (a new phone before its restore) is shown the product without it, never an offer
    /// the purchase could not keep.
    func offerable(_ product: StoreProduct) -> StoreProduct {
        guard product.winBackOffer != nil, storage.accountSession == nil, storage.anonymousIdentity == nil else {
            return product
        }
        var plain = product
        plain.winBackOffer = nil
        return plain
    }

    /// Whether two readings of a product promise the same introductory offer (free trial or paid).
    static func sameIntroductoryTerms(_ one: StoreProduct?, _ other: StoreProduct) -> Bool {
        one?.freeTrialPeriod == other.freeTrialPeriod && one?.paidIntroductoryOffer == other.paidIntroductoryOffer
            && one?.winBackOffer == other.winBackOffer
    }

    /// Whether the purchase on screen waits for this update: its product, and its own payment once the
    /// store numbered it (two payments of one product can be open: one deferred, one on the sheet).
    /// The payment on screen is known by its number once Apple said it is purchasing: its answer may be of another
    /// product of the group (a plan change Apple keeps for the next renewal answers with the running subscription),
    /// and waiting for one of the product asked would leave the paywall waiting for good (session 23).
    private func isOnScreen(_ transaction: StoreTransaction) -> Bool {
        guard let purchase = activePurchase, purchase.handedOver else { return false }
        if let number = purchase.paymentNumber, defect != .paymentKnownByProduct {
            return number == transaction.paymentNumber
        }
        return purchase.productId == transaction.productIdentifier
    }

    func finishPurchase(_ outcome: PurchaseOutcome) {
        guard let purchase = activePurchase else { return }
        activePurchase = nil
        purchase.completion(outcome)
        let waiting = afterPurchase
        afterPurchase = []
        for next in waiting { next() }
    }
}
