import AppFlow
import SimKernel
import Simulation
import Subscriptions
import WhiteLabel

/// One scenario's run in progress: the setup until launch, then the world. Steps run one at a time, so
/// `play` runs them all at once, live replay at a human pace, and a guided walk the ones the tester
/// does not do by hand.
public final class ScenarioRun {
    private let scenario: Scenario
    private let resources: ResourceLocator?
    private var setup = ScenarioSetup()
    public private(set) var world: World?
    private var launched = false
    /// Watches every step from launch when the scenario expects invariants (or the fuzzer asks).
    private let monitored: Bool
    private var monitor: InvariantMonitor?
    /// Every broken guarantee the monitor saw, with when: "after line 12 (confirm payment)", "at launch".
    public private(set) var violations: [(seen: String, violation: InvariantViolation)] = []
    /// Where the world keeps its state; nil (the default) keeps it in memory.
    public var stateDirectory: String? {
        get { setup.options.stateDirectory }
        set { setup.options.stateDirectory = newValue }
    }
    /// Configs this run shares with others of the same batch (the fuzzer's sessions); nil reads its own.
    public var configs: LoadedConfigs?
    /// PBKDF2 iterations for new passwords (`WorldOptions.passwordIterations`).
    public var passwordIterations: Int? {
        get { setup.options.passwordIterations }
        set { setup.options.passwordIterations = newValue }
    }

    /// `monitored`: watch the invariants from launch; by default, when the scenario expects them.
    public init(scenario: Scenario, resources: ResourceLocator?, monitored: Bool? = nil) {
        self.scenario = scenario
        self.resources = resources
        self.monitored =
            monitored
            ?? scenario.steps.contains {
                if case .expect(let expectation) = $0.kind { expectation == .invariants } else { false }
            }
    }

    /// What a failure to build the world expected: a setup that makes a world.
    public static let setupExpectation = "a world built from the setup"

    public var virtualTime: SimDuration { (world?.scheduler.now ?? .worldStart) - .worldStart }

    /// Runs one step; after an action the world runs until idle, so what follows sees where it settled.
    public func execute(_ step: ScenarioStep) throws(StepFailure) {
        // Before launch a setting builds the world, as the setup steps do.
        if world == nil, case .world(let action) = step.kind, action.isSetting { return setup.add(action) }
        guard step.kind.isAction else { return try act(step) }
        try launchedWorld()
        monitor?.willRun(Self.monitored(step.kind), waits: step.waits)
        defer { noteViolations("after line \(step.line) (\(step.text))", monitor?.didRun() ?? []) }
        try act(step)
    }

    private static func monitored(_ kind: StepKind) -> MonitoredStep {
        switch kind {
        case .reader(let action): .reader(action)
        case .world(.restartApp): .restartApp
        case .world(.foreground): .foreground
        case .world(.kill): .kill
        case .world(.parentApprove), .world(.resolveInterrupted), .world(.transaction(.approve, _)),
            .world(.transaction(.resolveInterrupted, _)):
            .paymentReleased
        default: .other
        }
    }

    private func noteViolations(_ seen: String, _ found: [InvariantViolation]) {
        violations += found.map { (seen, $0) }
    }

    /// Checks the invariants now, for what happened outside `execute`: a tester's own keys and
    /// controls in a guided walk. Only for a scenario that expects invariants.
    public func checkInvariants(after what: String) {
        guard let monitor else { return }
        noteViolations("after \(what)", monitor.didRun())
        monitor.willRun(.other)
    }

