import SimKernel
import Subscriptions

/// Invariant 11's other end of a request: seed 000's "if it failed or was cancelled: tell Apple, and stop", and the
/// README's "a parent's decline is told too ("Not approved")". A parent's "no" to a request the phone's app asked,
/// heard while that launch runs, ends in the reader being told, once the world settled. The reader had read "Waiting for
/// approval: it will go through as soon as they approve"; a restart in between left the new launch hearing only a failed
/// payment, and the reader was never told it would not (session 39, found-by-hand/489).
struct DeclineToldCheck {
    private struct Decline {
        let device: String
        let launch: Int
        let productId: String
        let at: SimInstant
    }

    private var open: [Decline] = []

    /// A decline the store recorded: judged only where the asking phone's app ran, with no quit since it.
    mutating func declined(_ productId: String, deviceId: String, at: SimInstant, world: World) {
        guard let device = world.deviceName(ofStoreDevice: deviceId), device == world.deviceName, world.isAppRunning,
            world.lastAppQuit.map({ $0 < at }) ?? true
        else { return }
        open.append(Decline(device: device, launch: world.currentLaunch, productId: productId, at: at))
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, !open.isEmpty else { return [] }
        defer { open = [] }
        return open.compactMap { decline in
            // The launch that heard it was quit, or another phone is on screen: not this launch's to tell.
            guard decline.device == world.deviceName, world.isAppRunning, world.currentLaunch == decline.launch
            else { return nil }
            let told = world.readerOutcomes.contains { outcome in
                outcome.device == decline.device && outcome.at >= decline.at && outcome.told == .purchase(.declined)
            }
            if told { return nil }
            return InvariantViolation(
                .noSilentCharge,
                "a parent declined the request for \(decline.productId) that \(decline.device)'s app asked, and the "
                    + "running app told the reader nothing of it")
        }
    }
}
