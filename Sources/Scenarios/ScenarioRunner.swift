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
}
