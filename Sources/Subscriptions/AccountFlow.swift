import SimKernel

/// How logging in, signing up, transferring and logging out ended, in the reader's terms.
public enum AccountOutcome: Equatable, Sendable {
    /// Signed in; `offerTransfer` when this phone holds an anonymous subscription the account could take.
    /// `moveRefusedUntil`: the phone holds one, and the server said its move would be refused for the move limit (3
    /// moves in 30 days) until then: the reader is told so, not offered the move.
    case signedIn(offerTransfer: Bool, moveRefusedUntil: SimInstant? = nil)
    /// The phone's subscription moved to the account; `moved`: whose it is, the family's told as the family's.
    case transferred(moved: WhoPays)
    case loggedOut
    /// Logging out while anonymous: nothing to do, said plainly.
    case notLoggedIn
    /// The server refused the session's refresh token: the reader was signed out without asking.
    case sessionEnded(email: String)
    /// Part of the phone's subscriptions moved (`moved`: whose), and the server refused the rest for `refusal`'s code
    /// (the move limit): "stays on this phone" of all of it was untrue of what moved (session 34).
    case partlyTransferred(moved: WhoPays, refusal: String)
    /// The phone's subscription had ended: nothing moved, and the phone keeps its guest with what it holds now.
    case nothingValidToMove
    case failed(message: String)
}

/// Accounts on the phone: log in, sign up, move an anonymous subscription to the account, log out.
extension SubscriptionCoordinator {
    public func logIn(email: String, password: String, completion: @escaping (AccountOutcome) -> Void) {
        signIns += 1
        let attempt = signIns
        // The same words as the latest log-in: one request to the reader (`SameLogIns`).
        if var same = sameLogIns, same.isSame(email: email, password: password) {
            same.sentAgain(attempt)
            sameLogIns = same
        } else {
            sameLogIns = SameLogIns(email: email, password: password, attempt: attempt)
        }
        let guest = storage.anonymousIdentity
        backend.logIn(email: email, password: password, anonymousToken: guest?.token) { [self] result in
            let current = sameLogIns?.latest == signIns && signInTaken < signIns
            let waits = defect != .sameLogInRefusedEarly
            switch sameLogIns?.answer(attempt, result, current: current, waits: waits) {
            case .latest(let answer):
                if attempt != signIns, case .success = answer {
                    log("the same log-in was sent again: this one's acceptance answers it")
                } else if attempt != signIns {
                    log("none of the same log-ins was accepted: the latest's refusal is told")
                }
                signedIn(answer, attempt: signIns, guest: guest?.id, completion: completion)
            case .held:
                log("the same log-in is still on its way: this refusal waits for its answer")
            case .own, nil:
                signedIn(result, attempt: attempt, guest: guest?.id, completion: completion)
            }
        }
    }

    public func signUp(email: String, password: String, completion: @escaping (AccountOutcome) -> Void) {
        signIns += 1
        let attempt = signIns
        let guest = storage.anonymousIdentity
        backend.signUp(email: email, password: password, anonymousToken: guest?.token) { [self] result in
            signedIn(result, attempt: attempt, guest: guest?.id, completion: completion)
        }
    }

