import Foundation
import Fuzzing
import Subscriptions
import WhiteLabel

/// `paywall-sim fuzz`: random sessions over the demo apps, the invariants checked after every
/// step; the first failure is shrunk and saved as a scenario.
enum FuzzCommand {
    static let valued: Set<String> = [
        "--app", "--storekit", "--runs", "--steps", "--seed", "--out", "--state", "--defect", "--session",
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, valued: valued, flags: [])
        if options.has("--help") {
            print(Usage.fuzz)
            return ExitCode.ok
        }
        let fuzzOptions = try fuzzOptions(options)
        let out = options["--out"] ?? "fuzz-failures"
        let fuzzer = Fuzzer(options: fuzzOptions, resources: AppArgument.resources)
        // A run takes a minute or two: on a terminal, stderr counts the sessions as they go.
        let showProgress = isatty(STDERR_FILENO) == 1
        // `--session N` runs that one session of the run, as it runs among the others (to replay a crash).
        let only = try options["--session"].map { _ in try options.integer("--session", in: 0...10_000_000, default: 0)
        }
        let result = fuzzer.run(sessions: only.map { $0..<$0 + 1 }) { session in
            guard showProgress, (session + 1) % 50 == 0 || session + 1 == fuzzOptions.runs else { return }
            FileHandle.standardError.write(Data("\rfuzzing: \(session + 1)/\(fuzzOptions.runs) sessions".utf8))
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if let directory = fuzzOptions.stateDirectory { try? FileManager.default.removeItem(atPath: directory) }
        guard let failure = result.failure else {
            print(
                "\(result.sessions) session\(result.sessions == 1 ? "" : "s"), \(result.steps) steps over \(fuzzOptions.apps.joined(separator: ", ")): "
                    + "every invariant held (\(virtualDays(result)) day\(virtualDays(result) == 1 ? "" : "s") of virtual time)"
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
            apps = resources.appNames()
        } else {
            _ = try AppArgument.load(apps[0])  // a bad name or config stops here, before any session
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
        return FuzzOptions(
            apps: apps, runs: try options.integer("--runs", in: 1...10_000_000, default: 2_000),
            steps: try options.integer("--steps", in: 1...100_000, default: 60), seed: seed,
            stateDirectory: options["--state"], defect: defect)
    }

    private static func virtualDays(_ result: FuzzResult) -> Int {
        Int(result.virtualTime.milliseconds / 86_400_000)
    }

    private static func save(_ failure: FuzzFailure, in directory: String) throws(UsageError) -> String {
        let path = "\(directory)/\(failure.fileName)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try failure.scenario.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw UsageError(message: "--out: cannot write \(path) (\(error.localizedDescription))")
        }
        return path
    }
}
