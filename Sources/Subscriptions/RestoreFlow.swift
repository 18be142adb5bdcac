/// Restore as reconciliation: nothing to do when every level is active; the receipt (refreshed once
/// if missing); the backend decides what moves; the outcome in the reader's terms.
extension SubscriptionCoordinator {
    /// Restores the Apple ID's purchases to the current identity (a new anonymous one for a guest with none).
    /// `confirmMoveFromAccount` is the reader's yes to moving a purchase linked to another account.
    /// One restore at a time: a second tap while one runs joins it, as the receipt refresh does, so a
    /// guest on a new phone never gets two identities and spends two moves for one subscription.
    public func restore(confirmMoveFromAccount: Bool = false, completion: @escaping (RestoreOutcome) -> Void) {
        guard holdsEveryLevel && !confirmMoveFromAccount else {
            return restoreAsked(confirmMoveFromAccount: confirmMoveFromAccount, completion: completion)
        }
        // The levels held may be old news (a share revoked, a refund, an end not heard of yet): "You are already
        // subscribed" over "Access: free articles only" (session 25). The server is asked first; only levels it
        // still gives avoid the restore, and when it cannot answer, the restore itself asks.
        let tapper = storedAccess().identity
        confirmHeldLevels { [self] confirmed in
            // Signed out or in as someone else while the server was asked: what was confirmed is not who is here now,
            // and their restore was not asked (long fuzz seed 3888).
            guard storedAccess().identity == tapper else { return completion(restoreNotAsked) }
            guard confirmed, holdsEveryLevel else {
                return restoreAsked(confirmMoveFromAccount: false, completion: completion)
            }
            log("restore: levels already active, nothing to do")
            completion(.alreadySubscribed)
        }
    }

    /// Seed 001's "avoid restoring when active subscription levels are already present", per level: a phone holding one
    /// subscription group's level was told "You are already subscribed" while the Apple ID paid for another group's,
    /// which never arrived (session 27). Only a reader holding every level the content asks for has nothing to gain.
    private var holdsEveryLevel: Bool {
        access.isSubscriber && access.levels.isSuperset(of: contentLevels)
    }

    /// Asks the server about the levels the phone holds: true when it answered (for the phone's own guest too, signed
    /// in: its levels are the reader's as well, and as old).
    private func confirmHeldLevels(_ done: @escaping (Bool) -> Void) {
        reloadAccess { [self] list in
            guard list != nil else { return done(false) }
            guard storage.accountSession != nil, let guest = storage.anonymousIdentity, !guest.levels.isEmpty else {
                return done(true)
            }
            backend.me(as: .anonymous(token: guest.token)) { [self] result in
                guard case .success(let (answer, _)) = result else { return done(false) }
                save(answer, askedAs: guest.id)
                done(true)
            }
        }
    }

    private func restoreAsked(confirmMoveFromAccount: Bool, completion: @escaping (RestoreOutcome) -> Void) {
        guard !restoreInFlight || defect == .restoreTwice else {
            return log("restore: one is already on its way; this tap waits for it")
        }
        restoreInFlight = true
        let hadReceipt = store.holdsReceipt
        // A restore moves purchases to whoever sends it: one an account tapped is that account's, or the phone's
        // (its session may end meanwhile), never another account's; one a guest tapped, the guest's: an account
        // signed in since takes the guest's purchases by the transfer it offers, not by a restore it never tapped.
        let tapper = storage.accountSession?.identityId
        let finished = { [self] (outcome: RestoreOutcome) in
            restoreInFlight = false
            completion(outcome)
        }
        let heardAtStart = heardOf.count
        let done = { [self] (outcome: RestoreOutcome) in
            restoreEnded(
                outcome, heardAtStart: heardAtStart, confirmMoveFromAccount: confirmMoveFromAccount, tapper: tapper,
                finished: finished)
        }
        // The reader cancelled Apple's sign-in the refresh asked for: the restore ends as a cancelled payment does,
        // with no error ("could not be read from the App Store" was told of the reader's own choice, session 43).
        let cancelled = { [self] in
            log("restore: the reader cancelled Apple's sign-in; nothing restored, no error shown")
            done(.cancelled)
        }
        receipts.receipt { [self] answer in
            if answer == .cancelled { return cancelled() }
            restore(with: answer.receipt, confirmMoveFromAccount: confirmMoveFromAccount, tapper: tapper) {
                [self] outcome in
                // "Nothing (valid) to restore" is a strong claim: the receipt the phone had may predate a purchase
                // (a parent's approval, another phone of the Apple ID, a purchase shared again with the family),
                // so Apple is asked for a fresh one first.
                let nothing = RestoreOutcome.nothingBack.contains(outcome)
                guard nothing, hadReceipt else { return done(outcome) }
                receipts.fresh { [self] answer in
                    // "Nothing to restore" is not known without the fresh receipt the reader declined to sign in for.
                    if answer == .cancelled { return cancelled() }
                    restore(with: answer.receipt, confirmMoveFromAccount: confirmMoveFromAccount, tapper: tapper) {
                        again in
                        // What the first pass moved (and found ended) is the reader's now: still "nothing valid".
                        done(again == .nothingToRestore ? outcome : again)
                    }
                }
            }
        }
    }

