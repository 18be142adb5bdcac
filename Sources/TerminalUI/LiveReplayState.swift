import Scenarios

/// Live replay's state (`play --live`): the scenario, each step's outcome, the caption on screen,
/// paused or not, and how it ended.
public struct LiveReplayState: Equatable, Sendable {
    public var walked: WalkedScenario
    /// The step that runs next; nil once every step ran or one failed.
    public private(set) var next: Int?
    /// The last `#` comment met (the title before the first): it stays until a step brings another.
    public private(set) var caption: String?
    public private(set) var isPaused = false

    /// Steps before `first` are already done (the setup, run before the terminal opened).
    public init(scenario: Scenario, first: Int) {
        var outcomes = Array(repeating: StepOutcome.pending, count: scenario.steps.count)
        for index in 0..<min(first, outcomes.count) { outcomes[index] = .done }
        walked = WalkedScenario(scenario: scenario, outcomes: outcomes)
        next = first < scenario.steps.count ? first : nil
        // Until a step brings its own, the title says what the demo shows.
        caption = scenario.steps.prefix(first).compactMap(\.caption).last ?? scenario.title
    }

    public var isFinished: Bool { next == nil }
    public var failure: (step: ScenarioStep, failure: StepFailure)? { walked.firstFailure }

    public mutating func togglePause() {
        guard !isFinished else { return }
        isPaused.toggle()
    }

    /// `steps[index]` ran: done, passed, or failed, which ends the replay there.
    public mutating func stepRan(_ index: Int, failure: StepFailure?) {
        let step = walked.scenario.steps[index]
        if let caption = step.caption { self.caption = caption }
        if let failure {
            walked.outcomes[index] = .failed(failure)
            next = nil
            return
        }
        if case .expect = step.kind { walked.outcomes[index] = .passed } else { walked.outcomes[index] = .done }
        next = index + 1 < walked.outcomes.count ? index + 1 : nil
    }
}
