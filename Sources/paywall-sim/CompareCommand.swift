import FoundationEssentials
import Scenarios
import WhiteLabel

/// `paywall-sim compare FILE|DIR… [--vary KEY=V1,V2…] [--live]`: the same scenario and seed in a world per
/// value, in lockstep; a table of where they diverge, then a summary.
enum CompareCommand {
    static let valued: Set<String> = ["--vary"]
    static let flags: Set<String> = ["--live"]

    static func main(_ arguments: [String]) throws -> Int32 {
        let (paths, optionArguments) = Options.split(arguments, valued: valued)
        let options = try Options(optionArguments, valued: valued, flags: flags)
        if options.has("--help") {
            print(Usage.compare)
            return ExitCode.ok
        }
        guard !paths.isEmpty else { throw UsageError(message: "name the scenario to compare, and --vary KEY=V1,V2") }
        let variation = try options["--vary"].map { (text) throws(UsageError) in
            do throws(VariationError) {
                return try Variation.parse(text, source: "--vary")
            } catch {
                throw UsageError(message: "--vary: \(error.description)")
            }
        }
        let scenarios: [Scenario]
        do {
            scenarios = try ScenarioFiles.collect(paths).map { (file) throws(ConfigError) in
                let scenario = try ScenarioParser.parse(file: file)
                try scenario.checkApp(resources: AppArgument.resources)
                return scenario
            }
        } catch {
            throw UsageError(message: error.description)
        }
        guard !scenarios.isEmpty else {
            throw UsageError(message: "no .scenario files in \(paths.joined(separator: ", "))")
        }
        if options.has("--live") { return try LiveCompare.main(scenarios, variation: variation) }
        // Every comparison is planned before any report is printed, so bad input is one message and exit 2.
        var results: [ComparedWorlds] = []
        for scenario in scenarios { results.append(try compare(scenario, variation)) }
        print(results.map(ComparisonReport.text).joined(separator: "\n\n"))
        if results.count > 1 {
            let passed = results.filter(\.passed).count
            print("\n\(results.count) compared: \(passed) passed, \(results.count - passed) failed")
        }
        return results.allSatisfy(\.passed) ? ExitCode.ok : ExitCode.failures
    }

    /// One comparison; a world that cannot even be set up (a storefront the catalog lacks) is bad input.
    static func compare(_ scenario: Scenario, _ variation: Variation?) throws(UsageError) -> ComparedWorlds {
        let result: ComparedWorlds
        do throws(VariationError) {
            result = try ScenarioComparison.run(scenario, variation: variation, resources: AppArgument.resources)
        } catch {
            throw UsageError(message: error.description)
        }
        for (label, world) in zip(result.labels, result.worlds) {
            if let failure = world.failure, failure.expected == ScenarioRun.setupExpectation {
                let source = variation == nil ? "the vary line" : "--vary"
                throw UsageError(message: "\(source) \(label): cannot set up that world: \(failure.actual)")
            }
        }
        return result
    }
}