    /// "Nothing to restore" is checked against what Apple may be charging meanwhile. A charge Apple delivered while
    /// the restore ran (its sheet confirmed just before Restore was tapped) is in neither receipt asked about:
    /// "nothing to restore" over the article it had just unlocked (session 26). The receipt now on the phone lists
    /// it: asked once more. A payment of this phone still with Apple may be such a charge, delivered a moment after
    /// the server's answer (fuzz seed 3996): the restore waits for its end first. So is "Apple is still trying to
    /// charge": an upgrade confirmed just before Restore ends the retry with its own charge, and the answer about
    /// the retried plan told "still trying" over the plan just bought (fuzz seed 4812, session 33).
    /// An answer that waited is asked again whatever the payment's end: while it waited, time passed on Apple's
    /// side too (a billing retry that ran out expired the subscription, the sheet then cancelled), and "Apple is
    /// still trying to charge" was told of a retry that had ended (fuzz seed 15, session 34).
    private func restoreEnded(
        _ outcome: RestoreOutcome, heardAtStart: Int, confirmMoveFromAccount: Bool, tapper: String?,
        waited: Bool = false, finished: @escaping (RestoreOutcome) -> Void
    ) {
        guard RestoreOutcome.nothingBack.contains(outcome) else {
            return finished(outcome)
        }
        if activePurchase?.handedOver == true {
            log("restore: a payment of this phone is with Apple; the restore waits for its end")
            return afterPurchase.append { [self] in
                restoreEnded(
                    outcome, heardAtStart: heardAtStart, confirmMoveFromAccount: confirmMoveFromAccount,
                    tapper: tapper, waited: true, finished: finished)
            }
        }
        guard waited || heardOf.count > heardAtStart, let receipt = store.appReceipt else { return finished(outcome) }
        log(
            waited
                ? "restore: its answer waited for the phone's payment; asking again with the receipt now on the phone"
                : "restore: Apple delivered a transaction while it ran; asking again with the receipt now on the phone")
        restore(with: receipt, confirmMoveFromAccount: confirmMoveFromAccount, tapper: tapper) { again in
            // What the first pass moved (and found ended) is the reader's now: still "nothing valid". A retry the
            // first pass spoke of is not: "still trying" is true only as asked again.
            finished(again == .nothingToRestore && outcome.endedWithNothingValid ? outcome : again)
        }
    }

