/// How a comparison ended: where the worlds differed, how each world did, and whether the scenario's
/// `expect diverge` was met.
public struct ComparedWorlds: Equatable, Sendable {
    public let file: String
    public let name: String
    public let labels: [String]
    /// The steps after which what the worlds show changed while they differed (or came back together).
    public let rows: [DivergenceRow]
    /// Each world's own result, as `play` would report it.
    public let worlds: [ScenarioResult]
    public let expectation: DivergenceExpectation?

    /// The first step after which the worlds differed.
    public var firstDivergence: DivergenceRow? { rows.first { $0.differ } }

    /// Why the `expect diverge` line is not met; nil when it is, or there is none.
    public var unmetDivergence: String? {
        guard let expectation else { return nil }
        guard let first = firstDivergence else { return "the worlds never diverged" }
        if let step = expectation.step, first.text != step {
            return "they first diverged at line \(first.line) (\(first.text)), not at \(step)"
        }
        return nil
    }

    /// Exit code 0: every world passed, and the worlds diverged where the scenario said they would.
    public var passed: Bool { worlds.allSatisfy(\.passed) && unmetDivergence == nil }
}

/// One step of a comparison, with what each world showed after it.
public struct DivergenceRow: Equatable, Sendable {
    public let line: Int
    public let text: String
    /// Per world; nil for a world that had stopped (failed) at or before this step.
    public let observations: [WorldObservation?]
    /// The worlds (by index) that failed at this very step: their row says so, not "failed earlier" (session 28).
    public var failedHere: Set<Int> = []

    public var differ: Bool { Set(observations.map { $0?.cells ?? [] }).count > 1 }

    /// Per world, only the cells in which the worlds differ (empty when they agree): a row is reported
    /// when these change, not when every world merely moves on to the same next screen.
    var differences: [[String]] {
        let cells = observations.map { $0?.cells ?? ["(stopped)"] }
        let columns = cells.map(\.count).max() ?? 0
        let differing = (0..<columns).filter { column in
            Set(cells.map { column < $0.count ? $0[column] : "" }).count > 1
        }
        return differing.isEmpty ? [] : cells.map { row in differing.map { $0 < row.count ? row[$0] : "" } }
    }
}

extension ComparedWorlds {
    /// The comparison as one row of `play`'s reports: the first world that failed (named), else the unmet
    /// `expect diverge`.
    func asScenarioResult(_ scenario: Scenario) -> ScenarioResult {
        var failure = zip(labels, worlds).lazy.compactMap { label, world in
            world.failure.map { $0.inWorld(label) }
        }.first
        if failure == nil, let unmet = unmetDivergence, let expectation {
            failure = ScenarioFailure(
                file: file, line: expectation.line,
                step: expectation.step.map { "expect diverge at \($0)" } ?? "expect diverge",
                expected: "the worlds (\(labels.joined(separator: ", "))) to diverge", actual: unmet, screen: "",
                timeline: [])
        }
        return ScenarioResult(
            file: file, name: name, title: scenario.title, sees: scenario.sees,
            stepsRun: worlds.map(\.stepsRun).max() ?? 0, stepCount: worlds.map(\.stepCount).max() ?? 0,
            virtualMilliseconds: worlds.map(\.virtualMilliseconds).max() ?? 0, failure: failure)
    }
}

extension ScenarioFailure {
    /// The same failure, its actual outcome prefixed by the world it happened in.
    func inWorld(_ label: String) -> ScenarioFailure {
        ScenarioFailure(
            file: file, line: line, step: step, expected: expected, actual: "[\(label)] \(actual)", screen: screen,
            timeline: timeline)
    }
}
