import AppFlow
import SimKernel
import WhiteLabel

/// Walks a fresh in-memory world through the purchase flow and keeps each screen on the way:
/// what `paywall-sim screens` prints and what the snapshot tests compare.
public enum ScreenTour {
    public struct Stop: Sendable {
        public let caption: String
        public let screen: ScreenModel
    }

    public static func run(config: DemoConfig) throws(WorldSetupError) -> [Stop] {
        let world = try World(config: config, options: WorldOptions(seed: 1, latency: .none))
        var stops: [Stop] = []
        func keep(_ caption: String) { stops.append(Stop(caption: caption, screen: world.screen)) }
        world.launch()
        world.scheduler.runUntilIdle()
        keep("The feed, with locked articles")
        guard let locked = config.app.content.firstIndex(where: { !$0.requiredLevels.isEmpty }) else { return stops }
        for _ in 0..<locked { world.send(.down) }
        world.send(.select)
        world.scheduler.runUntilIdle()
        keep("A locked article: its preview and a way to subscribe")
        world.send(.select)
        world.scheduler.runUntilIdle()
        keep("The paywall: the owner's text and the offers the store returned, in the owner's order")
        world.send(.select)
        world.scheduler.runUntilIdle()
        keep("Apple's payment sheet")
        world.send(.select)
        keep("Paid: waiting for the App Store and the server before anything unlocks")
        world.scheduler.runUntilIdle()
        keep("The server answered: the paywall closed and the article is unlocked")
        world.send(.back)
        keep("The feed for a subscriber")
        return stops
    }
}
