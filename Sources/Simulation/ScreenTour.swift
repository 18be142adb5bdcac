import AppFlow
import SimKernel
import WhiteLabel

/// Walks a fresh in-memory world through every screen an app has and keeps each one on the way:
/// what `paywall-sim screens` prints and what the snapshot tests compare.
public enum ScreenTour {
    /// One screen of the tour, with what it shows in a sentence.
    public struct Stop: Sendable {
        public let caption: String
        public let screen: ScreenModel

        /// The identifier on screen (`alert` while an alert is up): the stop's heading and file name.
        public var id: ScreenID { screen.visibleID }

        /// The caption, then the screen headed by its identifier: what `screens` prints and a snapshot holds.
        public func text(width: Int = 40) -> String {
            "# \(caption)\n" + ScreenRenderer.plainText(screen, width: width)
        }
    }

    /// The stops in the order a reader meets them. Latency `.none` and a fixed seed make the same
    /// config give the same stops, byte for byte; a screen the app does not have is skipped.
    public static func run(config: DemoConfig) throws(WorldSetupError) -> [Stop] {
        let walk = try TourWalk(config: config)
        walk.feed()
        guard walk.lockedContent() else { return walk.stops }
        walk.paywall()
        walk.parentalGate()
        walk.payment()
        walk.accountRequired()
        walk.unlockedContent()
        walk.accountScreens()
        walk.subscriptionScreens()
        return walk.stops
    }
}
