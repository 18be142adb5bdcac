import FoundationEssentials
import Scenarios
import SimKernel
import Simulation
import Subscriptions
import WhiteLabel

/// How a fuzz run is set up (`paywall-sim fuzz`).
public struct FuzzOptions: Sendable {
    /// Bundled app names or config paths; sessions take them in turn.
    public var apps: [String]
    public var runs: Int
    public var steps: Int
    public var seed: UInt64
    /// Where each session's world keeps its state; nil keeps it in memory.
    public var stateDirectory: String?
    /// A rule of the coordinator broken on purpose, to show the fuzzer catching it.
    public var defect: CoordinatorDefect?
    /// The guarantees whose breach stops the run; by default all of them.
    public var invariants = Set(Invariant.allCases)

    public init(
        apps: [String], runs: Int = 2_000, steps: Int = 60, seed: UInt64 = 1, stateDirectory: String? = nil,
        defect: CoordinatorDefect? = nil
    ) {
        self.apps = apps
        self.runs = runs
        self.steps = steps
        self.seed = seed
        self.stateDirectory = stateDirectory
        self.defect = defect
    }
}

/// What a fuzz run found.
public struct FuzzResult: Sendable {
    public var sessions = 0
    public var steps = 0
    public var virtualTime = SimDuration.zero
    public var coverage = FuzzCoverage()
    /// The first broken guarantee, shrunk; nil when every session held.
    public var failure: FuzzFailure?
    /// Why a session could not even start (its world could not be built): the run proved nothing.
    public var setupFailure: String?
}

/// A broken guarantee, shrunk to a scenario.
public struct FuzzFailure: Sendable {
    public let app: String
    public let session: Int
    public let violation: InvariantViolation
    public let originalSteps: Int
    /// The scenario's text and the name to save it under.
    public let scenario: String
    public let fileName: String
    /// Sessions replayed while shrinking.
    public let replays: Int
}

/// Generates random sessions over the apps, checks the invariants after every step, and shrinks
/// the first failure to a scenario. The same options give the same sessions.
public struct Fuzzer {
    public let options: FuzzOptions
    public let resources: ResourceLocator?
    /// The apps' configs, read at the first session that needs each and kept for this fuzzer's runs.
    private let configs = LoadedConfigs()

    public init(options: FuzzOptions, resources: ResourceLocator?) {
        self.options = options
        self.resources = resources
    }

    /// Runs sessions `range` (of `options.runs`); `progress` hears of each one done. Stops at the first failure.
    public func run(sessions range: Range<Int>? = nil, progress: (Int) -> Void = { _ in }) -> FuzzResult {
        var result = FuzzResult()
        // No app is a setup failure, not a division by zero (session 26: PAYWALL_SIM_HOME with no demo apps).
        guard !options.apps.isEmpty else {
            result.setupFailure = "no app to fuzz"
            return result
        }
        for session in range ?? 0..<options.runs {
            let app = options.apps[session % options.apps.count]
            let runner = runner(session: session)
            var generator = StepGenerator(random: SeededGenerator(seed: Self.sessionSeed(options.seed, session)))
            let defect = options.defect.map { [StepKind.setup(.defect($0))] } ?? []
            let outcome = runner.generate(app: app, steps: options.steps, generator: &generator, setup: defect)
            if let reason = outcome.setupFailure {
                result.setupFailure = "session \(session) (\(app)) could not start: \(reason)"
                break
            }
            result.sessions += 1
            result.steps += outcome.steps.count
            result.virtualTime = result.virtualTime + outcome.virtualTime
            result.coverage.add(outcome.coverage)
            progress(session)
            if let violation = outcome.violation {
                result.failure = shrink(outcome, violation, app: app, session: session)
                break
            }
        }
        return result
    }

    private func runner(session: Int) -> SessionRun {
        let directory = options.stateDirectory.map { "\($0)/session-\(session)" }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
        var run = SessionRun(resources: resources, stateDirectory: directory)
        run.watched = options.invariants
        run.configs = configs
        return run
    }

    private func shrink(_ outcome: SessionOutcome, _ violation: InvariantViolation, app: String, session: Int)
        -> FuzzFailure
    {
        var shrinker = Shrinker(runner: runner(session: session))
        let small = shrinker.shrink(outcome, invariant: violation.invariant)
        let shown = small.violation ?? violation
        let scenario = FailureScenario(
            steps: small.steps, violation: shown,
            origin: "paywall-sim fuzz --seed \(options.seed) (session \(session), app \(app))",
            originalStepCount: outcome.steps.count)
        return FuzzFailure(
            app: app, session: session, violation: shown, originalSteps: outcome.steps.count, scenario: scenario.text,
            fileName: FailureScenario.fileName(
                app: app, seed: options.seed, session: session, invariant: shown.invariant),
            replays: shrinker.replays)
    }

    /// Each session's own seed, so a session can be run alone and gives the same steps.
    static func sessionSeed(_ seed: UInt64, _ session: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (UInt64(session) &* 0x9E37_79B9_7F4A_7C15))
        return generator.next()
    }
}
