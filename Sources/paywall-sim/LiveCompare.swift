import Scenarios
import Simulation
import TerminalUI

/// `compare FILE --vary KEY=A,B --live`: the scenario's two worlds side by side in the terminal, after its
/// setup and the steps before its first reader action; one keyboard drives both.
enum LiveCompare {
    static func main(_ scenarios: [Scenario], variation: Variation?) throws -> Int32 {
        guard scenarios.count == 1 else {
            throw UsageError(message: "--live compares one scenario file, not \(scenarios.count)")
        }
        let scenario = scenarios[0]
        guard let labels = (variation ?? scenario.variation)?.labels else {
            throw UsageError(
                message: "\(scenario.file): nothing to compare: write a vary line, or give --vary KEY=V1,V2")
        }
        guard labels.count == 2 else {
            throw UsageError(message: "--live shows two worlds side by side; give two values, not \(labels.count)")
        }
        let worlds: [World]
        do throws(VariationError) {
            worlds = try ScenarioComparison.prepare(scenario, variation: variation, resources: AppArgument.resources)
        } catch {
            throw UsageError(message: "--live: \(error.description)")
        }
        let theme = try AppArgument.theme(for: worlds[0].config, resources: AppArgument.resources)
        do {
            return try CompareFront.run(worlds: worlds, labels: labels, theme: theme)
        } catch {
            throw UsageError(message: "\(error)")
        }
    }
}
