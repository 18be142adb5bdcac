import FoundationEssentials
import Fuzzing
import SimKernel
import Simulation
import Subscriptions
import TerminalUI
import WhiteLabel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `paywall-sim fuzz`: random sessions over the demo apps, the invariants checked after every
/// step; the first failure is shrunk and saved as a scenario.
enum FuzzCommand {
    static let valued: Set<String> = [
        "--app", "--storekit", "--runs", "--steps", "--seed", "--out", "--state", "--defect", "--session",
        "--invariants",
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, valued: valued, flags: [])
        if options.has("--help") {
            print(Usage.fuzz)
            return ExitCode.ok
        }
        var fuzzOptions = try fuzzOptions(options)
        let out = options["--out"] ?? "fuzz-failures"
        try checkWritable(out)
        // Sessions keep their worlds in a fresh folder this run makes inside DIR, the only thing it removes.
        let scratch = try fuzzOptions.stateDirectory.map { folder throws(UsageError) in
            try StateFolder.scratch(in: folder, prefix: "fuzz")
        }
        defer { scratch?.remove() }
        fuzzOptions.stateDirectory = scratch?.path
        let fuzzer = Fuzzer(options: fuzzOptions, resources: AppArgument.resources)
        // A run takes a minute or two: on a terminal, stderr counts the sessions as they go.
        let showProgress = isatty(STDERR_FILENO) == 1
        // `--session N` runs that one session of the run, as it runs among the others (to replay a crash).
        let only = try options["--session"].map { _ in
            try options.integer("--session", in: 0...(fuzzOptions.runs - 1), default: 0)
        }
        let result = fuzzer.run(sessions: only.map { $0..<$0 + 1 }) { session in
            guard showProgress, (session + 1) % 50 == 0 || session + 1 == fuzzOptions.runs else { return }
            StandardStream.error("\rfuzzing: \(session + 1)/\(fuzzOptions.runs) sessions")
        }
        if showProgress { StandardStream.error("\r\u{1B}[K") }
        if let reason = result.setupFailure { throw UsageError(message: reason) }
        guard result.steps > 0 else { throw UsageError(message: "no session ran a step: nothing was checked") }
        guard let failure = result.failure else {
            print(
                "\(result.sessions) session\(result.sessions == 1 ? "" : "s"), \(result.steps) steps over \(fuzzOptions.apps.joined(separator: ", ")): "
                    + "\(held(fuzzOptions.invariants)) (\(virtualDays(result)) day\(virtualDays(result) == 1 ? "" : "s") of virtual time)"
            )
            print(result.coverage.summary)
            return ExitCode.ok
        }
        let path = try save(failure, in: out)
        print(
            """
            session \(failure.session) (\(failure.app)) broke \(failure.violation)
            shrunk from \(failure.originalSteps) steps to the scenario \(path) (\(failure.replays) replays)
            replay it: paywall-sim play \(path)
            """)
        return ExitCode.failures
    }

    private static func fuzzOptions(_ options: Options) throws(UsageError) -> FuzzOptions {
        var apps = [options["--app"] ?? "all"]
        if let storekit = options["--storekit"] {
            if options["--app"] != nil { throw UsageError(message: "fuzz takes --app or --storekit, not both") }
            _ = try AppArgument.load(nil, storekit: storekit)  // warnings once, and a bad file stops here
            // Sessions name it as `app FILE.storekit`, which a saved failure replays from anywhere.
            apps = [URL(fileURLWithPath: storekit).standardizedFileURL.path]
        } else if apps == ["all"] {
            guard let resources = AppArgument.resources else {
                throw UsageError(message: "cannot find the bundled demo apps (demo-configs/); set PAYWALL_SIM_HOME")
            }
            if let reason = resources.noAppsReason { throw UsageError(message: reason) }
            apps = resources.appNames()
        } else {
            _ = try AppArgument.load(apps[0])  // a bad name or config stops here, before any session
            // A config file by its path, as a saved failure names it: absolute, so it replays from anywhere.
            if apps[0].contains("/") || apps[0].hasSuffix(".json") {
                apps = [URL(fileURLWithPath: apps[0]).standardizedFileURL.path]
            }
        }
        var defect: CoordinatorDefect?
        if let name = options["--defect"] {
            guard let known = CoordinatorDefect(rawValue: name) else {
                let names = CoordinatorDefect.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(message: "--defect: unknown defect \"\(name)\" (defects: \(names))")
            }
            defect = known
        }
        let seedText = options["--seed"] ?? "1"
        guard let seed = UInt64(seedText) else {
            throw UsageError(message: "--seed takes a whole number, not \"\(seedText)\"")
        }
        var fuzzOptions = FuzzOptions(
            apps: apps, runs: try options.integer("--runs", in: 1...10_000_000, default: 2_000),
            steps: try options.integer("--steps", in: 1...100_000, default: 60), seed: seed,
            stateDirectory: options["--state"], defect: defect)
        if let list = options["--invariants"] { fuzzOptions.invariants = try invariants(list) }
        return fuzzOptions
    }

    /// `--invariants 9,11`: the numbers of `fuzz --help`'s list.
    private static func invariants(_ list: String) throws(UsageError) -> Set<Invariant> {
        var chosen: Set<Invariant> = []
        for part in list.split(separator: ",") {
            guard let number = Int(part.trimmingSpaces()),
                let invariant = Invariant(rawValue: number)
            else {
                throw UsageError(
                    message:
                        "--invariants takes numbers from 1 to \(Invariant.allCases.count) separated by commas, not \"\(list)\""
                )
            }
            chosen.insert(invariant)
        }
        // An empty list would watch nothing and still print that the invariants held.
        if chosen.isEmpty {
            throw UsageError(
                message:
                    "--invariants takes numbers from 1 to \(Invariant.allCases.count) separated by commas, not \"\(list)\""
            )
        }
        return chosen
    }

    /// What a passing run says held: every invariant, or only those `--invariants` chose.
    private static func held(_ invariants: Set<Invariant>) -> String {
        guard invariants.count < Invariant.allCases.count else { return "every invariant held" }
        let numbers = invariants.map(\.rawValue).sorted().map(String.init).joined(separator: ", ")
        return "invariant\(invariants.count == 1 ? "" : "s") \(numbers) held (the others were not watched)"
    }

    /// `--out`: checked before the first session, so a found case is never lost at the end of a long run.
    private static func checkWritable(_ directory: String) throws(UsageError) {
        guard !directory.isEmpty else { throw UsageError(message: "--out needs a folder, not an empty name") }
        var isFolder = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
            guard isFolder else { throw UsageError(message: "--out: \(directory) is a file, not a folder") }
            guard access(directory, W_OK | X_OK) == 0 else {
                throw UsageError(message: "--out: cannot write in \(directory)")
            }
            return
        }
        // A folder made only when a case is found: its nearest existing parent must take it.
        var parent = URL(fileURLWithPath: directory).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: parent.path) { parent.deleteLastPathComponent() }
        guard access(parent.path, W_OK | X_OK) == 0,
            FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder
        else {
            throw UsageError(message: "--out: cannot create \(directory) (\(parent.path) cannot be written)")
        }
    }

    private static func virtualDays(_ result: FuzzResult) -> Int {
        Int(result.virtualTime.milliseconds / 86_400_000)
    }

    /// Writes over a file of that name only when it is an earlier failure of `fuzz` as it wrote it (a file the reader
    /// wrote or edited there is kept, and the failure takes the next free name: `…-2.scenario`).
    private static func save(_ failure: FuzzFailure, in directory: String) throws(UsageError) -> String {
        let path = KeptFile.path("\(directory)/\(failure.fileName)", own: .fuzzFailure)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageError(message: "--out: cannot create \(directory) (\(error.failureDescription))")
        }
        do {
            try OutputWriter.write(failure.scenario, to: path, as: .fuzzFailure)
        } catch {
            throw UsageError(message: "--out: cannot write \(path) (\(error))")
        }
        return path
    }
}