    private func act(_ step: ScenarioStep) throws(StepFailure) {
        switch step.kind {
        case .setup(let setupStep):
            // The parser keeps these before launch: after it, the world is built.
            if world == nil { setup.add(setupStep) }
        case .launch:
            try launchedWorld()
        case .reader(let action):
            let world = try launchedWorld()
            relaunchIfKilled(world)
            do {
                try world.perform(action)
            } catch {
                throw StepFailure(expected: "to be able to \(step.text)", actual: error.description)
            }
            settle(world, waiting: step.waits)
        case .world(let action):
            let world = try launchedWorld()
            try WorldStepRunner.run(action, on: world)
            settle(world, waiting: step.waits)
        case .expect(.invariants):
            try launchedWorld()
            if let failure = invariantsFailure { throw failure }
        case .expect(.nothingLost):
            let found = try launchedWorld().nothingLostViolations()
            if let first = found.first {
                throw StepFailure(
                    expected: "a restore on a new phone to give back every paid subscription", actual: "\(first)")
            }
        case .expect(let expectation):
            try ExpectationCheck.check(expectation, on: try launchedWorld())
        }
    }

    /// After an action the world runs until idle; `without waiting`, only what happens at once (a sheet
    /// closing, a cancellation reaching the app) runs, and answers that take time are still on their way.
    private func settle(_ world: World, waiting: Bool) {
        if waiting {
            world.scheduler.runUntilIdle()
        } else {
            world.scheduler.run(until: world.scheduler.now)
        }
    }

    /// The first guarantee the monitor saw broken, as `expect invariants` reports it.
    private var invariantsFailure: StepFailure? {
        guard let (seen, violation) = violations.first else { return nil }
        return StepFailure(expected: "the invariants to hold", actual: "\(violation), \(seen)")
    }

    /// The world, built and launched on first need: a scenario may leave `launch` implicit.
    @discardableResult
    public func launchedWorld() throws(StepFailure) -> World {
        let world: World
        if let built = self.world {
            world = built
        } else {
            do {
                world = try setup.build(scenarioFile: scenario.file, resources: resources, configs: configs)
            } catch {
                throw StepFailure(expected: Self.setupExpectation, actual: error.description)
            }
            self.world = world
        }
        if !launched {
            launched = true
            world.launch()
            world.scheduler.runUntilIdle()
            if monitored {
                let monitor = InvariantMonitor(world: world)
                self.monitor = monitor
                noteViolations("at launch", monitor.didRun())
            }
        }
        return world
    }

    /// After `kill`, the app starts again (the next reader action would do it); no-op otherwise.
    public func relaunchIfKilled() {
        guard let world else { return }
        relaunchIfKilled(world)
    }

    /// Checks an expectation against the world as it is now, without running it: nil when it holds.
    public func check(_ expectation: ScenarioExpectation) -> StepFailure? {
        guard let world else { return StepFailure(expected: "a world built from the setup", actual: "none yet") }
        switch expectation {
        case .invariants: return invariantsFailure
        case .nothingLost:
            // It restores on a new phone, which changes the world: `play` checks it, a look cannot.
            return StepFailure(
                expected: "nothing lost", actual: "checked only by play and the fuzzer (it adds a phone)")
        default: break
        }
        do {
            try ExpectationCheck.check(expectation, on: world)
            return nil
        } catch {
            return error
        }
    }

    private func relaunchIfKilled(_ world: World) {
        guard !world.isAppRunning else { return }
        world.restartApp()
        world.scheduler.runUntilIdle()
    }

    /// The result as `play` reports it, after `stepsRun` steps.
    public func result(stepsRun: Int, failure: ScenarioFailure?) -> ScenarioResult {
        var result = ScenarioResult(
            file: scenario.file, name: scenario.name, title: scenario.title, sees: scenario.sees, stepsRun: stepsRun,
            stepCount: scenario.steps.count, virtualMilliseconds: virtualTime.milliseconds, failure: failure)
        result.timeline = world?.timeline.entries
        return result
    }

    public func failure(at step: ScenarioStep, _ error: StepFailure) -> ScenarioFailure {
        let screen = world.map { ScreenRenderer.plainText($0.screen) } ?? "(no world: the setup failed)"
        let timeline = world.map { $0.timeline.entries.suffix(ScenarioRunner.timelineTail).map(\.description) } ?? []
        return ScenarioFailure(
            file: scenario.file, line: step.line, step: step.text, expected: error.expected, actual: error.actual,
            screen: screen, timeline: timeline)
    }
}
