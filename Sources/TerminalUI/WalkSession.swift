import AppFlow
import FoundationEssentials
import Scenarios
import SimKernel
import Simulation
import WhiteLabel

/// The guided walk's effects (`run --walk`): builds a chosen scenario's world through `ScenarioRun`, runs
/// the steps the tester does not do by hand, checks expectations, hears the reader's actions, writes the
/// report. `WalkState` decides; this does.
public final class WalkSession {
    public let scenarios: [Scenario]
    let reportPath: String
    private let resources: ResourceLocator?
    /// The theme a chosen scenario's app wears; nil keeps the one on screen.
    private let theme: (DemoConfig) -> Theme?
    private var run: ScenarioRun?
    private var scenario: Scenario?
    /// Reader actions heard on the phone, each with the checks read before the app handled it.
    private var heard: [(action: ReaderAction, checks: [Int: StepOutcome], rightGateAnswer: Bool)] = []
    /// The checks read at the tester's first key toward the next step (`step`): a step done in several keys (open
    /// the sign-up form, type, submit) settles the expectations before it as they stood when it began, not after
    /// its first keys changed the screen.
    private var begun: (step: Int?, checks: [Int: StepOutcome])?

    public init(
        scenarios: [Scenario], resources: ResourceLocator?, reportPath: String,
        theme: @escaping (DemoConfig) -> Theme? = { _ in nil }
    ) {
        self.scenarios = scenarios
        self.resources = resources
        self.reportPath = reportPath
        self.theme = theme
    }

    /// The state the walk starts in: the list of scenarios.
    public var initialState: WalkState { WalkState(scenarios: scenarios, reportPath: reportPath) }

    func theme(for world: World) -> Theme? { theme(world.config) }

    /// Walks `scenarios[index]`: a world from its setup, with the steps before the first reader action
    /// run. Returns the launched world, or nil when the setup failed (`state` says why).
    public func choose(_ index: Int, state: inout WalkState) -> World? {
        let scenario = scenarios[index]
        let run = ScenarioRun(scenario: scenario, resources: resources)
        self.run = run
        self.scenario = scenario
        heard = []
        begun = nil
        state.start(index)
        while let next = state.automaticStep {
            let failure = execute(scenario.steps[next])
            if let failure, run.world == nil {
                state.startFailed(failure)
                return nil
            }
            state.moveOn(past: next, checks: checks(), failure: failure)
        }
        let world: World
        do {
            world = try run.launchedWorld()
        } catch {
            state.startFailed(error)
            return nil
        }
        world.onReaderAction = { [weak self, unowned world] action in
            guard let self else { return }
            heard.append((action, checks(), Self.answersTheGate(action, world)))
        }
        state.observe(checks(), screen: world.screen.visibleID)
        return world
    }

    /// `n`: runs `steps[index]` (a world step or a setting); after `kill`, the app starts again when the
    /// next step is the reader's, since the tester's keys need a running app.
    public func runStep(_ index: Int, state: inout WalkState) {
        guard let scenario, let run else { return }
        let before = checks()
        let failure = execute(scenario.steps[index])
        state.moveOn(past: index, checks: before, failure: failure)
        if let next = state.nextStep, case .reader = scenario.steps[next].kind { run.relaunchIfKilled() }
    }

    /// A control from the control pane: the checks are read before it is applied.
    /// A refused action changed nothing and ticks nothing.
    func apply(_ action: WorldAction, to world: World, state: inout WalkState) -> WorldActionRefusal? {
        let before = checks()
        let refusal = action.press(on: world)
        if refusal == nil { state.controlUsed(.world(action), checks: before) }
        return refusal
    }

    /// The reader's `input` is about to reach the phone: one that dismisses an alert moves the walk on
    /// (the device reports no action for it).
    func willSend(_ input: ReaderInput, to world: World, state: inout WalkState) {
        if begun == nil || begun?.step != state.nextStep { begun = (state.nextStep, checks()) }
        guard world.screen.alert != nil, input == .select || input == .back else { return }
        state.alertDismissed(checks: checks())
    }

    /// Once a turn of the loop: what the reader did, then what the world shows.
    func settle(_ world: World, state: inout WalkState) {
        for (action, checks, rightGateAnswer) in heard {
            // An expectation that held when the tester began the step, or still holds as it ends, passed.
            var settled = checks
            if let begun, begun.step == state.nextStep {
                for (index, outcome) in begun.checks where outcome == .holds { settled[index] = .holds }
            }
            state.readerActed(action, checks: settled, rightGateAnswer: rightGateAnswer)
        }
        heard = []
        if world.scheduler.isIdle {
            run?.checkInvariants(after: "the tester's last action")
            state.observe(checks(), screen: world.screen.visibleID)
        } else {
            state.observeInFlight()
        }
    }

    /// Whether `action` answers the question on the gate right, read before the app handles it: what a scenario's
    /// `answer gate` asks of the tester, whatever question the seed drew.
    private static func answersTheGate(_ action: ReaderAction, _ world: World) -> Bool {
        guard case .answerGate(let typed?) = action, let gate = world.appState.gate else { return false }
        return ParentalGate.answer(to: gate.question) == typed.trimmingSpaces()
    }

    /// `s`: writes the report (Markdown) to the report path; the state's message says where, or why not.
    public func saveReport(_ state: inout WalkState) {
        let text = ScenarioReports.walk(state.report)
        let path = KeptFile.path(reportPath, own: .walkReport)
        do {
            try OutputWriter.write(text, to: path, as: .walkReport)
            state.message =
                path == reportPath
                ? "report saved to \(path)" : "\(reportPath) is not a walk report: kept; report saved to \(path)"
        } catch {
            state.message = "could not write \(path): \(error)"
        }
    }

    /// Every expectation of the scenario, checked against the world as it is now.
    func checks() -> [Int: StepOutcome] {
        guard let scenario, let run else { return [:] }
        var checks: [Int: StepOutcome] = [:]
        for (index, step) in scenario.steps.enumerated() {
            guard case .expect(let expectation) = step.kind else { continue }
            checks[index] = run.check(expectation).map(StepOutcome.notYet) ?? .holds
        }
        return checks
    }

    private func execute(_ step: ScenarioStep) -> StepFailure? {
        do {
            try run?.execute(step)
            return nil
        } catch {
            return error
        }
    }
}
