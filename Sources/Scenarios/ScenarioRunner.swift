import AppFlow
import SimKernel
import Simulation
import WhiteLabel

/// Runs scenarios headless on the virtual clock: builds the world from the setup, runs each step,
/// and lets the world run until idle after every action.
public struct ScenarioRunner: Sendable {
    /// How many timeline lines a failure shows.
    public static let timelineTail = 15
    public let resources: ResourceLocator?

    public init(resources: ResourceLocator?) {
        self.resources = resources
    }

    public func run(_ scenario: Scenario) -> ScenarioResult {
        let run = ScenarioRun(scenario: scenario, resources: resources)
        var failure: ScenarioFailure?
        var stepsRun = 0
        for step in scenario.steps {
            stepsRun += 1
            do {
                try run.execute(step)
            } catch {
                if step.mayFail { continue }
                failure = run.failure(at: step, error)
                break
            }
        }
        return ScenarioResult(
            file: scenario.file, name: scenario.name, title: scenario.title, sees: scenario.sees, stepsRun: stepsRun,
            stepCount: scenario.steps.count, virtualMilliseconds: run.virtualTime.milliseconds, failure: failure)
    }
}

/// What a failing step expected, and what it found.
public struct StepFailure: Error, CustomStringConvertible {
    public let expected: String
    public let actual: String

    public var description: String { "expected \(expected), got \(actual)" }
}

/// One scenario's run in progress, a step at a time: the setup until launch, then the world.
public final class ScenarioRun {
    private let scenario: Scenario
    private let resources: ResourceLocator?
    private var setup = ScenarioSetup()
    public private(set) var world: World?
    private var launched = false
    /// The app was killed: the next reader action launches it again.
    private var killed = false
    /// Watches every step from launch when the scenario expects invariants (or the fuzzer asks).
    private let monitored: Bool
    private var monitor: InvariantMonitor?
    /// Every broken guarantee the monitor saw, with the step after which it was seen (nil: at launch).
    public private(set) var violations: [(step: ScenarioStep?, violation: InvariantViolation)] = []
    /// Where the world keeps its state; nil (the default) keeps it in memory.
    public var stateDirectory: String? {
        get { setup.options.stateDirectory }
        set { setup.options.stateDirectory = newValue }
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

    public var virtualTime: SimDuration { (world?.scheduler.now ?? .worldStart) - .worldStart }

    public func execute(_ step: ScenarioStep) throws(StepFailure) {
        switch step.kind {
        case .reader, .world:
            try launchedWorld()
            monitor?.willRun(Self.monitored(step.kind))
            defer { noteViolations(after: step, monitor?.didRun() ?? []) }
            try act(step)
        default:
            try act(step)
        }
    }

    private static func monitored(_ kind: StepKind) -> MonitoredStep {
        switch kind {
        case .reader(let action): .reader(action)
        case .world(.restartApp): .restartApp
        default: .other
        }
    }

    private func noteViolations(after step: ScenarioStep?, _ found: [InvariantViolation]) {
        violations += found.map { (step, $0) }
    }

    private func act(_ step: ScenarioStep) throws(StepFailure) {
        switch step.kind {
        case .setup(let setupStep):
            if let world { try apply(setupStep, to: world) } else { setup.add(setupStep) }
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
            world.scheduler.runUntilIdle()
        case .world(let worldStep):
            let world = try launchedWorld()
            try WorldStepRunner.run(worldStep, on: world, killed: &killed)
            world.scheduler.runUntilIdle()
        case .expect(.invariants):
            try launchedWorld()
            guard let (seenAfter, violation) = violations.first else { return }
            let at = seenAfter.map { "after line \($0.line) (\($0.text))" } ?? "at launch"
            throw StepFailure(expected: "the invariants to hold", actual: "\(violation), \(at)")
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

    /// The world, built and launched on first need: a scenario may leave `launch` implicit.
    @discardableResult
    private func launchedWorld() throws(StepFailure) -> World {
        let world: World
        if let built = self.world {
            world = built
        } else {
            do {
                world = try setup.build(scenarioFile: scenario.file, resources: resources)
            } catch {
                throw StepFailure(expected: "a world built from the setup", actual: error.description)
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
                noteViolations(after: nil, monitor.didRun())
            }
        }
        return world
    }

    private func relaunchIfKilled(_ world: World) {
        guard killed else { return }
        killed = false
        world.restartApp()
        world.scheduler.runUntilIdle()
    }

    /// After launch, the settings a phone can change still apply; the rest built the world.
    private func apply(_ step: SetupStep, to world: World) throws(StepFailure) {
        switch step {
        case .storefront(let code):
            guard world.storefronts.contains(code) else {
                throw StepFailure(
                    expected: "a storefront the catalog sells in (\(world.storefronts.joined(separator: ", ")))",
                    actual: code)
            }
            world.storefront = code
        case .locale(let id): world.locale = id
        case .latency(let profile): world.latency = profile
        case .inject(let plan):
            do {
                try world.inject(plan)
            } catch {
                throw StepFailure(expected: "faults the store and backend know", actual: error.description)
            }
        case .app, .seed, .device, .appleId, .account, .defect: break  // the parser keeps these before launch
        }
        world.scheduler.runUntilIdle()
    }

    public func failure(at step: ScenarioStep, _ error: StepFailure) -> ScenarioFailure {
        let screen = world.map { ScreenRenderer.plainText($0.screen) } ?? "(no world: the setup failed)"
        let timeline = world.map { $0.timeline.entries.suffix(ScenarioRunner.timelineTail).map(\.description) } ?? []
        return ScenarioFailure(
            file: scenario.file, line: step.line, step: step.text, expected: error.expected, actual: error.actual,
            screen: screen, timeline: timeline)
    }
}
