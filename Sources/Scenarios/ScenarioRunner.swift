import AppFlow
import SimKernel
import Simulation
import WhiteLabel

/// Runs scenarios headless on the virtual clock: builds the world from the setup, runs each step,
/// and lets the world run until idle after every action.
public struct ScenarioRunner: Sendable {
    /// How many timeline lines a failure shows.
    public static let timelineTail = 15
    public let resources: ResourceLocator?

    public init(resources: ResourceLocator?) {
        self.resources = resources
    }

    public func run(_ scenario: Scenario) -> ScenarioResult {
        if scenario.needsComparison { return compared(scenario) }
        let run = ScenarioRun(scenario: scenario, resources: resources)
        var failure: ScenarioFailure?
        var stepsRun = 0
        for step in scenario.steps {
            stepsRun += 1
            do {
                try run.execute(step)
            } catch {
                if step.mayFail { continue }
                failure = run.failure(at: step, error)
                break
            }
        }
        return run.result(stepsRun: stepsRun, failure: failure)
    }

    /// A scenario that varies worlds plays as its comparison; one that only expects it fails at that line.
    private func compared(_ scenario: Scenario) -> ScenarioResult {
        do {
            return try ScenarioComparison.run(scenario, resources: resources).asScenarioResult(scenario)
        } catch {
            let line = scenario.divergence?.line ?? scenario.steps.first { $0.condition != nil }?.line ?? 1
            let failure = ScenarioFailure(
                file: scenario.file, line: line, step: "expect diverge or when",
                expected: "a comparison (paywall-sim compare \(scenario.file) --vary KEY=V1,V2)",
                actual: error.description, screen: "", timeline: [])
            return ScenarioResult(
                file: scenario.file, name: scenario.name, title: scenario.title, sees: scenario.sees, stepsRun: 0,
                stepCount: scenario.steps.count, virtualMilliseconds: 0, failure: failure)
        }
    }
}
