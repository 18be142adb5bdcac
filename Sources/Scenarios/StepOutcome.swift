/// Where one step of a scenario stands while a person walks it or watches it replayed.
///
/// An expectation is *live* once every step before it is done: it is checked each time the world
/// settles (`holds` or `notYet`), and *settled* (`passed` or `failed`) when the next step is done.
public enum StepOutcome: Equatable, Sendable {
    /// Not reached yet.
    case pending
    /// An action or a setting, done.
    case done
    /// A live expectation while the world still has answers in flight.
    case waiting
    /// A live expectation that holds now.
    case holds
    /// A live expectation that does not hold now; it may still come true before the next step.
    case notYet(StepFailure)
    case passed
    /// An expectation that did not hold when the walk moved on, or a step that could not be done.
    case failed(StepFailure)

    /// Checked and found true, live or settled.
    public var isGreen: Bool { self == .holds || self == .passed }

    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// Live: an expectation whose steps are done, not settled yet.
    public var isLive: Bool {
        switch self {
        case .waiting, .holds, .notYet: true
        default: false
        }
    }

    /// What a live expectation is in a report saved with no step left: settled, but one whose answers are still in
    /// flight stays waiting. Saving is not a step: "FAILED: expected the world to settle first" was written of
    /// expectations the pane turned green a moment later (session 28).
    public var reported: StepOutcome { self == .waiting ? self : settled }

    /// What a live expectation settles to: what it showed last.
    public var settled: StepOutcome {
        switch self {
        case .holds: .passed
        case .notYet(let failure): .failed(failure)
        case .waiting: .failed(StepFailure(expected: "the world to settle first", actual: "answers still in flight"))
        default: self
        }
    }
}
