import AppFlow

/// Invariant 4's other half, a purchase ends (seed 000: a second payment is refused only "while one is running"):
/// once nothing is on its way (the world settled) and Apple shows no sheet, the app waits for no answer. A wait
/// left on screen then lasts for good, and every offer says a purchase is in progress (session 23: a plan change
/// Apple keeps for the next renewal answered with another product's transaction, and the paywall waited on).
enum WaitingCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning, world.device.queue.sheet == nil else { return [] }
        let state = world.appState
        let waits = state.purchase.map { "purchase of \($0.offerId)" } ?? state.operation
        guard let waits else { return [] }
        return [
            InvariantViolation(
                .onePaymentAtATime,
                "\(world.deviceName) waits for an answer with nothing on its way (\(waits)): \(world.screen.id.rawValue)"
                    + " shows \"\(world.screen.waiting ?? "")\" for good")
        ]
    }
}
