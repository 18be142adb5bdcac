import FoundationEssentials
import Scenarios
import SimKernel
import Simulation
import StoreSim
import TerminalUI
import WhiteLabel

/// `paywall-sim play FILE|DIR…`: runs scenarios headless and reports them.
enum PlayCommand {
    static let valued: Set<String> = ["--junit", "--jobs", "--pace", "--cast"]
    static let flags: Set<String> = ["--tap", "--markdown", "--list-faults", "--live", PlayJobs.resultsFlag]

    static func main(_ arguments: [String]) throws -> Int32 {
        let (paths, optionArguments) = Options.split(arguments, valued: valued)
        let options = try Options(optionArguments, valued: valued, flags: flags)
        if options.has("--help") {
            print(Usage.play)
            return ExitCode.ok
        }
        if options.has("--list-faults") {
            // It lists the faults and plays nothing: files named with it were dropped in silence.
            guard paths.isEmpty else {
                throw UsageError(message: "--list-faults plays nothing: name no scenario with it (\(paths[0]))")
            }
            print(faultList)
            return ExitCode.ok
        }
        // One report is printed: the other was dropped in silence.
        if options.has("--tap") && options.has("--markdown") {
            throw UsageError(message: "--tap and --markdown are two reports: give one")
        }
        guard !paths.isEmpty else { throw UsageError(message: "name the scenario files or folders to play") }
        // Before any scenario runs: a report that cannot be written is known at once, not after the whole run.
        if let path = options["--junit"] {
            try OutputFile.check(path, option: "--junit", own: .junit)
        }
        if options.has("--live") { return try LivePlay.main(paths: paths, options: options) }
        for option in ["--pace", "--cast"] where options[option] != nil {
            throw UsageError(message: "\(option) goes with --live")
        }
        let jobs = try options.integer("--jobs", in: 1...64, default: 1)
        var scenarios: [Scenario] = []
        var malformed: [ScenarioReports.Malformed] = []
        do {
            // Every file is read, and the app it names loaded, before any runs: a malformed one, or one whose
            // app cannot be loaded, stops the run at once (exit 2).
            for file in try ScenarioFiles.collect(paths) {
                do throws(ConfigError) {
                    let scenario = try ScenarioParser.parse(file: file)
                    try scenario.checkApp(resources: AppArgument.resources)
                    try scenario.checkWorldsNamed()
                    scenarios.append(scenario)
                } catch {
                    malformed.append(ScenarioReports.Malformed(file: file, message: error.description))
                }
            }
        } catch {
            throw UsageError(message: error.description)
        }
        if !malformed.isEmpty { return try reportMalformed(malformed, scenarios: scenarios, options) }
        guard !scenarios.isEmpty else {
            throw UsageError(message: "no .scenario files in \(paths.joined(separator: ", "))")
        }
        // A --jobs child leaves the warnings to its parent.
        if !options.has(PlayJobs.resultsFlag) { warnOnce(about: scenarios) }
        let results =
            jobs > 1 && scenarios.count > 1
            ? try PlayJobs.run(files: scenarios.map(\.file), jobs: jobs) : timedRuns(scenarios)
        if options.has(PlayJobs.resultsFlag) {
            print(try PlayJobs.encode(results))
            return ExitCode.ok
        }
        try report(results, options)
        return results.allSatisfy(\.passed) ? ExitCode.ok : ExitCode.failures
    }

    /// Each scenario run, with the wall-clock time it took for JUnit (the run itself never reads a clock).
    static func timedRuns(_ scenarios: [Scenario]) -> [ScenarioResult] {
        let runner = ScenarioRunner(resources: AppArgument.resources)
        let clock = ContinuousClock()
        return scenarios.map { scenario in
            let start = clock.now
            var result = runner.run(scenario)
            let elapsed = start.duration(to: clock.now).components
            result.wallSeconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            return result
        }
    }

    /// A malformed file is bad input (exit 2, its message on stderr); TAP bails out, and JUnit reports it as
    /// an error case beside the scenarios that could run.
    private static func reportMalformed(
        _ malformed: [ScenarioReports.Malformed], scenarios: [Scenario], _ options: Options
    ) throws -> Int32 {
        for file in malformed { printError(file.message) }
        if options.has("--tap") { print(ScenarioReports.tap([], malformed: malformed)) }
        if let path = options["--junit"] {
            warnOnce(about: scenarios)
            try write(ScenarioReports.junit(timedRuns(scenarios), malformed: malformed), to: path)
        }
        return ExitCode.badInput
    }

    private static func write(_ text: String, to path: String) throws(UsageError) {
        do {
            try OutputWriter.write(text, to: path, as: .junit)
        } catch {
            throw UsageError(message: "--junit: cannot write \(path) (\(error))")
        }
    }

    /// Each `.storekit` file's warnings, once however many scenarios use it.
    static func warnOnce(about scenarios: [Scenario]) {
        var seen: Set<String> = []
        let known = Set(Storefront.known.map(\.countryCode))
        for file in scenarios.flatMap(\.storekitFiles) where seen.insert(file).inserted {
            AppArgument.warn(StoreKitApp.warnings(path: file, knownStorefronts: known))
        }
    }

    private static func report(_ results: [ScenarioResult], _ options: Options) throws {
        if options.has("--tap") {
            print(ScenarioReports.tap(results))
        } else if options.has("--markdown") {
            print(ScenarioReports.markdown(results))
        } else {
            print(ScenarioReports.table(results))
        }
        if let path = options["--junit"] { try write(ScenarioReports.junit(results), to: path) }
    }

    /// Every fault target and its faults, as `inject` takes them.
    static var faultList: String {
        var lines = ["Store targets:"]
        for target in StoreFaultTarget.allCases {
            lines.append("  \(target.rawValue): \(target.faults.joined(separator: ", "))")
        }
        lines.append("Backend targets (each takes every backend fault):")
        lines.append("  \(BackendFault.targets.joined(separator: ", "))")
        lines.append("Backend faults: \(BackendFault.allCases.map(\.rawValue).joined(separator: ", "))")
        lines.append("Write: inject TARGET FAULT[:ARGUMENT] [times N | always | chance P]")
        return lines.joined(separator: "\n")
    }
}
