import FoundationEssentials
import SimKernel
import Simulation

/// Purchases, restores on another phone, month renewals and now and then a refund, one Apple ID on a
/// world kept on disk (`--state` reopens an existing one and continues with new phones). With
/// `--progress` it prints `progress N` after every step and `event` after every event on the scheduler
/// inside one: the workload the crash-safety test kills.
enum LifecycleBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        let count = options.count ?? 300
        let directory =
            options.state
            ?? FileManager.default.temporaryDirectory.path + "/"
            + "paywall-sim-lifecycle-\(ProcessInfo.processInfo.processIdentifier)"
        let lock = try BenchFolder.own(directory)
        defer {
            withExtendedLifetime(lock) {}
            if options.state == nil { try? FileManager.default.removeItem(atPath: directory) }
        }
        let (config, _) = try AppArgument.load(nil)
        var steps: [LifecycleWorkload.Step: Int] = [:]
        var workload: LifecycleWorkload?
        var stepCPU: [Double] = []
        let seconds = try measure {
            let world = try BenchFolder.opening(lock) {
                try World(
                    config: config,
                    options: WorldOptions(
                        seed: options.seed, latency: .none, stateDirectory: directory, deviceName: "lifecycle"))
            }
            let running = LifecycleWorkload(world: world, seed: options.seed)
            workload = running
            if options.progress { running.onEvent = { StandardStream.output("event\n") } }
            for index in 1...count {
                let began = Floors.cpuSeconds()
                steps[try running.step(), default: 0] += 1
                stepCPU.append(Floors.cpuSeconds() - began)
                if options.progress { StandardStream.output("progress \(index)\n") }
            }
        }
        let made = [LifecycleWorkload.Step.purchase, .restore, .renewal, .refund].map {
            "\(steps[$0] ?? 0) \($0.rawValue)s"
        }
        print(
            "lifecycle: \(count) steps (\(made.joined(separator: ", "))) in \(String(printf: "%.3f", seconds)) s = \(Int(Double(count) / seconds)) per second, on disk (refused reader actions: \(workload?.refusedActions ?? 0))"
        )
        // CPU per step over the `window` steps after each amount of history (the mean: a refund and a
        // purchase differ, and each window draws its own mix). `--count` decides which are reached:
        // 20,200 steps reach them all; a shorter run measures its 200 first (or all it has).
        let window = min(200, stepCPU.count)
        let windows = [0, 1_000, 5_000, 20_000].filter { $0 + window <= stepCPU.count }
        let perStep = windows.map { start in stepCPU[start..<start + window].reduce(0, +) / Double(window) }
        guard let base = perStep.first else { return }
        let figures = zip(windows, perStep).map { "\($0): \(Floors.millis($1))" }.joined(separator: ", ")
        print("lifecycle: CPU per step after N steps of history: \(figures)")
        BenchTable.shared.add(
            "`bench lifecycle` CPU per step at \(windows.map(String.init).joined(separator: "/")) steps of history",
            perStep.map(Floors.millis).joined(separator: " / "),
            floor: "0 history: \(Floors.millis(base)); last \(Floors.ratio(perStep.last ?? base, base)) of it",
            goal: "≤ 2× the 0-history cost at 20k")
    }
}
