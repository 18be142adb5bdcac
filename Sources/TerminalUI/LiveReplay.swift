import Scenarios
import Simulation
import WhiteLabel

/// Live replay's effects (`play --live`): the scripted source of steps the terminal loop runs one at a
/// time at a human pace. The pace is wall time, read by the loop; each step runs on the virtual clock
/// exactly as `play` runs it (until idle), so the replay ends as the headless run does.
public final class LiveReplay {
    public let scenario: Scenario
    private let run: ScenarioRun
    /// Wall time between steps.
    let paceNanoseconds: Int64
    /// Setup steps run before the terminal opened.
    private let first: Int
    /// When the next step is due, in monotonic wall nanoseconds; nil until the loop starts the clock.
    private var dueWall: Int64?
    /// While paused: what was left of the wait.
    private var remaining: Int64 = 0
    private var stepsRun = 0

    public init(scenario: Scenario, resources: ResourceLocator?, paceSeconds: Double) {
        self.scenario = scenario
        run = ScenarioRun(scenario: scenario, resources: resources)
        paceNanoseconds = Int64(paceSeconds * 1_000_000_000)
        // The setup, with the settings written before launch, builds the world before the terminal opens.
        first = scenario.steps.firstIndex { !$0.kind.configures } ?? scenario.steps.count
    }

    /// Runs the setup and launches the app, before the terminal opens, so a setup that cannot build a
    /// world ends with a message and exit 2 rather than in a half-drawn screen.
    public func prepare() throws(StepFailure) -> World {
        for step in scenario.steps.prefix(first) {
            if let failure = execute(step) { throw failure }
        }
        stepsRun = first
        return try run.launchedWorld()
    }

    public var initialState: LiveReplayState { LiveReplayState(scenario: scenario, first: first) }

    /// Runs the next step if it is due at `wall`; returns how long until the next one, in milliseconds.
    func tick(atWall wall: Int64, state: inout LiveReplayState) -> Int? {
        guard let next = state.next, !state.isPaused else { return nil }
        let due = dueWall ?? wall
        guard wall >= due else { return Int((due - wall + 999_999) / 1_000_000) }
        stepsRun = next + 1
        state.stepRan(next, failure: execute(scenario.steps[next]))
        dueWall = wall + paceNanoseconds
        return state.isFinished ? nil : Int(paceNanoseconds / 1_000_000)
    }

    func togglePause(atWall wall: Int64, state: inout LiveReplayState) {
        state.togglePause()
        if state.isPaused {
            remaining = max(0, (dueWall ?? wall) - wall)
        } else {
            dueWall = wall + remaining
        }
    }

    /// The state the terminal ended with.
    public private(set) var finalState: LiveReplayState?

    func ended(_ state: LiveReplayState) { finalState = state }

    /// How the replay ended, as `play` reports it; nil if it never ran.
    public var result: ScenarioResult? {
        guard let state = finalState else { return nil }
        let failure = state.failure.map { run.failure(at: $0.step, $0.failure) }
        return run.result(stepsRun: stepsRun, failure: failure)
    }

    /// A `try` step the world or the screen refuses is no failure: the replay goes on, as `play` goes on (it stopped
    /// there, FAILED, session 27).
    private func execute(_ step: ScenarioStep) -> StepFailure? {
        do {
            try run.execute(step)
            return nil
        } catch {
            return step.mayFail ? nil : error
        }
    }
}
