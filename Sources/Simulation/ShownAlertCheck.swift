import AppFlow

/// Invariant 9 on screen: an alert saying nothing was charged ("You were not charged", "Waiting for approval") is true
/// only while nothing is, so it is judged for as long as it stays up, not only when told. A payment of the phone
/// charged while it was up (a held payment settled: a parent's approval, an interruption resolved outside the app)
/// left the reader reading "You were not charged" over the article the charge unlocked (session 26). An alert about
/// one product's payment is judged by that product's charges: a code for another plan redeemed on the App Store while
/// "Waiting for approval" was up does not settle the request (food-truck fixture, fuzz seed 1, session 27). And an
/// alert saying a request waits for a parent is true only while one does: a request of the phone's a parent declined
/// while "Waiting for approval" was up left the reader waiting for nothing (session 27). A request whose end Apple tells
/// the app nothing of (a switch on the manage sheet, numbered 0, declined; a request that lapsed) is judged from the
/// app's next becoming active on, when it can read the store's requests again: a declined switch was said to wait for
/// good (session 28). "Purchase in progress" is true only while a purchase runs, "Purchases are off" only while the
/// phone cannot pay (session 28).
struct ShownAlertCheck {
    /// The alerts saying nothing was charged that were up (shown, or next in turn) when the world last settled, on
    /// which phone and launch of the app, and the charges made by then.
    private var up: [Alert] = []
    private var app: (device: String, launch: Int)?
    private var seenCharges: Set<String>?
    /// The alerts saying a request waits for a parent that were up when the world last settled, and the phone's
    /// requests waiting then.
    private var waitingUp: [Alert] = []
    /// The phone's requests waiting then, each with its payment's number (0: a switch on the manage sheet).
    private var requestsWaiting: [String: Int] = [:]
    /// The timeline's event count when a request ended that the app was told nothing of, while a waiting alert was up:
    /// an activation recorded after it is when the app could have read the store's requests again.
    private var untoldEndAt: Int?

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled else { return [] }
        let charges = world.chargedIds.ids(of: context.charged)
        let before = seenCharges ?? charges
        seenCharges = charges
        let requestsBefore = requestsWaiting
        let deviceId = world.device.queue.deviceId
        requestsWaiting = Dictionary(
            world.store.pendingAskToBuy.filter { $0.deviceId == deviceId }.map { ($0.identifier, $0.paymentNumber) },
            uniquingKeysWith: { first, _ in first })
        guard world.isAppRunning else {
            up = []
            waitingUp = []
            untoldEndAt = nil
            return []
        }
        let sameApp = app.map { $0 == (world.deviceName, world.currentLaunch) } == true
        let earlier = sameApp ? up : []
        let waitingEarlier = sameApp ? waitingUp : []
        if !sameApp { untoldEndAt = nil }
        app = (world.deviceName, world.currentLaunch)
        let state = world.appState
        let shown = [state.alert].compactMap { $0 } + state.alertsWaiting
        // An alert that holds only while a purchase runs, or while the phone cannot pay, is untrue once the world
        // settled without it: "Purchase in progress" stayed over the article its purchase unlocked (session 28).
        if let untrue = shown.first(where: {
            $0.holdsWhile == .purchaseRunning && state.purchase == nil
                || $0.holdsWhile == .paymentsOff && world.canMakePayments
        }) {
            let now = untrue.holdsWhile == .paymentsOff ? "the phone can pay" : "no purchase runs"
            return [
                InvariantViolation(
                    .toldIsTrue, "\(world.deviceName) still shows \"\(untrue.title)\": \(untrue.message) when \(now)")
            ]
        }
        up = shown.filter { $0.charge == .nothing }
        waitingUp = shown.filter { $0.parentRequest == .waiting }
        let fresh = context.charged.filter {
            !before.contains($0.transactionIdentifier) && $0.deviceId == deviceId && $0.transactionReason == "PURCHASE"
                && !$0.isFamilyShared
        }
        if let (stale, charge) = earlier.filter(up.contains).lazy.compactMap({ alert in
            fresh.first { alert.productId == nil || alert.productId == $0.productIdentifier }.map { (alert, $0) }
        }).first {
            return [
                InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName) still shows \"\(stale.title)\": \(stale.message) after Apple charged "
                        + "\(charge.appleId) for \(charge.productIdentifier) (transaction \(charge.transactionIdentifier))"
                )
            ]
        }
        // A request of the phone's answered with none of the Apple ID's left waiting: "Waiting for approval" says
        // something no longer true, at once where Apple tells the app the answer, else once the app became active.
        let lapsed = Set(world.store.lapsedRequests.map(\.identifier))
        let ended = requestsBefore.filter { requestsWaiting[$0.key] == nil }
        let told = ended.filter { $0.value > 0 && !lapsed.contains($0.key) }.keys.sorted()
        let events = world.timeline.events
        if waitingUp.isEmpty {
            untoldEndAt = nil
        } else if ended.count > told.count, untoldEndAt == nil {
            untoldEndAt = events.count
        }
        let activeSince =
            untoldEndAt.map { start in
                events[min(start, events.count)...].contains {
                    if case .becameActive(deviceId, _) = $0.event { true } else { false }
                }
            } ?? false
        guard !told.isEmpty || activeSince,
            let stale = waitingEarlier.first(where: waitingUp.contains),
            !world.store.pendingAskToBuy.contains(where: { $0.appleId == world.appleId })
        else { return [] }
        let answer =
            told.first.map { "a parent answered its request \($0)" }
            ?? "the app became active since its request ended unannounced (declined on Apple's sheet, or lapsed)"
        return [
            InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) still shows \"\(stale.title)\": \(stale.message) after \(answer), and no request of "
                    + "\(world.appleId) waits")
        ]
    }
}
