/// Restore before purchase of what the phone's own guest holds: a reader who subscribed here without an account, then
/// logged in, is the owner of that subscription, not "someone else" (fuzz seed 4940, session 695). Seed 000: "With an
/// account, the app first asks the server whether this Apple ID already holds a subscription that can move to the
/// account, for example one bought earlier without an account. If so, the app moves it instead of charging again."
/// The server's check answers for the account and never names a guest, so a purchase of the group held by a guest,
/// which a restore here would refuse (a restore policy that keeps it with its owner, or moves it only once the owner
/// holds nothing active), may be the phone's guest's. Its move is a transfer with the guest's token, which the policy
/// does not govern (the phone proves it holds the guest), as the move the log-in offers is: the log-in offers it only
/// when the phone knows its guest holds levels, which a lost answer can keep from it.
extension SubscriptionCoordinator {
    /// Whether `active` (the Apple ID's active purchases of the offer's group, as the check answered) holds one a guest
    /// owns that a restore here would refuse, while the phone keeps a guest of its own whose move was not asked yet.
    func mayBeThePhonesGuests(_ active: [RestorablePurchase]) -> Bool {
        storage.accountSession != nil && storage.anonymousIdentity != nil && activePurchase?.guestMoveAsked == false
            && !transferInFlight && active.contains { $0.owner == "anonymous" && !$0.restorable }
    }

    /// Moves the phone's guest's purchases to the account: the group's among them is the account's now and nothing is
    /// charged; the guest holding none of it, the check's answer is judged as before (someone else's guest holds it).
    func moveGuestBeforePaying(_ offer: Offer, receipt: String, purchases: [RestorablePurchase], serial: Int) {
        guard let guest = storage.anonymousIdentity, let account = storage.accountSession?.identityId else {
            return reconcileBeforePaying(offer, receipt: receipt, purchases: purchases, serial: serial)
        }
        activePurchase?.guestMoveAsked = true
        let held = Set(
            purchases.filter { $0.active && $0.owner == "anonymous" && sameGroup($0.productId, as: offer) }
                .map(\.originalTransactionId))
        log("a guest holds this Apple ID's subscription, kept from a restore: moving the phone's guest to the account")
        backend.transfer(anonymousToken: guest.token) { [self] result in
            guard stillRuns(serial) else { return }
            guard storage.accountSession?.identityId == account else {
                // Signed out (or in as someone else) meanwhile: what moved is the account's that asked, not this
                // reader's; the phone forgets a guest that moved whole and shows what it holds now.
                if case .success(let answer) = result, answer.refusal == nil, storage.anonymousIdentity?.id == guest.id
                {
                    storage.anonymousIdentity = nil
                }
                log("the account that asked is no longer signed in: the purchase stops, nothing handed to Apple")
                reloadAccess()
                return finishPurchase(.cancelled)
            }
            switch result {
            case .success(let answer):
                if answer.refusal == nil, storage.anonymousIdentity?.id == guest.id { storage.anonymousIdentity = nil }
                save(answer.access)
                if answer.refusal != nil { reloadPhoneIdentity(clearingFirst: !answer.restored.isEmpty) }
                if !held.isDisjoint(with: answer.restored) {
                    log("the phone's guest held it: moved to the account instead of charging")
                    return finishPurchase(Self.insteadOfCharging(answer))
                }
                if answer.refusal == MoveRefusal.limit.rawValue {
                    log("the phone's guest holds it, and it moved too often to move now: nothing handed to Apple")
                    return finishPurchase(.guestMoveWaitsForTheLimit)
                }
                log("the phone's guest held none of it: it is someone else's")
                reconcileBeforePaying(offer, receipt: receipt, purchases: purchases, serial: serial)
            case .failure(.refused(_, "nothing_to_move")), .failure(.refused(_, "nothing_valid_to_move")):
                log("the phone's guest holds nothing to move: the subscription is someone else's")
                reconcileBeforePaying(offer, receipt: receipt, purchases: purchases, serial: serial)
            case .failure(let failure) where failure == .timedOut || failure == .unavailable:
                // The server may have moved it: asked where it is, as an unanswered restore before paying is.
                moveUnanswered(offer, failure, serial: serial)
            case .failure(let failure):
                log("the move of the phone's guest failed (\(failure)): nothing handed to Apple")
                finishPurchase(.moveNotMade)
            }
        }
    }
}

extension PurchaseOutcome {
    /// Restore before purchase: the phone's guest holds the subscription the Apple ID pays for, and the server refused
    /// its move to the account for the move limit: it is the reader's own, not "someone else's", and nothing was
    /// handed to Apple.
    public static let guestMoveWaitsForTheLimit = PurchaseOutcome.failed(
        message:
            "This Apple ID already pays for the subscription this phone holds without an account, but it has moved "
            + "too often recently to move to your account now: a subscription moves at most 3 times in 30 days. You "
            + "were not charged.")
}
