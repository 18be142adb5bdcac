import AppFlow
import SimKernel
import StoreSim

/// Invariant 9 of the profile's billing words after a recovery: once settled, a subscription of the phone's Apple ID
/// that Apple renewed while this launch of the app observed (a billing recovery, in the grace period or past it, is
/// delivered to the running app's observer) is not said on the profile to have failed to renew ("Apple is retrying",
/// "Update it in the App Store") while Apple holds it active. A recovery within the grace period reached nothing: a
/// profile kept open through it said Apple was retrying, and asked for a payment method that had just paid, until the
/// app next asked the server (found-by-hand/524, session 42). A fault since the renewal excuses it: a phone whose check
/// failed learns it when it next asks.
struct RecoveryShownCheck {
    /// When Apple last renewed each subscription (`WorldEvent.renewalCharged`), by original transaction id.
    private var renewedAt: [String: SimInstant] = [:]

    mutating func renewed(_ originalTransactionId: String, at instant: SimInstant) {
        renewedAt[originalTransactionId] = instant
    }

    func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning, world.visibleScreenID == .profile,
            let launched = world.device.queue.observingSince
        else { return [] }
        for shown in world.appState.profileSubscriptions where shown.billingIssue {
            guard let original = shown.originalTransactionId, let renewed = renewedAt[original], renewed >= launched,
                !context.faultSince(renewed),
                let running = world.store.subscription(originalTransactionId: original),
                running.appleId == world.appleId, running.state == .active
            else { continue }
            return [
                InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName)'s profile says the renewal of \(shown.productId) (\(original)) failed, but "
                        + "Apple renewed it at \(renewed), while the app ran, and holds it active")
            ]
        }
        return []
    }
}
