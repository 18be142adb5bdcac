/// Restore before purchase for a guest, of what the family shares: a family member without an account, whose Apple ID
/// the family already shares a plan of the group with, was sent to Apple's sheet and charged for it (session 34): Apple
/// charges a member's own Apple ID for a plan the family gives it. Before a guest's payment of a group StoreKit says the
/// family shares with the Apple ID (`familySharedEntitlements`, read on the phone), the server is asked what the phone's
/// receipt holds (the App Store keeps a member's receipt listing the family's shares, as Apple does: no refresh); the
/// family's share of the group is brought here instead of charging, or, where a restore here would
/// refuse it, the reader is told why. Anything else (no share on the receipt, no answer) goes on to pay as before: a
/// guest's own purchase held elsewhere is Apple's "already subscribed", which charges nothing.
extension SubscriptionCoordinator {
    /// Whether a purchase of `offer` first asks the server about the family's share of its group: a guest's (a
    /// signed-in reader's check before paying asks of everything) where StoreKit says the family shares a plan of the
    /// group with this Apple ID (a plan the paywall does not know is taken as of the group, as `sameGroup` takes it).
    func asksForFamilyShare(_ offer: Offer) -> Bool {
        storage.accountSession == nil && defect != .skipRestoreBeforePurchase
            && store.familySharedEntitlements.contains { sameGroup($0, as: offer) }
    }

    /// The server said what the receipt holds: an active family share of the offer's group comes here, unpaid.
    func reconcileFamilyShare(_ offer: Offer, receipt: String, purchases: [RestorablePurchase], serial: Int) {
        let shares = purchases.filter { $0.active && $0.familyShared == true && sameGroup($0.productId, as: offer) }
        guard !shares.isEmpty else { return pay(offer) }
        if stopsForAnotherAsker() { return }
        guard shares.contains(where: { $0.owner == "you" || $0.restorable }) else {
            let why = Self.refusalHere(shares) ?? .accountOwned
            log("the family shares this subscription with this Apple ID, held where it cannot come (\(why.rawValue))")
            return finishPurchase(.sharedHeldElsewhere(why))
        }
        log("the family already shares this subscription with this Apple ID: bringing it here instead of charging")
        let asked = storedAccess().identity
        let guest = anonymousId
        backend.restore(receipt, confirmMoveFromAccount: false) { [self] restored in
            // What the server said of the guest is kept whoever signed in since and whatever became of the purchase, as a
            // restore's answer is: the guest stays on the phone beside an account, a log-out shows it again and the
            // next sign-in offers to move what it holds (long fuzz 2240: dropped, the share stayed on a guest nobody was
            // asked to move).
            if case .success(let answer) = restored { save(answer.access, askedAs: guest) }
            guard stillRuns(serial) else { return }
            guard storedAccess().identity == asked || storage.accountSession == nil else {
                // Signed in while the server answered: the purchase was the guest's, who did not stay on screen.
                log("the reader signed in while the share was brought: the purchase stops, nothing handed to Apple")
                // A lost answer may have brought the share: the guest is asked again.
                if case .failure = restored { reloadPhoneIdentity(clearingFirst: false) }
                return finishPurchase(.cancelled)
            }
            switch restored {
            case .success(let answer) where !answer.access.levels.isEmpty:
                finishPurchase(.sharedInsteadOfCharging)
            case .success(let answer):
                log("the share brought no access (\(answer.refusal ?? "nothing granted")): nothing handed to Apple")
                finishPurchase(.shareNotBrought)
            case .failure(let failure):
                // The server may have brought it (an answer lost): the phone asks again what it holds.
                log("bringing the share failed (\(failure)): nothing handed to Apple")
                reloadAccess()
                finishPurchase(.shareNotBrought)
            }
        }
    }
}
