import AppFlow
import SimKernel
import Simulation

/// Everything one frame shows, read from the world at one instant, so views never touch the world.
public struct FrontContent: Equatable, Sendable {
    public var appName: String
    /// The phone on screen, named in the phone pane's title when the world has several (`World.phoneNameToShow`).
    public var phoneName: String?
    public var screen: ScreenModel
    public var timeline: [TimelineEntry]
    public var now: SimInstant
    /// Turns the phone's spinner; derived from virtual time so a replay draws the same frames.
    public var spinnerPhase: Int
    public var controls: ControlReadings
    /// The transaction inspector's rows; read only while it is open (nil otherwise), since each reads
    /// the store's and the ledger's records.
    public var transactions: [TransactionRow]?

    public init(
        appName: String, screen: ScreenModel, timeline: [TimelineEntry], now: SimInstant, spinnerPhase: Int = 0,
        controls: ControlReadings = ControlReadings()
    ) {
        self.appName = appName
        self.controls = controls
        self.screen = screen
        self.timeline = timeline
        self.now = now
        self.spinnerPhase = spinnerPhase
    }

    /// The spinner moves one step this often, in virtual milliseconds.
    public static let spinnerStepMilliseconds: Int64 = 120

    public init(world: World, inspecting: Bool = false) {
        let now = world.scheduler.now
        let screen = world.isAppRunning ? world.screen : Self.notRunning(world.screen, app: world.config.app.name)
        self.init(
            appName: world.config.app.name, screen: screen, timeline: world.timeline.entries, now: now,
            spinnerPhase: Int(now.milliseconds / Self.spinnerStepMilliseconds % 1_000_000),
            controls: ControlReadings(world: world))
        if inspecting { transactions = world.transactionRows }
        phoneName = world.phoneNameToShow
    }

    /// The phone while its app is killed: its last screen stayed up, and keys on it did nothing with nothing saying
    /// why (session 32, the control pane's "Kill the app").
    static func notRunning(_ last: ScreenModel, app: String) -> ScreenModel {
        ScreenModel(
            id: last.id, title: app,
            rows: [
                Row(.muted, "The app is not running: it was killed."), Row(.spacer),
                Row(.muted, "Background and back, or Restart the app, in the controls (c) starts it again."),
            ])
    }
}
