import Scenarios
import Simulation
import Testing
import WhiteLabel

/// A scenario's steps run under the invariant monitor, as `expect invariants` watches them.
enum MonitoredRun {
    /// Every violation of `invariant` the monitor saw while `text`'s steps ran. A step the world refused is
    /// recorded as an issue: a session that did not happen proves nothing.
    static func violations(of invariant: Invariant, _ text: String) throws -> [String] {
        let scenario = try ScenarioParser.parse(text, file: "inline.scenario")
        let run = ScenarioRun(
            scenario: scenario, resources: ResourceLocator(root: TestSupport.packageRoot), monitored: true)
        for step in scenario.steps {
            do {
                try run.execute(step)
            } catch {
                Issue.record("line \(step.line) (\(step.text)): \(error.actual)")
            }
        }
        return run.violations.filter { $0.violation.invariant == invariant }.map { "\($0.violation), \($0.seen)" }
    }
}
