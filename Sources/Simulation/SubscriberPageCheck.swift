import AppFlow

/// Invariant 19, the subscription page is for readers who have not subscribed (seed 000: "A subscriber who
/// taps Subscribe lands on their profile instead"; after a purchase "the page simply closes"): once the world
/// settled, the app does not show the paywall, or the parental gate in front of Apple's sheet, to a reader it
/// shows levels for, unless a purchase started there is still under way, or, read per level (session 27), the paywall
/// still offers a group they do not hold for the locked article it was opened from.
enum SubscriberPageCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard context.settled, world.isAppRunning else { return [] }
        let state = world.appState
        guard state.access.isSubscriber, state.purchase == nil, !paywallStillSells(state) else { return [] }
        let page: String
        switch state.route {
        case .paywall: page = "the paywall"
        // The gate before the manage sheet is a subscriber's.
        case .parentalGate where state.gate?.purpose != .manageSubscription:
            page = "the parental gate before Apple's sheet"
        default: return []
        }
        return [
            InvariantViolation(
                .subscriberPage,
                "\(world.deviceName) shows \(page) to a reader holding \(WorldReading.list(context.phoneLevels))")
        ]
    }
}