    private func restore(
        with receipt: String?, confirmMoveFromAccount: Bool, tapper: String?, askedAgain: Bool = false,
        completion done: @escaping (RestoreOutcome) -> Void
    ) {
        guard let receipt else {
            // No receipt: the refresh failed, timed out, or ended without one; true of all three (session 26).
            return done(.failed(message: "Your purchases could not be read from the App Store. Please try again."))
        }
        let account = storage.accountSession?.identityId
        let email = storage.accountSession?.email
        // A guest's restore asked again as the account signed in since moved the guest's purchase to it, the
        // transfer it offers unanswered (fuzz seed 4151).
        if let account, account != tapper {
            log("an account signed in since Restore was tapped: nothing is restored for it")
            return done(restoreNotAsked)
        }
        let askedAs = defect == .restoreTwice ? nil : anonymousId
        // A refusal speaks of who asked: "another account's" to a guest is untrue of the account that tapped
        // Restore and signed in again while the server answered. Nothing moved, so the server is asked once more
        // for it (without a yes to moving another account's purchase). Another account did not tap it.
        let askAgainIfSignedInSince = { [self] () -> Bool in
            guard !askedAgain, let now = storage.accountSession?.identityId, now != account else { return false }
            guard now == tapper else {
                log("another account signed in while the server restored: the restore is not asked again for it")
                done(restoreNotAsked)
                return true
            }
            log("the reader signed in again while the server restored: asking again for them")
            restore(with: receipt, confirmMoveFromAccount: false, tapper: tapper, askedAgain: true, completion: done)
            return true
        }
        let send = { [backend] (receipt: String, answer: @escaping (Result<RestoreAnswer, BackendFailure>) -> Void) in
            backend.restore(receipt, confirmMoveFromAccount: confirmMoveFromAccount, completion: answer)
        }
        // A fresh receipt sent again after a refusal goes as whoever is signed in then: a guest's restore sent as the
        // account signed in meanwhile moved the guest's purchase to it, asked by nobody (fuzz seed 5229).
        let stillAsked = { [self] in storage.accountSession?.identityId == account }
        sendRefreshingIfInvalid(receipt, send, sendAgainIf: stillAsked) { [self] receipt, result in
            switch result {
            case .success(let answer) where answer.restored.isEmpty && answer.refusal != nil:
                save(answer.access, askedAs: askedAs)
                if askAgainIfSignedInSince() { return }
                done(outcome(forRefusal: answer.refusal ?? ""))
            case .success(let answer):
                let kept = save(answer.access, askedAs: askedAs)
                if let account, storage.accountSession?.identityId != account, answer.access.identityId == account {
                    // The reader logged out while the server restored: what came back is the account's, and
                    // "Your subscription is back." would promise access this phone no longer has. An answer
                    // about the phone's anonymous identity (the session ended and the app asked again) is not.
                    guard !answer.restored.isEmpty else {
                        // Nothing went to the account: "went to the account" was told of a restore that found
                        // nothing, while a payment settled after the logout gave the phone's guest a subscription
                        // (fuzz seed 4896). The logout overtook it, as a sign-in would.
                        log("the server restored nothing to an account no longer signed in on this phone")
                        return done(restoreNotAsked)
                    }
                    // A log-in to that account on its way decides it, as a purchase's (`SignInLanding`): "log in
                    // again" to a reader logging in to it was untrue, and once it lands the restore is hers
                    // (found-by-hand/523).
                    let wentElsewhere = { [self] in
                        if storage.accountSession?.identityId == account {
                            log("the log-in landed on the account the server restored to")
                            return told(answer, kept: true, done)
                        }
                        log("the server restored to an account no longer signed in on this phone")
                        done(.failed(message: Self.wentToAccount("purchases", email, now: storage.accountSession)))
                    }
                    guard signInOnItsWay, defect != .wentElsewhereToldAtOnce else { return wentElsewhere() }
                    log("a sign-in is on its way: the restore's outcome waits for who it lands on")
                    return afterSignIn.append(wentElsewhere)
                }
                told(answer, kept: kept, done)
            case .failure(.refused(_, let code)):
                if askAgainIfSignedInSince() { return }
                done(outcome(forRefusal: code))
            case .failure(let failure) where failure == .timedOut || failure == .unavailable:
                restoreUnanswered(
                    failure, receipt: receipt, askedAs: askedAs, confirmMoveFromAccount: confirmMoveFromAccount,
                    completion: done)
            case .failure(let failure):
                log("restore failed: \(failure)")
                // Asked as an account the reader has left (its token expired on the way, and another signed in):
                // "could not be restored" spoke over the new account's subscription (long fuzz seed 1799).
                if storage.accountSession?.identityId != account { return done(restoreNotAsked) }
                done(.failed(message: "Your purchases could not be restored. Please try again later."))
            }
        }
    }

    /// What a restore that reached the reader signed in now tells: back, partly back, refused, or changed meanwhile.
    /// `kept`: its levels were kept (not older than news already heard).
    private func told(_ answer: RestoreAnswer, kept: Bool, _ done: (RestoreOutcome) -> Void) {
        if !answer.restored.isEmpty, answer.access.kind == "account" { reloadPhoneIdentity() }
        if let refusal = answer.refusal, !answer.restored.isEmpty, !answer.access.levels.isEmpty,
            outcome(forRefusal: refusal) != .confirmMoveFromAnotherAccount
        {
            // Something came back and the rest was refused: "belongs to another account" alone hid what did
            // (session 30). Another account's, the signed-in reader is still asked about it first.
            done(.partlyRestored(refusal: refusal, back: WhoPays.of(answer.access, brought: answer.restored)))
        } else if let refusal = answer.refusal {
            done(outcome(forRefusal: refusal))
        } else if !kept, access.levels.isEmpty, !answer.access.levels.isEmpty {
            // Newer news about the reader came first (a charge that moved the subscription to who paid for
            // it): the levels this answer gave are gone, and "back" would promise them.
            log("restore: a newer answer came first, and the levels it gave are gone")
            done(.failed(message: "Your subscription changed while it was being restored. Please try again."))
        } else {
            done(outcome(restored: answer))
        }
    }

