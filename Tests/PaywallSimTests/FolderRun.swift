import Scenarios
import Testing
import WhiteLabel

@testable import Simulation

/// One `run` of a scenario's steps on a state folder, for tests of what a folder keeps from one run to the next.
enum FolderRun {
    /// `text`'s steps run on the state folder `directory`, then the run quits as `run` does (its clock saved, its world
    /// gone once the caller has read it). Each step that fails is an issue: a run that did not happen proves nothing.
    static func quitAfter(_ text: String, in directory: String) throws -> World {
        let scenario = try ScenarioParser.parse(text, file: "inline.scenario")
        let run = ScenarioRun(scenario: scenario, resources: ResourceLocator(root: TestSupport.packageRoot))
        run.stateDirectory = directory
        for step in scenario.steps {
            do {
                try run.execute(step)
            } catch {
                Issue.record("line \(step.line) (\(step.text)): expected \(error.expected), got \(error.actual)")
            }
        }
        let world = try #require(run.world)
        world.saveClock()
        return world
    }
}
