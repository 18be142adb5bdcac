import AppFlow
import SimKernel
import WhiteLabel

/// How a world is set up.
public struct WorldOptions: Sendable {
    public var seed: UInt64
    public var latency: LatencyProfile
    /// Where `appstore.sqlite`, `backend.sqlite` and `devices/` live; nil keeps everything in memory.
    public var stateDirectory: String?

    public init(seed: UInt64 = 1, latency: LatencyProfile = .typical, stateDirectory: String? = nil) {
        self.seed = seed
        self.latency = latency
        self.stateDirectory = stateDirectory
    }
}

/// The whole simulated world, assembled once: STUB, replaced by the real one.
public final class World {
    public let config: DemoConfig
    public let scheduler: Scheduler
    public let timeline: Timeline
    private var selection = 0

    public init(config: DemoConfig, options: WorldOptions) throws {
        self.config = config
        scheduler = Scheduler()
        let scheduler = self.scheduler
        timeline = Timeline(clock: { scheduler.now })
    }

    /// Starts the app on the phone.
    public func launch() {
        timeline.log(.app, "launch \(config.app.name)")
    }

    /// The reader's input, delivered to the phone's app.
    public func send(_ input: ReaderInput) {
        timeline.log(.reader, "\(input)")
        if input == .down { selection += 1 }
        if input == .up { selection = max(0, selection - 1) }
    }

    /// What the phone shows now.
    public var screen: ScreenModel {
        ScreenModel(
            id: .feed, title: config.app.name,
            rows: config.app.content.map { Row(.choice, $0.title, badge: $0.requiredLevels.isEmpty ? nil : .locked) },
            selection: min(selection, max(0, config.app.content.count - 1)),
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("q", "quit")])
    }
}
