import SimKernel

/// How one scenario ended: passed, or failed at a step with what was expected and what happened.
public struct ScenarioResult: Codable, Equatable, Sendable {
    public let file: String
    public let name: String
    public let title: String?
    public let sees: String?
    /// Steps run, the failing one included.
    public let stepsRun: Int
    public let stepCount: Int
    /// Virtual time the scenario covered, in milliseconds.
    public let virtualMilliseconds: Int64
    public let failure: ScenarioFailure?
    /// Wall-clock seconds the run took, measured by the command that ran it (the engine never reads a clock).
    public var wallSeconds: Double? = nil
    /// Everything the timeline logged, for the sequence diagram of `play --markdown`.
    public var timeline: [TimelineEntry]? = nil

    public var passed: Bool { failure == nil }
}

/// Where and why a scenario failed, with what the phone showed then.
public struct ScenarioFailure: Codable, Equatable, Sendable {
    public let file: String
    public let line: Int
    public let step: String
    public let expected: String
    public let actual: String
    /// The rendered screen at the failure (`ScreenRenderer.plainText`).
    public let screen: String
    /// The last lines of the timeline.
    public let timeline: [String]

    /// The whole failure as a QA engineer reads it: where, what, the screen, the end of the timeline.
    public var report: String {
        var lines = [
            "\(file):\(line): \(step)", "  expected: \(expected)", "  actual:   \(actual)", "  screen:",
        ]
        lines += screen.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
        lines.append("  timeline (last \(timeline.count) lines):")
        lines += timeline.map { "    \($0)" }
        return lines.joined(separator: "\n")
    }
}
