import FoundationEssentials
import Scenarios
import SimKernel

/// The whole `scenarios/` directory run headless in process, as `paywall-sim play scenarios` runs it:
/// the wall time beside the virtual time the scenarios cover.
enum ScenariosBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        guard let resources = AppArgument.resources else {
            throw UsageError(message: "cannot find the bundled scenarios (scenarios/)")
        }
        let files = try ScenarioFiles.collect([resources.root + "/scenarios"])
        let scenarios = try files.map { file throws in try ScenarioParser.parse(file: file) }
        let runner = ScenarioRunner(resources: resources)
        let rounds = options.count ?? 5
        var virtualMilliseconds: Int64 = 0
        var passed = 0
        let seconds = measure {
            for _ in 0..<rounds {
                for scenario in scenarios {
                    let result = runner.run(scenario)
                    virtualMilliseconds += result.virtualMilliseconds
                    if result.passed { passed += 1 }
                }
            }
        }
        let runs = rounds * scenarios.count
        let virtualDays = Double(virtualMilliseconds) / Double(rounds) / 86_400_000
        print(
            "scenarios: \(scenarios.count) files, \(passed)/\(runs) passed over \(rounds) rounds; "
                + "\(String(printf: "%.3f", seconds / Double(rounds))) s of wall time per round of the directory, "
                + "covering \(String(printf: "%.1f", virtualDays)) days of virtual time")
    }
}