    /// A restore unanswered (a timeout, a lost answer, a 500) may have been made: "could not be restored" over what it
    /// moved was untrue (session 27). The server is asked where the receipt's purchases are, as the log-in transfer
    /// asks where the subscription is (found-by-hand/55): the reader's now, with none it could take left elsewhere,
    /// they are restored; unasked, it is not confirmed either way.
    private func restoreUnanswered(
        _ failure: BackendFailure, receipt: String, askedAs: String?, confirmMoveFromAccount: Bool,
        completion done: @escaping (RestoreOutcome) -> Void
    ) {
        let asked = storedAccess().identity
        // A guest on a new phone has no identity to ask as: what the server made for it is not this phone's to hold.
        guard asked != .none, askedAs == anonymousId else {
            log("restore failed: \(failure)")
            return done(.failed(message: "Your purchases could not be restored. Please try again later."))
        }
        log("restore unanswered (\(failure)): asking the server where the purchases are now")
        backend.inspectRestore(receipt) { [self] result in
            guard storedAccess().identity == asked else { return done(restoreNotAsked) }
            guard case .success(let purchases) = result else {
                log("where the purchases are could not be asked")
                reloadAccess()
                return done(.notConfirmed)
            }
            heardInspected(receipt, asked: asked, purchases)
            let active = purchases.filter(\.active)
            // The inspect answers as if a move from another account were confirmed: one the restore did not confirm
            // stays with that account whether or not the restore was made, so it says nothing of it. Counted, a
            // restore that gave the reader a second group's subscription was told "could not be restored" (fuzz
            // seed 1, h14 session 33, a .storekit file of two groups, one bought by another account).
            let leftByThisRestore = active.filter {
                $0.restorable && (confirmMoveFromAccount || $0.owner != "account")
            }
            guard active.contains(where: { $0.owner == "you" }), leftByThisRestore.isEmpty else {
                log("the server holds the purchases where they were: nothing was restored")
                reloadAccess()
                return done(.failed(message: "Your purchases could not be restored. Please try again later."))
            }
            log("the server restored them: the reader holds them now")
            reloadAccess { [self] list in
                guard storedAccess().identity == asked else { return done(restoreNotAsked) }
                guard let list, access.isSubscriber else { return done(.notConfirmed) }
                let running = list.subscriptions.filter(\.active)
                done(
                    Self.restored(
                        WhoPays.of(shared: running.filter { $0.familyShared == true }.count, of: running.count)))
            }
        }
    }

    /// What a restore another account or the phone's guest tapped ends in, for the account signed in since: it may
    /// tap it itself. Unless the reader holds levels by then: the sign-in's transfer gives the account the phone's
    /// subscription (or the account had its own), and "could not be restored" beside it told a failure of a purchase
    /// the reader held (fuzz seed 4151, h1 session 30): the restore ends without a word, the sign-in's is the news.
    var restoreNotAsked: RestoreOutcome {
        access.isSubscriber ? .overtaken : .failed(message: "Your purchases could not be restored. Please try again.")
    }

    /// "Your subscription is back." only when access came back: a restore of a subscription that ended
    /// or was refunded is "nothing valid to restore" (seed 001), whatever it moved.
    private func outcome(restored answer: RestoreAnswer) -> RestoreOutcome {
        let restored = answer.restored
        // Already this identity's (a purchase checked late, after the reader had given up on it): it is back here.
        if !answer.access.levels.isEmpty { return Self.restored(WhoPays.of(answer.access, brought: restored)) }
        if restored.isEmpty { return .nothingToRestore }
        if defect != .restoredWithoutAccess {
            log("restore: what this Apple ID bought has ended; nothing valid to restore")
            return .nothingValidToRestore
        }
        return .restored
    }

    /// Back, in the words the profile uses of who pays (`WhoPays`): a family member's purchase shared with the Apple ID
    /// is said to be the family's, not "your subscription" (session 33: the organiser restoring a member's plan, a
    /// member restoring the organiser's).
    static func restored(_ whose: WhoPays) -> RestoreOutcome {
        switch whose {
        case .own: .restored
        case .family: .sharedByFamily(alsoOwn: false)
        case .ownAndFamily: .sharedByFamily(alsoOwn: true)
        }
    }

    /// A signed-in reader may be asked to move another account's purchase; a guest may not.
    private func outcome(forRefusal code: String) -> RestoreOutcome {
        if code == "restore_needs_confirmation" && storage.accountSession != nil {
            return .confirmMoveFromAnotherAccount
        }
        // Planted: what the Apple ID bought has ended, and the reader is told it is back.
        if code == "nothing_valid_to_restore" && defect == .restoredWithoutAccess { return .restored }
        return RestoreOutcome.refusal(code)
    }
}
