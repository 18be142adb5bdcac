import FoundationEssentials
import Scenarios
import SimKernel
import Simulation
import TerminalUI
import WhiteLabel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `paywall-sim [run]`: the app in the terminal.
enum RunCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(
            arguments,
            valued: [
                "--app", "--storekit", "--state", "--seed", "--latency", "--inject", "--record", "--walk", "--report",
            ],
            flags: ["--ephemeral"])
        if options.has("--help") {
            print(Usage.run)
            return ExitCode.ok
        }
        if options.has("--ephemeral") && options["--state"] != nil {
            throw UsageError(message: "--state and --ephemeral cannot be used together")
        }
        let walk = try walkSession(options)
        let seed = try options.integer("--seed", in: 0...Int.max, default: 1)
        let latencyName = options["--latency"] ?? "typical"
        guard let latency = LatencyProfile.named(latencyName) else {
            let names = LatencyProfile.all.map(\.name).joined(separator: ", ")
            throw UsageError(message: "--latency: unknown profile \"\(latencyName)\" (profiles: \(names))")
        }
        let faults = try options["--inject"].map { text throws(UsageError) -> FaultPlan in
            do {
                let plan = try FaultPlan.parse(text)
                try World.check(plan)
                return plan
            } catch {
                throw UsageError(message: "--inject: \(error)")
            }
        }
        let (config, resources) = try AppArgument.load(options["--app"], storekit: options["--storekit"])
        let theme = try AppArgument.theme(for: config, resources: resources)
        if let record = options["--record"] { try checkRecordPath(record) }
        // A walk's worlds live in memory: each scenario starts from its own setup.
        let state =
            options.has("--ephemeral") || walk != nil
            ? nil : options["--state"] ?? defaultStateDirectory(for: config)
        let unreplayable = state.flatMap(Self.unreplayable)
        if let unreplayable, options["--record"] != nil { throw UsageError(message: "--record: \(unreplayable)") }
        // No terminal: refused before the state folder is created or locked.
        do {
            try TerminalFront.checkTerminal()
        } catch {
            throw UsageError(message: "\(error)")
        }
        // A message about the default folder names it, not an option nobody gave (h3, session 29).
        let option = options["--state"] != nil ? "--state" : "\(config.app.id)'s state folder"
        let lock = try state.map { folder throws(UsageError) in try StateFolder.own(folder, option: option) }
        defer { withExtendedLifetime(lock) {} }
        var worldOptions = WorldOptions(seed: UInt64(seed), latency: latency, stateDirectory: state)
        worldOptions.reopensLastPhone = true
        let world: World
        do {
            world = try World(config: config, options: worldOptions)
        } catch {
            // Refused: the folder is left as it was, its lock file too (a refused run signed it, session 28).
            lock?.restore()
            throw error
        }
        if let faults {
            do {
                try world.inject(faults)
            } catch {
                throw UsageError(message: "--inject: \(error)")
            }
        }
        let recordings = Recordings(
            recorder: recorder(options, seed: UInt64(seed), latency: latency, faults: faults, state: state),
            sessionFile: options["--record"], directory: FileManager.default.currentDirectoryPath,
            unreplayable: unreplayable)
        let code: Int32
        do {
            if let walk {
                world.launch()
                code = try TerminalFront.run(world: world, theme: theme, walk: walk)
                return code
            }
            // A .storekit file's time rate speeds the clock up as Xcode's StoreKit testing does.
            let speed = config.store.storekitSettings?.virtualSecondsPerSecond ?? 1
            code = try TerminalFront.run(
                world: world, theme: theme, speed: speed, recordings: recordings, save: world.saveClock)
        } catch {
            throw UsageError(message: "\(error)")
        }
        // One message, not the timeline's errors one by one: every write after the first failed the same way.
        if let failure = world.storageFailure {
            for message in recordings.messages { printError(message) }
            throw UsageError(
                message: "\(failure.path): cannot be written (\(failure.reason)); the run stopped there, and the "
                    + "folder keeps what was written before")
        }
        for message in recordings.messages + world.problems {
            printError(message)
        }
        return code == ExitCode.ok && recordings.writeFailed ? ExitCode.badInput : code
    }

    /// `--walk FILE|DIR`: the scenarios, checked before the terminal opens; `--report FILE` where `s` writes.
    private static func walkSession(_ options: Options) throws(UsageError) -> WalkSession? {
        guard let path = options["--walk"] else {
            if options["--report"] != nil { throw UsageError(message: "--report goes with --walk FILE|DIR") }
            return nil
        }
        for option in ["--state", "--record"] where options[option] != nil {
            throw UsageError(message: "--walk keeps each scenario's world in memory: \(option) cannot be used with it")
        }
        let scenarios = try ScenarioArgument.load(path, option: "--walk")
        let report = options["--report"] ?? FileManager.default.currentDirectoryPath + "/walk-report.md"
        // Checked before the terminal opens: `s` wrote the report over any file of that name, a ledger too.
        try OutputFile.check(report, option: "--report", own: .walkReport)
        let resources = AppArgument.resources
        return WalkSession(
            scenarios: scenarios, resources: resources, reportPath: report,
            theme: { config in try? AppArgument.theme(for: config, resources: resources) })
    }

    /// Records from launch, with the setup that rebuilds this world: `r` and `--record` write from it.
    private static func recorder(
        _ options: Options, seed: UInt64, latency: LatencyProfile, faults: FaultPlan?, state: String?
    ) -> ScenarioRecorder {
        let (app, setup) = recordedApp(app: options["--app"], storekit: options["--storekit"])
        let comments =
            state.map {
                ["recorded by paywall-sim run with its state in \($0): what earlier sessions left there is not here"]
            } ?? ["recorded by paywall-sim run"]
        return ScenarioRecorder(
            app: app, seed: seed, latency: latency, setup: setup, settings: faults.map { [.inject($0)] } ?? [],
            comments: comments)
    }

    /// The setup lines naming what `--app` and `--storekit` ran, as `AppArgument.load` reads them: a `.storekit`
    /// file alone (`--storekit FILE`, or `--app FILE.storekit`) is `storekit FILE` and no `app` line; an owner's app
    /// selling from one is both. `run --storekit FILE` was recorded as `app FILE`, which replays only while the file's
    /// name ends in `.storekit`: any other name was read as an app's config (session 33).
    static func recordedApp(app: String?, storekit: String?) -> (app: String?, setup: [SetupStep]) {
        let absolute = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.path }
        var (owner, file) = (app, storekit)
        if file == nil, let named = owner, named.hasSuffix(".storekit") { (owner, file) = (nil, named) }
        let setup = file.map { [SetupStep.storekit(absolute($0))] } ?? []
        guard var owner else { return (file == nil ? AppArgument.defaultApp : nil, setup) }
        if owner.contains("/") || owner.hasSuffix(".json") { owner = absolute(owner) }
        return (owner, setup)
    }

    /// Why a recording of a run on `folder` would not replay: a scenario starts from an empty world, and the
    /// purchases, phones and clock earlier sessions left in the folder are not in it (a recording made on a folder
    /// replayed without its earlier charge, session 27). Nil for a new folder.
    private static func unreplayable(_ folder: String) -> String? {
        guard StateCheck.databases.contains(where: { FileManager.default.fileExists(atPath: "\(folder)/\($0)") })
        else { return nil }
        return "\(folder) holds earlier sessions, which a recording cannot carry and its replay would start without; "
            + "record with --ephemeral or a new --state folder"
    }

    /// `$XDG_STATE_HOME/paywall-sim/APP`, else `~/.local/state/paywall-sim/APP`. A relative
    /// `XDG_STATE_HOME` is ignored, as the XDG spec says: it would depend on the working directory.
    static func defaultStateDirectory(for config: DemoConfig) -> String {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state"
        // The first name's folder, or one an earlier build named by the second, if only that one is there.
        let folders = StateCheck.folderNames(for: config).map { "\(base)/paywall-sim/\($0)" }
        return folders.first { FileManager.default.fileExists(atPath: $0) } ?? folders[0]
    }

    /// `--record FILE`: checked before the session, so a session is never lost to a path that cannot be written.
    private static func checkRecordPath(_ path: String) throws(UsageError) {
        try OutputFile.check(path, option: "--record", own: .recording)
    }
}