    /// Only the latest sign-in counts: a reader who logged in, then signed up as someone else before the
    /// first answer came, is the second; the first answer, arriving late, is dropped.
    /// `guest`: the phone's guest whose token the sign-in carried, whose move the answer speaks of.
    private func signedIn(
        _ result: Result<SessionAnswer, BackendFailure>, attempt: Int, guest: String?,
        completion: @escaping (AccountOutcome) -> Void
    ) {
        guard attempt == signIns, signInTaken < attempt else {
            log(
                attempt == signIns
                    ? "the same log-in's earlier acceptance answered it: this answer is dropped"
                    : "a later sign-in came first: this one's answer is dropped")
            // About the account still signed in, it may be the newest word (the subscription ended since the
            // answer that was kept): its fresh tokens are kept and the levels asked again, not dropped with it.
            if case .success(let signIn) = result, var session = storage.accountSession,
                signIn.access.identityId == session.identityId
            {
                session.token = signIn.access.token ?? session.token
                session.refreshToken = signIn.refreshToken
                storage.accountSession = session
                reloadAccess()
            }
            return
        }
        signInTaken = attempt
        defer { runAfterSignIn() }
        switch result {
        case .success(let signIn):
            let answer = signIn.access
            let word = newestAnswer(signingIn: answer)
            // The server's word on moving the guest it was asked about, if the phone still holds that guest: kept
            // with it, as its own answers keep it (`save`).
            if let guest, storage.anonymousIdentity?.id == guest {
                storage.anonymousIdentity?.transferRefusedUntil = signIn.guestTransferRefusedUntil?.milliseconds
            }
            storage.accountSession = AccountSession(
                identityId: answer.identityId, email: answer.email ?? "", token: answer.token ?? "",
                refreshToken: signIn.refreshToken, levels: word.levels)
            storage.accountSession?.appAccountToken = word.appAccountToken ?? answer.appAccountToken
            storage.accountSession?.levelsUntil = word.levelsUntil?.milliseconds
            log("signed in as \(answer.email ?? answer.identityId)")
            publishStoredAccess()
            askAgainIfHeardLate(until: word.levelsUntil?.milliseconds)
            // The profile's list of subscriptions came with the older answer: asked again with the newer word.
            if word != answer { reloadAccess() }
            if revocationUnasked {
                revocationUnasked = false
                log("a family share Apple took back while signed out: asking the server, reading Apple's records")
                reloadAccess(askingApple: true)
            }
            if let subscriptions = signIn.subscriptions {
                onSubscriptionsListed?(
                    SubscriptionList(identity: storedAccess().identity, subscriptions: subscriptions))
            }
            // The levels the phone shows for its guest: none past their end when the server could not be asked.
            let anonymousLevels = storage.anonymousIdentity.map { onWord($0.levels, until: $0.levelsUntil) } ?? []
            // Past the move limit the server refuses the move: the reader is told when it can be made instead.
            let refusedUntil = anonymousLevels.isEmpty ? nil : access.moveRefusedUntil
            completion(
                .signedIn(
                    offerTransfer: !anonymousLevels.isEmpty && refusedUntil == nil && defect != .skipTransferOffer,
                    moveRefusedUntil: refusedUntil))
        case .failure(.unauthorized):
            completion(.failed(message: "The email or the password is not right."))
        case .failure(.refused(_, "email_taken")):
            completion(.failed(message: "An account with this email already exists. Log in instead."))
        case .failure(.refused(_, "email_invalid")):
            completion(.failed(message: "Please enter a valid email address."))
        case .failure(.refused(_, "password_too_short")):
            completion(.failed(message: "Choose a password of at least 8 characters."))
        case .failure:
            completion(.failed(message: "The service could not be reached. Please try again."))
        }
    }

