import AppFlow
import Scenarios

/// The guided walk's state (Elm's model): the scenarios, the one being walked with each step's outcome,
/// and the walks finished earlier, for the report. The loop feeds it what the world reports.
///
/// Steps are done in order. The *next* step is the first pending one that is not an expectation: the
/// tester does a reader step by hand (ticked when `World.onReaderAction` reports it), a world step
/// from the control pane or with `n`. An expectation is live once the steps before it are done,
/// green while it holds, and settled when the next step is done: passed if it held then, red if not.
public struct WalkState: Equatable, Sendable {
    public var scenarios: [Scenario]
    public var listSelection = 0
    public var showsList = true
    /// Index into `scenarios` of the one being walked.
    public private(set) var chosen: Int?
    public private(set) var current: WalkedScenario?
    /// Walks finished earlier this session, the latest of each scenario, in the order they were chosen.
    public private(set) var earlier: [WalkedScenario] = []
    /// Where `s` writes the report.
    public var reportPath: String
    /// A line for the tester: the report was written, the next step is theirs, the setup failed.
    public var message: String?
    /// The offer the tester just selected, while the next step is a double tap on it: a second selection of it
    /// completes the double tap (by hand it is two selections; nothing reports a "double tap").
    private var firstTap: String?

    public init(scenarios: [Scenario], reportPath: String) {
        self.scenarios = scenarios
        self.reportPath = reportPath
    }

    // MARK: keys

    public mutating func apply(_ key: WalkKey) -> WalkCommand? {
        switch key {
        case .up where showsList: listSelection = max(0, listSelection - 1)
        case .down where showsList: listSelection = min(scenarios.count - 1, listSelection + 1)
        case .choose where showsList: return scenarios.isEmpty ? nil : .choose(listSelection)
        case .toggleList: showsList = current == nil ? true : !showsList
        case .nextStep:
            guard let current, let next = nextStep else {
                message = current == nil ? "choose a scenario first (Enter)" : "every step is done: s saves the report"
                return nil
            }
            if case .reader = current.scenario.steps[next].kind {
                message = "the next step is yours, on the phone: \(current.scenario.steps[next].text)"
                return nil
            }
            return .runStep(next)
        case .saveReport: return .saveReport
        default: break
        }
        return nil
    }

    // MARK: the walk's steps

    /// The first pending step that is not an expectation: what the tester does next.
    public var nextStep: Int? {
        guard let current else { return nil }
        return current.outcomes.indices.first { index in
            if case .expect = current.scenario.steps[index].kind { return false }
            return current.outcomes[index] == .pending
        }
    }

    /// The next step when the walk does it by itself: the setup, and every step before the first reader action.
    public var automaticStep: Int? {
        guard let current, let next = nextStep else { return nil }
        let readerBefore = current.scenario.steps[...next].contains { step in
            if case .reader = step.kind { return true }
            return false
        }
        return readerBefore ? nil : next
    }

    /// Expectations whose steps are done and that are not settled yet.
    public var liveExpectations: [Int] {
        guard let current else { return [] }
        let end = nextStep ?? current.outcomes.count
        return (0..<end).filter { index in
            guard case .expect = current.scenario.steps[index].kind else { return false }
            return current.outcomes[index] == .pending || current.outcomes[index].isLive
        }
    }

    /// A scenario was chosen: its steps start pending, the list gives way to the checklist.
    public mutating func start(_ index: Int) {
        if let current { archive(current) }
        chosen = index
        current = WalkedScenario(
            scenario: scenarios[index], outcomes: Array(repeating: .pending, count: scenarios[index].steps.count))
        showsList = false
        message = nil
    }

    /// The setup could not build a world: back to the list, saying why.
    public mutating func startFailed(_ failure: StepFailure) {
        current = nil
        chosen = nil
        showsList = true
        message = "could not set up: \(failure.actual)"
    }

    /// Step `index` was done (`failure`: it could not be); the live expectations before it settle with
    /// `checks`, read just before it was done.
    public mutating func moveOn(past index: Int, checks: [Int: StepOutcome], failure: StepFailure? = nil) {
        guard current != nil else { return }
        for live in liveExpectations where live < index {
            current!.outcomes[live] = (checks[live] ?? current!.outcomes[live]).settled
        }
        current!.outcomes[index] = failure.map(StepOutcome.failed) ?? .done
        message = nil
    }

