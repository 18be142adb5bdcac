import Scenarios
import SimKernel
import Simulation
import WhiteLabel

/// A step of a session, and whether the world refused it (the screen did not allow it, nothing to
/// refund). A refused step stays: it may have done something on the way, as a reader who opens the
/// profile to find no "Log in" there.
struct SessionStep {
    let kind: StepKind
    /// False: the next step comes at once, with answers still on their way (`without waiting`).
    var waits = true
    var refused = false
}

/// One fuzz session's run: its steps, and the first broken guarantee.
struct SessionOutcome {
    /// Setup, launch and every step, in order, up to the first broken guarantee.
    var steps: [SessionStep]
    var violation: InvariantViolation?
    var virtualTime: SimDuration
    var coverage = FuzzCoverage()
    /// Why the session's world could not be built (a state folder that cannot be written): no work done.
    var setupFailure: String?
}

/// Runs sessions with the invariant monitor on: a generated one, or a list of steps again (shrinking).
struct SessionRun {
    let resources: ResourceLocator?
    /// Where each session's world keeps its state; nil keeps it in memory.
    let stateDirectory: String?
    /// The fuzz run's configs, read once for all its sessions.
    var configs: LoadedConfigs?
    /// The guarantees that end a session when broken (`fuzz --invariants`); the others are only watched.
    var watched = Set(Invariant.allCases)

    /// A new session: `steps` steps drawn by `generator` from what the world shows; `setup` goes
    /// before launch (a defect to prove the fuzzer on).
    func generate(app: String, steps count: Int, generator: inout StepGenerator, setup: [StepKind] = [])
        -> SessionOutcome
    {
        var done: [SessionStep] = []
        let run = start()
        var refusal: String?
        for kind in setup + generator.setup(app: app) {
            refusal = execute(SessionStep(kind: kind), on: run, done: &done) ?? refusal
        }
        guard run.world != nil else {
            var outcome = finish(run, done, nil)
            outcome.setupFailure = refusal ?? "no world was built"
            return outcome
        }
        if let violation = firstWatched(run) { return finish(run, done, violation) }
        var coverage = FuzzCoverage()
        for _ in 0..<count {
            guard let world = run.world else { break }
            execute(generator.next(for: world), on: run, done: &done)
            coverage.saw(world.visibleScreenID)
            if let violation = firstWatched(run) { return finish(run, done, violation) }
        }
        let lost = lostViolation(run)
        var outcome = finish(run, done, lost)
        for step in done { coverage.count(step) }
        if let world = run.world { coverage.read(world) }
        outcome.coverage = coverage
        return outcome
    }

    /// The same steps again; it stops at the first broken guarantee, and checks that nothing paid
    /// is lost when all steps ran without one.
    func replay(_ steps: [SessionStep]) -> SessionOutcome {
        var done: [SessionStep] = []
        let run = start()
        for step in steps {
            execute(step, on: run, done: &done)
            if let violation = firstWatched(run) { return finish(run, done, violation) }
        }
        return finish(run, done, lostViolation(run))
    }

    private func start() -> ScenarioRun {
        let run = ScenarioRun(scenario: Scenario(file: "fuzz"), resources: resources, monitored: true)
        run.stateDirectory = stateDirectory
        run.configs = configs
        // A fuzz session's folder is thrown away: its passwords need no work factor, on disk either.
        run.passwordIterations = WorldOptions.minimalPasswordIterations
        return run
    }

    /// Runs one step and notes whether the world refused it; returns why it did.
    @discardableResult
    private func execute(_ step: SessionStep, on run: ScenarioRun, done: inout [SessionStep]) -> String? {
        var step = step
        var refusal: String?
        do {
            try run.execute(ScenarioStep(line: done.count + 1, text: "", kind: step.kind, waits: step.waits))
            step.refused = false
        } catch {
            step.refused = true
            refusal = error.actual
        }
        done.append(step)
        return refusal
    }

    private func lostViolation(_ run: ScenarioRun) -> InvariantViolation? {
        guard let world = run.world else { return nil }
        return (world.ledgerViolationsInFull() + world.nothingLostViolations()).first {
            watched.contains($0.invariant)
        }
    }

    private func firstWatched(_ run: ScenarioRun) -> InvariantViolation? {
        run.violations.first { watched.contains($0.violation.invariant) }?.violation
    }

    private func finish(_ run: ScenarioRun, _ done: [SessionStep], _ violation: InvariantViolation?) -> SessionOutcome {
        SessionOutcome(steps: done, violation: violation, virtualTime: run.virtualTime)
    }
}
