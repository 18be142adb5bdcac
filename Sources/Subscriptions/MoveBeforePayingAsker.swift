/// Restore before purchase moves what the Apple ID pays for to whom the purchase was asked for, as a restore does
/// (`RestoreFlow`): an account that signed in while the check before paying was on its way did not ask. A guest's
/// purchase whose family share was brought by a restore sent as the account signed in since moved the share from
/// another phone's guest to that account, a move nobody asked for (long fuzz seed 1934). The account takes the phone's
/// guest's purchases by the transfer its sign-in offers, or asks itself with its own tap; the guest's purchase stops,
/// nothing handed to Apple. An account's purchase may still go on as the phone's guest (its session ended meanwhile).
extension SubscriptionCoordinator {
    /// True, the purchase stopped, when an account other than the one that asked for the purchase is signed in now.
    func stopsForAnotherAsker() -> Bool {
        guard let purchase = activePurchase, let now = storage.accountSession?.identityId, now != purchase.askedBy
        else { return false }
        log("an account signed in since the purchase was asked for: nothing moves to it, nothing handed to Apple")
        finishPurchase(.cancelled)
        return true
    }
}
