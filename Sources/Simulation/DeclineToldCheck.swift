import SimKernel
import Subscriptions

/// Invariant 11's other end of a request: seed 000's "if it failed or was cancelled: tell Apple, and stop", and the
/// README's "a parent's decline is told too ("Not approved")". A parent's "no" to a request the phone's app asked,
/// heard while that launch runs, ends in the reader being told, once the world settled. The reader had read "Waiting for
/// approval: it will go through as soon as they approve"; a restart in between left the new launch hearing only a failed
/// payment, and the reader was never told it would not (session 39, found-by-hand/489). A decline no app of the phone
/// heard (killed, or another phone on screen) is that phone's next launch's to tell (found-by-hand/490).
struct DeclineToldCheck {
    private struct Decline {
        let device: String
        /// The launch that was running on the asking phone at the decline; nil when none was: the next one tells it.
        let launch: Int?
        let productId: String
        let at: SimInstant
    }

    private var open: [Decline] = []

    /// A decline the store recorded, of a request the phone `deviceId`'s app asked.
    mutating func declined(_ productId: String, deviceId: String, at: SimInstant, world: World) {
        guard let device = world.deviceName(ofStoreDevice: deviceId) else { return }
        let running = device == world.deviceName && world.isAppRunning
        // Quit at the same instant or later within the step: which launch heard it is not known, so it is not judged.
        if running, let quit = world.lastAppQuit, quit >= at { return }
        open.append(
            Decline(device: device, launch: running ? world.currentLaunch : nil, productId: productId, at: at))
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, !open.isEmpty else { return [] }
        var judged: [Decline] = []
        open.removeAll { decline in
            guard decline.device == world.deviceName, world.isAppRunning else {
                // The launch that heard it was quit: not this launch's to tell. One no launch heard waits for the next.
                return decline.launch != nil
            }
            // The launch that heard it was quit since, and this is another: it was that launch's to tell.
            if let launch = decline.launch, launch != world.currentLaunch { return true }
            judged.append(decline)
            return true
        }
        return judged.compactMap { decline in
            let told = world.readerOutcomes.contains { outcome in
                outcome.device == decline.device && outcome.at >= decline.at && outcome.told == .purchase(.declined)
            }
            if told { return nil }
            return InvariantViolation(
                .noSilentCharge,
                "a parent declined the request for \(decline.productId) that \(decline.device)'s app asked, and "
                    + (decline.launch == nil ? "the next launch" : "the running app") + " told the reader nothing of it"
            )
        }
    }
}
