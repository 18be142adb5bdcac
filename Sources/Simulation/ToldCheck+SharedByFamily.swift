import AppFlow
import StoreSim
import Subscriptions

/// Invariant 9 of who paid, as the profile says it: "Subscribed on this phone" where every purchase that gives the
/// phone access is a family member's, shared with an Apple ID (Apple's FAMILY_SHARED), or a plan said "Shared by your
/// family" that is no share. A member who restored the purchaser's plan read that they had subscribed (session 31, h10).
extension ToldCheck {
    static func whoPaidViolation(_ world: World) -> InvariantViolation? {
        let running = world.appState.profileSubscriptions.filter(\.active)
        guard !running.isEmpty else { return nil }
        let shares = Set(
            world.appleIds.flatMap { world.store.familySharedTransactions(appleId: $0) }
                .map(\.originalTransactionIdentifier))
        let isShare = { (shown: SubscriptionSummary) in shown.originalTransactionId.map(shares.contains) ?? false }
        let texts = world.screen.rows.map(\.text)
        if texts.contains(where: { $0.hasPrefix("Subscribed on this phone") }), running.allSatisfy(isShare) {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName)'s profile says \"Subscribed on this phone\", but "
                    + running.map { "\($0.productId) (\($0.originalTransactionId ?? "?"))" }.joined(separator: ", ")
                    + " is a family member's purchase shared with it: nobody on the phone subscribed")
        }
        if let paid = running.first(where: { $0.familyShared == true && !isShare($0) }),
            texts.contains(where: { $0.hasPrefix("Shared by your family: the family member") })
        {
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName)'s profile says \(paid.productId) (\(paid.originalTransactionId ?? "?")) is shared "
                    + "by the family, but it is no family share: its Apple ID paid for it")
        }
        return nil
    }
}
