/// One scenario as a person walked it (or watched it replayed): each step's outcome, in order.
public struct WalkedScenario: Equatable, Sendable {
    public let scenario: Scenario
    public var outcomes: [StepOutcome]

    public init(scenario: Scenario, outcomes: [StepOutcome]) {
        self.scenario = scenario
        self.outcomes = outcomes
    }

    /// The first step that failed, with why.
    public var firstFailure: (step: ScenarioStep, failure: StepFailure)? {
        for (step, outcome) in zip(scenario.steps, outcomes) {
            if case .failed(let failure) = outcome { return (step, failure) }
        }
        return nil
    }

    static let pendingWords = "pending (answers still in flight)"

    /// Steps done, expectations passed or failed: the ones not pending or still live.
    public var stepsSettled: Int { outcomes.filter { !$0.isLive && $0 != .pending }.count }

    /// "passed", "failed at line N", "incomplete (k of n steps)", or pending: every step done and an expectation's
    /// answers still in flight when the report was saved.
    public var verdict: String {
        if let failed = firstFailure { return "failed at line \(failed.step.line)" }
        let waiting = outcomes.filter { $0 == .waiting }.count
        if stepsSettled + waiting < outcomes.count {
            return "incomplete (\(stepsSettled) of \(outcomes.count) steps)"
        }
        return waiting > 0 ? Self.pendingWords : "passed"
    }
}

extension ScenarioReports {
    /// A walk as Markdown: the edge-case table's row for each scenario walked, then each scenario's steps
    /// with their result, so QA can file the walk with the table.
    public static func walk(_ walked: [WalkedScenario]) -> String {
        var lines = ["# Walk report", "", "| What happens | What the reader sees | Result |", "| --- | --- | --- |"]
        for entry in walked {
            lines.append("| \(cell(entry.scenario.name)) | \(cell(entry.scenario.sees ?? "")) | \(entry.verdict) |")
        }
        for entry in walked {
            lines += ["", "## \(entry.scenario.name)", "", "`\(entry.scenario.file)`", ""]
            lines += ["| Line | Step | Result |", "| --- | --- | --- |"]
            for (step, outcome) in zip(entry.scenario.steps, entry.outcomes) {
                lines.append("| \(step.line) | `\(cell(step.text))` | \(cell(describe(outcome))) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ outcome: StepOutcome) -> String {
        switch outcome {
        case .pending: "not done"
        case .done: "done"
        case .waiting: WalkedScenario.pendingWords
        case .holds: "passed (still live)"
        case .notYet(let failure): "not yet: expected \(failure.expected), got \(failure.actual)"
        case .passed: "passed"
        case .failed(let failure): "FAILED: expected \(failure.expected), got \(failure.actual)"
        }
    }
}