    /// The reader did `action` on the phone (checks read before the app handled it): ticks the next step
    /// when it is that action. `rightGateAnswer`: it answered the question on the parental gate right, which
    /// is what `answer gate` asks, whatever the question.
    public mutating func readerActed(
        _ action: ReaderAction, checks: [Int: StepOutcome], rightGateAnswer: Bool = false
    ) {
        guard let current, let next = nextStep, case .reader(let expected) = current.scenario.steps[next].kind else {
            return
        }
        if expected == .answerGate(nil), case .answerGate = action {
            // A wrong answer brings another question: the step waits for a right answer to whichever is shown
            // (it waited for one question's answer, and the walk stood still after a wrong one, session 27).
            guard rightGateAnswer else {
                message = "not the right answer: the step is a grown-up's right answer to the question now shown"
                return
            }
            return moveOn(past: next, checks: checks)
        }
        if case .doubleTapOffer(let offer) = expected, action == .selectOffer(offer) {
            // The first selection waits for the second; the second is the double tap, ticked.
            guard firstTap == offer else { return firstTap = offer }
            firstTap = nil
            return moveOn(past: next, checks: checks)
        }
        firstTap = nil
        guard expected == action else { return }
        moveOn(past: next, checks: checks)
    }

    /// The tester dismissed an alert (checks read while it showed): the walk moves on, so the live
    /// expectations settle, and a `back` step is ticked, as `back` on an alert only dismisses it.
    public mutating func alertDismissed(checks: [Int: StepOutcome]) {
        guard current != nil else { return }
        if let next = nextStep, case .reader(.back) = current!.scenario.steps[next].kind {
            moveOn(past: next, checks: checks)
            return
        }
        for live in liveExpectations {
            current!.outcomes[live] = (checks[live] ?? current!.outcomes[live]).settled
        }
    }

    /// A control was used from the control pane: ticks the next step when it is the control's action.
    public mutating func controlUsed(_ step: StepKind, checks: [Int: StepOutcome]) {
        // "Background and back" is the `background` a scenario writes before its `foreground` too.
        if step == .world(.foreground), let current, let next = nextStep,
            current.scenario.steps[next].kind == .world(.background)
        {
            moveOn(past: next, checks: checks)
        }
        guard let current, let next = nextStep, Self.matches(step, current.scenario.steps[next].kind) else { return }
        moveOn(past: next, checks: checks)
    }

    /// The world settled (`checks` of every expectation; `screen` the phone's): the live expectations
    /// show whether they hold, and an `open feed|profile|paywall` step is ticked once the phone is there,
    /// whichever keys took it there.
    public mutating func observe(_ checks: [Int: StepOutcome], screen: ScreenID) {
        guard let current else { return }
        if let next = nextStep, case .reader(let action) = current.scenario.steps[next].kind,
            Self.screen(action) == screen
        {
            moveOn(past: next, checks: checks)
        }
        for live in liveExpectations { self.current!.outcomes[live] = checks[live] ?? .waiting }
    }

    /// Answers are in flight: the live expectations wait for the world to settle.
    public mutating func observeInFlight() {
        for live in liveExpectations { current!.outcomes[live] = .waiting }
    }

    /// Every walk this session, for the report; the current one's live expectations settle if no step is left (those
    /// still waiting for answers stay pending: `StepOutcome.reported`).
    public var report: [WalkedScenario] {
        guard var current else { return earlier }
        if nextStep == nil { current.outcomes = current.outcomes.map(\.reported) }
        return earlier.filter { $0.scenario.file != current.scenario.file } + [current]
    }

    private mutating func archive(_ walked: WalkedScenario) {
        var walked = walked
        if nextStep == nil { walked.outcomes = walked.outcomes.map(\.reported) }
        earlier.removeAll { $0.scenario.file == walked.scenario.file }
        earlier.append(walked)
    }

    /// A control's step stands for the scenario's: the same, or a new device whatever its name.
    static func matches(_ done: StepKind, _ expected: StepKind) -> Bool {
        if case .world(.newDevice) = done, case .world(.newDevice) = expected { return true }
        return done == expected
    }

    private static func screen(_ action: ReaderAction) -> ScreenID? {
        switch action {
        case .openFeed: .feed
        case .openProfile: .profile
        case .openPaywall: .paywall
        default: nil
        }
    }
}
