import AppFlow
import SimKernel
import StoreSim

/// Invariant 9 of the profile's renewal words against the storefront: a plan line says a subscription renews ("renews
/// on", "switches to … on") only where the plan Apple renews it as is sold in the App Store's storefront. Apple ends it
/// otherwise (EXPIRED/PRODUCT_NOT_FOR_SALE), and its manage sheet says so. A yearly plan bought in the United States,
/// then the storefront moved to France, which does not sell it, was said to renew on the profile: the app read only a
/// plan change waiting, not the plan itself (session 39; a switch to such a plan, session 27).
///
/// Judged once settled, at every step the profile is up, whatever changed: the line is judged only where the list the
/// profile shows agrees with Apple on the plan it renews as and that it renews, so what is left is whether the plan is
/// sold here, which the app learns from its products answer. The app asks only for the owner's products, and learns
/// nothing where its products request failed since it last asked in this storefront and language, in this launch.
/// Lines are matched by date: one is a plan said to renew only where such lines outnumber the other subscriptions the
/// profile may list of that date (session 40). A renewal that failed is judged too: retried as a plan not sold here,
/// "Apple is retrying" promised a renewal where Apple ends it once the payment goes through (session 40).
struct UnsoldRenewalCheck {
    /// What the running app's products answers are of: the phone, its launch, the storefront and the language.
    private var askedOf: (device: String, launch: Int, storefront: String, locale: String)?
    /// When `askedOf` last changed (the start of the step that changed it): an answer after it is of them.
    private var askedSince = SimInstant(milliseconds: 0)
    /// When a fault last failed a products request (or sent back part of an answer).
    private var productsFault: SimInstant?

    mutating func productsFaultFired(at instant: SimInstant) { productsFault = instant }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        let now = (world.deviceName, world.currentLaunch, world.storefront, world.locale)
        if askedOf.map({ $0 != now }) ?? true {
            askedOf = now
            askedSince = context.began
        }
        guard context.settled, world.isAppRunning, world.visibleScreenID == .profile,
            productsFault.map({ $0 < askedSince }) ?? true
        else { return [] }
        let state = world.appState
        let rows = world.screen.rows.map(\.text)
        let configured = Set(world.config.app.subscriptions.map(\.productId))
        let unsold = state.profileSubscriptions.filter { shown in
            // Running, or retried after a failed renewal (which, paid, would renew it as that plan).
            guard shown.autoRenew, shown.billingIssue || !state.pastItsEnd(shown),
                let original = shown.originalTransactionId, shown.expires != nil,
                let running = world.store.subscription(originalTransactionId: original), running.isRunning,
                shown.billingIssue == (running.state == .billingRetry || running.state == .gracePeriod),
                running.autoRenew, running.autoRenewProductId == shown.renewsAs ?? shown.productId,
                configured.contains(running.autoRenewProductId)
            else { return false }
            return !world.store.sells(running.autoRenewProductId)
        }
        for shown in unsold {
            // What the reader reads of its date: lines saying a plan renews then. Lines are matched by date, and
            // another subscription of the same date may truly say so (an account's own plan beside a phone's code
            // of the same month, long 1939): only more such lines than those others is a plan said to renew.
            let date = SimInstant(milliseconds: shown.expires ?? 0).dateDescription
            let said = rows.filter { text in
                shown.billingIssue
                    // Retried: "Apple is retrying" promises a renewal once the payment goes through (session 40).
                    ? text.contains("failed on \(date); ")
                        && (text.contains("Apple is retrying") || text.contains("Apple retries"))
                    : text.contains("renews on \(date)")
                        || (text.contains("switches to") && text.contains(" on \(date)"))
            }
            let others = state.profileSubscriptions.filter { other in
                !unsold.contains(other) && other.expires.map { SimInstant(milliseconds: $0).dateDescription } == date
            }
            guard said.count > others.count, let original = shown.originalTransactionId,
                let running = world.store.subscription(originalTransactionId: original)
            else { continue }
            return [
                InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName)'s profile says \"\(said[others.count])\", but the storefront "
                        + "\(world.storefront) does not sell \(running.autoRenewProductId): Apple ends \(original) then"
                )
            ]
        }
        return []
    }
}