    /// Moves this phone's anonymous subscription to the signed-in account, clears the anonymous
    /// state, and reloads the account.
    public func transferAnonymousPurchases(completion: @escaping (AccountOutcome) -> Void) {
        guard storage.accountSession != nil, let anonymous = storage.anonymousIdentity else {
            return completion(.failed(message: "There is no subscription on this phone to move."))
        }
        // A second tap while the move is on its way joins it: one move for one subscription.
        guard !transferInFlight else {
            transferJoined = (storage.accountSession?.identityId, completion)
            return log("transfer: one is already on its way; this tap waits for it")
        }
        transferInFlight = true
        let completion = { [self] (outcome: AccountOutcome) in
            transferInFlight = false
            transferJoined = nil
            completion(outcome)
        }
        let account = storage.accountSession?.identityId
        backend.transfer(anonymousToken: anonymous.token) { [self] result in
            guard storage.accountSession?.identityId == account else {
                // The reader logged out (or in as someone else) before the answer: "All set" would speak of
                // an account this phone no longer holds. The move stands on the server; the phone forgets the
                // identity it moved from and shows what it holds now.
                transferInFlight = false
                if case .success(let answer) = result, answer.refusal == nil {
                    storage.anonymousIdentity = nil
                    publishStoredAccess()
                }
                log("transfer answered after the account left this phone: nothing to tell here")
                // The account signed in now tapped while it was on its way: its move was never asked.
                let joined = transferJoined
                transferJoined = nil
                guard let joined, let now = storage.accountSession?.identityId, joined.account == now else { return }
                log("a tap of the account signed in now waited for it: asking its move")
                return transferAnonymousPurchases(completion: joined.completion)
            }
            switch result {
            case .success(let answer) where answer.refusal == nil:
                storage.anonymousIdentity = nil
                save(answer.access)
                log("anonymous subscription moved to the account")
                // The planted defect is the app before session 24 too: a move that brought no level was told ended.
                let saidEnded = defect == .transferMovesEnded && answer.access.levels.isEmpty
                completion(
                    saidEnded
                        ? .nothingValidToMove : .transferred(moved: WhoPays.of(answer.access, brought: answer.restored))
                )
            case .success(let answer):
                save(answer.access)
                // Refused whole (three moves in 30 days), nothing left the phone: its levels stay shown while it is
                // asked again, and no cached article of a reader who kept access is deleted.
                reloadPhoneIdentity(clearingFirst: !answer.restored.isEmpty)
                guard answer.restored.isEmpty, let refusal = answer.refusal else {
                    log("part of the phone's subscriptions moved to the account; the rest was refused")
                    return completion(
                        .partlyTransferred(
                            moved: WhoPays.of(answer.access, brought: answer.restored), refusal: answer.refusal ?? ""))
                }
                completion(.failed(message: Self.notMoved(RestoreOutcome.refusal(refusal).message)))
            case .failure(.refused(_, "nothing_valid_to_move")):
                // Ended (refunded, expired): it stays with the phone's guest, whose levels are asked again, so the
                // phone stops offering to move what is not there.
                log("transfer: the subscription on this phone has ended; nothing moved")
                reloadPhoneIdentity()
                completion(.nothingValidToMove)
            case .failure(.refused(_, "nothing_to_move")):
                // The guest holds nothing, and nothing it held gives this account access: a move whose answer was
                // lost is answered again as it was (`POST /v1/transfers`), so this one moved nothing. Both identities
                // are asked again for the profile; "All set" guessed from the account's whole list told a family
                // share's move as the reader's own plan (fuzz long 1645).
                log("transfer: the phone's guest holds nothing to move; asking again what each identity holds")
                reloadAccess()
                completion(
                    .failed(
                        message: "There was no subscription on this phone to move: it may already be on an "
                            + "account. Your profile shows what you hold."))
            case .failure(.refused(_, let code)):
                completion(.failed(message: Self.notMoved(RestoreOutcome.refusal(code).message)))
            case .failure(let failure):
                // No answer (a timeout, a lost answer, a 500): the server may have moved it. Both identities are asked
                // again, and the profile shows where it is; "it stays on this phone" was untrue of a lost answer.
                log("transfer unanswered: \(failure); asking where the subscription is now")
                reloadAccess()
                completion(
                    .failed(
                        message: "The move to your account could not be confirmed. "
                            + "Your profile shows where your subscription is now."))
            }
        }
    }

    /// A transfer that did not happen: the reader keeps reading, and learns where the subscription is.
    static func notMoved(_ why: String) -> String {
        why + " Your subscription stays on this phone; Profile offers to move it again."
    }

    /// Logs out of the account: its levels and cached full content leave the phone. Anonymous: nothing to do.
    public func logOut() -> AccountOutcome {
        guard let session = storage.accountSession else {
            log("log out: not logged in, nothing to do")
            return .notLoggedIn
        }
        storage.accountSession = nil
        let kept = Set(storage.anonymousIdentity?.levels ?? [])
        for level in session.levels where !kept.contains(level) { storage.purgeContent(level: level) }
        log("logged out of \(session.email)")
        publishStoredAccess()
        return .loggedOut
    }
}
