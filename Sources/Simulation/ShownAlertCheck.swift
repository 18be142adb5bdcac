import AppFlow

/// Invariant 9 on screen: an alert saying nothing was charged ("You were not charged", "Waiting for approval") is true
/// only while nothing is, so it is judged for as long as it stays up, not only when told. A payment of the phone
/// charged while it was up (a held payment settled: a parent's approval, an interruption resolved outside the app)
/// left the reader reading "You were not charged" over the article the charge unlocked (session 26). An alert about
/// one product's payment is judged by that product's charges: a code for another plan redeemed on the App Store while
/// "Waiting for approval" was up does not settle the request (food-truck fixture, fuzz seed 1, session 27).
struct ShownAlertCheck {
    /// The alerts saying nothing was charged that were up (shown, or next in turn) when the world last settled, on
    /// which phone and launch of the app, and the charges made by then.
    private var up: [Alert] = []
    private var app: (device: String, launch: Int)?
    private var seenCharges: Set<String>?

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled else { return [] }
        let charges = Set(context.charged.map(\.transactionIdentifier))
        let before = seenCharges ?? charges
        seenCharges = charges
        guard world.isAppRunning else {
            up = []
            return []
        }
        let earlier = app.map { $0 == (world.deviceName, world.currentLaunch) } == true ? up : []
        app = (world.deviceName, world.currentLaunch)
        let state = world.appState
        up = ([state.alert].compactMap { $0 } + state.alertsWaiting).filter { $0.charge == .nothing }
        let deviceId = world.device.queue.deviceId
        let fresh = context.charged.filter {
            !before.contains($0.transactionIdentifier) && $0.deviceId == deviceId && $0.transactionReason == "PURCHASE"
                && !$0.isFamilyShared
        }
        guard
            let (stale, charge) = earlier.filter(up.contains).lazy.compactMap({ alert in
                fresh.first { alert.productId == nil || alert.productId == $0.productIdentifier }.map { (alert, $0) }
            }).first
        else { return [] }
        return [
            InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) still shows \"\(stale.title)\": \(stale.message) after Apple charged "
                    + "\(charge.appleId) for \(charge.productIdentifier) (transaction \(charge.transactionIdentifier))")
        ]
    }
}
