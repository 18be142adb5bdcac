import FoundationEssentials
import Scenarios
import WhiteLabel

/// Scenario files named on the command line for the terminal (`run --walk`, `play --live`): read, parsed
/// and their setup tried before the terminal opens, so a mistake is one message and exit 2.
enum ScenarioArgument {
    /// Every scenario in `path` (a file, or a folder searched for `*.scenario`).
    static func load(_ path: String, option: String) throws(UsageError) -> [Scenario] {
        let scenarios: [Scenario]
        do {
            scenarios = try ScenarioFiles.collect([path]).map { (file) throws(ConfigError) in
                let scenario = try ScenarioParser.parse(file: file)
                try scenario.checkApp(resources: AppArgument.resources)
                return scenario
            }
        } catch {
            throw UsageError(message: "\(option): \(error.description)")
        }
        guard !scenarios.isEmpty else { throw UsageError(message: "\(option): no .scenario files in \(path)") }
        for scenario in scenarios {
            // One world cannot show a comparison: say which command can.
            if scenario.needsComparison {
                throw UsageError(
                    message: "\(option): \(scenario.file) compares worlds (vary, expect diverge or when): "
                        + "run paywall-sim compare \(scenario.file) --live")
            }
            try checkSetup(scenario, option: option)
        }
        return scenarios
    }

    /// Builds and launches the scenario's world once, as the walk or the replay will.
    static func checkSetup(_ scenario: Scenario, option: String) throws(UsageError) {
        let run = ScenarioRun(scenario: scenario, resources: AppArgument.resources)
        let setup = scenario.steps.prefix { $0.kind.configures }
        do {
            for step in setup { try run.execute(step) }
            try run.launchedWorld()
        } catch {
            let line = scenario.steps[min(setup.count, scenario.steps.count - 1)].line
            throw UsageError(message: "\(option): \(scenario.file):\(line): cannot set up the world: \(error.actual)")
        }
    }
}
