import FoundationEssentials
import SimKernel

/// `paywall-sim bench`: the project's benchmarks, timed with the wall clock (the engine never is).
enum BenchCommand {
    /// A benchmark: its name, what it measures, and the run that prints its figures.
    struct Benchmark: Sendable {
        let name: String
        let summary: String
        let run: @Sendable (BenchOptions) throws -> Void
        /// Whether `--state DIR` means anything to it (`bench purchase --state DIR` was taken and ignored).
        var usesState = false
    }

    struct BenchOptions: Sendable {
        let count: Int?
        let state: String?
        let progress: Bool
        let seed: UInt64
    }

    static let benchmarks = [
        Benchmark(
            name: "ledger", summary: "validated purchases per second on the on-disk ledger, beside raw SQLite inserts",
            run: LedgerBenchmark.run, usesState: true),
        Benchmark(
            name: "purchase", summary: "CPU time of one full purchase with typical latency (virtual clock)",
            run: PurchaseBenchmark.run),
        Benchmark(
            name: "renewals", summary: "a simulated year of monthly renewals for 1,000 subscribers",
            run: RenewalsBenchmark.run),
        Benchmark(
            name: "render", summary: "time per key press to step the world and render the terminal frame",
            run: RenderBenchmark.run),
        Benchmark(
            name: "terminal",
            summary: "bytes to the terminal per key press and peak memory of `run`, in a pseudo-terminal",
            run: TerminalBenchmark.run, usesState: true),
        Benchmark(
            name: "scenarios", summary: "wall time of the whole scenarios/ directory beside the virtual time it covers",
            run: ScenariosBenchmark.run),
        Benchmark(
            name: "fuzz",
            summary: "fuzz steps per second in memory and on disk, memory over 10,000 sessions, time to shrink",
            run: FuzzBenchmark.run, usesState: true),
        Benchmark(
            name: "lifecycle",
            summary: "purchases, restores on another phone, renewals and refunds on a world kept on disk",
            run: LifecycleBenchmark.run, usesState: true),
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        var arguments = arguments
        let selected = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
        if selected != nil { arguments.removeFirst() }
        let options = try Options(arguments, valued: ["--count", "--state", "--seed"], flags: ["--progress"])
        if options.has("--help") {
            print(
                Usage.bench
                    + benchmarks.map { "  \($0.name.padded(toLength: 10)) \($0.summary)" }
                    .joined(separator: "\n"))
            return ExitCode.ok
        }
        let chosen =
            try selected.map { name in
                guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
                    throw UsageError(
                        message:
                            "unknown benchmark \"\(name)\" (benchmarks: \(benchmarks.map(\.name).joined(separator: ", ")))"
                    )
                }
                return [benchmark]
            } ?? benchmarks
        if options["--state"] != nil, let benchmark = chosen.first, chosen.count == 1, !benchmark.usesState {
            let users = benchmarks.filter(\.usesState).map(\.name).joined(separator: ", ")
            throw UsageError(message: "bench \(benchmark.name) does not use --state (those that do: \(users))")
        }
        let count = try options["--count"].map { _ in try options.integer("--count", in: 1...10_000_000, default: 0) }
        let seed = try options.integer("--seed", in: 0...Int.max, default: 1)
        let bench = BenchOptions(
            count: count, state: options["--state"], progress: options.has("--progress"), seed: UInt64(seed))
        for benchmark in chosen { try benchmark.run(bench) }
        if selected == nil { print("\n" + BenchTable.shared.printed()) }
        return ExitCode.ok
    }
}

/// Wall time of a piece of work, for benchmarks only.
func measure(_ work: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try work()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
