import FoundationEssentials
import Fuzzing
import Signing
import SimKernel
import Subscriptions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fuzzer's speed and memory: steps per second in memory and on disk, the resident memory
/// over 10,000 sessions (it must not grow), and the time to find and shrink a broken rule.
enum FuzzBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        guard let resources = AppArgument.resources else {
            throw UsageError(message: "cannot find the bundled demo apps (demo-configs/)")
        }
        if let reason = resources.noAppsReason { throw UsageError(message: reason) }
        let apps = resources.appNames()
        let sessions = options.count ?? 1_000
        func fuzzer(_ runs: Int, steps: Int = 60, state: String? = nil, defect: CoordinatorDefect? = nil)
            -> Fuzzer
        {
            Fuzzer(
                options: FuzzOptions(apps: apps, runs: runs, steps: steps, stateDirectory: state, defect: defect),
                resources: resources)
        }

        var result = fuzzer(0).run()
        var seconds = 0.0
        let cpu = Floors.cpu { seconds = measure { result = fuzzer(sessions).run() } }
        let perCore = Int(Double(result.steps) / cpu)
        print(
            "fuzz in memory: \(result.sessions) sessions, \(result.steps) steps in \(format(seconds)) s: "
                + "\(Int(Double(result.steps) / seconds)) steps/s (\(perCore) per CPU second)")
        let kdf = Floors.cpu { _ = PasswordHash(password: "a password", salt: [1, 2, 3]) }
        BenchTable.shared.add(
            "`fuzz` steps/s in memory (`bench fuzz`)", "\(perCore) per CPU second",
            floor:
                "one sign-up's PBKDF2 at a state folder's 10,000 iterations: \(Floors.millis(kdf)) (fuzz: 1 iteration)",
            goal: "≥ 10,000 per core")

        // A fresh folder this run makes (inside --state when given): the only one it removes.
        let scratch = try StateFolder.scratch(
            in: options.state ?? FileManager.default.temporaryDirectory.path + "/", prefix: "fuzz-bench")
        let onDisk = max(sessions / 10, 1)
        seconds = measure { result = fuzzer(onDisk, state: scratch.path).run() }
        scratch.remove()
        print(
            "fuzz on disk:   \(result.sessions) sessions, \(result.steps) steps in \(format(seconds)) s: "
                + "\(Int(Double(result.steps) / seconds)) steps/s")

        let memorySessions = 10_000
        let chunk = 1_000
        var resident: [String] = []
        let long = fuzzer(memorySessions, steps: 10)
        seconds = measure {
            for start in stride(from: 0, to: memorySessions, by: chunk) {
                _ = long.run(sessions: start..<start + chunk)
                resident.append(String(printf: "%.1f", residentMegabytes()))
            }
        }
        print(
            "fuzz memory:    resident MiB after each 1,000 of \(memorySessions) sessions (10 steps): "
                + resident.joined(separator: ", ") + " (\(format(seconds)) s)")

        var shrunk: FuzzFailure?
        seconds = measure { shrunk = fuzzer(2_000, defect: .unlockOnPurchased).run().failure }
        if let shrunk {
            let steps = shrunk.scenario.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
            print(
                "fuzz shrink:    unlock-on-purchased found in session \(shrunk.session) and shrunk from "
                    + "\(shrunk.originalSteps) steps to a \(steps)-line scenario in \(format(seconds)) s "
                    + "(\(shrunk.replays) replays)")
        }
    }

    private static func format(_ seconds: Double) -> String { String(printf: "%.2f", seconds) }

    /// The process's resident set, from /proc (Linux).
    private static func residentMegabytes() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
