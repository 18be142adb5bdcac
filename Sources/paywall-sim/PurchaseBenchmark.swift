import AppFlow
import FoundationEssentials
import SimKernel
import Simulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CPU time of one full purchase with typical latency: launch, the paywall, Apple's sheet, the charge,
/// the receipt to the backend, the unlocked article — on the virtual clock, so seconds of latency
/// cost nothing but the work around them. Each purchase runs in a fresh in-memory world.
enum PurchaseBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        let count = options.count ?? 500
        let (config, _) = try AppArgument.load(nil)
        var virtualSeconds = 0.0
        var unlocked = 0
        var processCPU = 0.0
        let wall = try measure {
            let cpuStart = cpuSeconds()
            for seed in 0..<count {
                let world = try World(config: config, options: WorldOptions(seed: UInt64(seed), latency: .typical))
                let start = world.scheduler.now
                world.launch()
                world.scheduler.runUntilIdle()
                for input in [ReaderInput.down, .select, .select] { world.send(input) }
                world.scheduler.runUntilIdle()
                world.send(.down)
                world.send(.select)
                world.scheduler.runUntilIdle()
                world.send(.select)
                world.scheduler.runUntilIdle()
                if world.appState.access.unlocks(["premium"]) { unlocked += 1 }
                virtualSeconds += Double((world.scheduler.now - start).milliseconds) / 1000
            }
            processCPU = cpuSeconds() - cpuStart
        }
        let perPurchase = processCPU / Double(count) * 1_000_000
        print(
            "purchase: \(count) full purchases with typical latency, \(unlocked) unlocked; "
                + "CPU \(Int(perPurchase)) µs per purchase (wall \(String(printf: "%.3f", wall)) s in all); "
                + "virtual time \(String(printf: "%.1f", virtualSeconds / Double(count))) s per purchase")
    }

    /// This process's CPU time, user and system.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}
