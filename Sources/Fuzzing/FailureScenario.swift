import Scenarios
import Simulation

/// A shrunk failing session written as a scenario file that fails the same way under `play`:
/// its steps, then the expectation that the guarantees hold.
struct FailureScenario {
    let steps: [SessionStep]
    let violation: InvariantViolation
    /// Where it came from, for the header: app, seed, session number.
    let origin: String
    let originalStepCount: Int

    var text: String {
        var lines = [
            "# Found by \(origin); shrunk from \(originalStepCount) steps to \(steps.count).",
            "# Broken: invariant \(violation.invariant.rawValue), \(violation.invariant).",
            "# Seen: \(violation.detail)",
            "title Fuzz: invariant \(violation.invariant.rawValue) broken",
            "sees \(violation.invariant)",
        ]
        lines += steps.map { step in
            (step.refused ? "try " : "") + (step.waits ? "" : "without waiting ") + StepText.line(step.kind)
        }
        lines.append(
            violation.invariant == .nothingPaidLost
                ? StepText.expectation(.nothingLost) : StepText.expectation(.invariants))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The file's name: app, seed, session and the broken invariant, so reruns do not collide.
    static func fileName(app: String, seed: UInt64, session: Int, invariant: Invariant) -> String {
        let base = app.split(separator: "/").last.map(String.init) ?? app
        let name = base.hasSuffix(".json") ? String(base.dropLast(5)) : base
        return "fuzz-\(name)-seed\(seed)-session\(session)-invariant\(invariant.rawValue).scenario"
    }
}
