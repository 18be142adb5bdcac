import AppFlow
import BackendSim
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9 of the profile's words of a free trial: a plan line says "renews on" its date only of a subscription
/// whose period then is not a free trial, and "free trial ends on" only of one whose period is. Apple's sheet says
/// "Free trial ends on …, then $39.99 per year" (session 41); the profile said "renews on" of the same day, the server
/// knowing no trial from a renewal (session 44).
///
/// Judged once settled, at every step the profile is up, for each plan it lists as running on its own plan (auto-renew
/// on, no failed renewal, no switch or raised price waiting, sold here) where Apple holds the same: the server's answer
/// is of the period Apple runs now (the same end), and the server still holds what it answered (news heard after it
/// answered shows when the profile loads again), none of Apple's news of it held back by a fault. Lines are matched by
/// date, as `UnsoldRenewalCheck` matches them: only more such lines than the other plans of that date break it.
enum TrialToldCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning, world.visibleScreenID == .profile else { return [] }
        let state = world.appState
        let listed = state.profileSubscriptions.filter { $0.active || $0.billingIssue }
        var judged: [(shown: SubscriptionSummary, trial: Bool)] = []
        for shown in listed {
            guard let trial = appleTrial(shown, world) else { continue }
            judged.append((shown, trial))
        }
        let rows = world.screen.rows.map(\.text)
        for (shown, trial) in judged {
            let date = SimInstant(milliseconds: shown.expires ?? 0).dateDescription
            // By the day the line reads, not the millisecond: two plans ending the same day read alike (seed 5's
            // 1939th session: a guest's own free code beside the account's paid plan, a second apart).
            let sameDay = judged.filter { SimInstant(milliseconds: $0.shown.expires ?? 0).dateDescription == date }
            let others = listed.count - judged.count
            let told = trial ? "renews on \(date)" : "free trial ends on \(date)"
            let said = rows.filter { $0.contains(told) }
            guard said.count > sameDay.filter({ $0.trial != trial }).count + others else { continue }
            let truth = trial ? "a free trial Apple ends then, charging the plan" : "a paid period, not a trial"
            return [
                InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName)'s profile says \"\(said[0])\" of \(shown.productId), but its period now is "
                        + "\(truth) (\(shown.originalTransactionId ?? "?"))")
            ]
        }
        return []
    }

    /// Whether Apple holds `shown`'s period now as a free trial, where the line is judged; nil where it is not.
    private static func appleTrial(_ shown: SubscriptionSummary, _ world: World) -> Bool? {
        let state = world.appState
        guard shown.active, !shown.billingIssue, shown.autoRenew, shown.renewsAs == nil,
            shown.priceConsentPending != true, shown.familyShared != true, !state.pastItsEnd(shown),
            !state.renewalNotSoldHere(shown), let original = shown.originalTransactionId, let expires = shown.expires,
            !world.store.newsWithheld.contains(original),
            let running = world.store.subscription(originalTransactionId: original), running.state == .active,
            running.autoRenew, running.productId == shown.productId, running.autoRenewProductId == shown.productId,
            running.priceIncreaseStatus != 0, running.expiresDate.milliseconds == expires
        else { return nil }
        // The server's word now: one that heard otherwise since it answered is shown at the profile's next load.
        let held: PurchaseRecord?
        do {
            held = try world.backend.ledger.purchase(original)
        } catch {
            return nil
        }
        guard let held, held.inFreeTrial == (shown.inFreeTrial == true) else { return nil }
        return world.store.inFreeTrial(running)
    }
}
