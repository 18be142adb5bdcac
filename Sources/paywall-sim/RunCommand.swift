import Foundation
import SimKernel
import Simulation
import TerminalUI
import WhiteLabel

/// `paywall-sim [run]`: the app in the terminal.
enum RunCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(
            arguments, valued: ["--app", "--state", "--seed", "--latency", "--inject"], flags: ["--ephemeral"])
        if options.has("--help") {
            print(Usage.run)
            return ExitCode.ok
        }
        if options.has("--ephemeral") && options["--state"] != nil {
            throw UsageError(message: "--state and --ephemeral cannot be used together")
        }
        let seed = try options.integer("--seed", in: 0...Int.max, default: 1)
        let latencyName = options["--latency"] ?? "typical"
        guard let latency = LatencyProfile.named(latencyName) else {
            let names = LatencyProfile.all.map(\.name).joined(separator: ", ")
            throw UsageError(message: "--latency: unknown profile \"\(latencyName)\" (profiles: \(names))")
        }
        let faults = try options["--inject"].map { text throws(UsageError) -> FaultPlan in
            do {
                return try FaultPlan.parse(text)
            } catch {
                throw UsageError(message: "--inject: \(error)")
            }
        }
        let (config, resources) = try AppArgument.load(options["--app"])
        let theme = try AppArgument.theme(for: config, resources: resources)
        let state = options.has("--ephemeral") ? nil : options["--state"] ?? defaultStateDirectory(app: config.app.id)
        let world = try World(
            config: config, options: WorldOptions(seed: UInt64(seed), latency: latency, stateDirectory: state))
        if let faults {
            do {
                try world.inject(faults)
            } catch {
                throw UsageError(message: "--inject: \(error)")
            }
        }
        do {
            return try TerminalFront.run(world: world, theme: theme)
        } catch {
            throw UsageError(message: "\(error)")
        }
    }

    /// `$XDG_STATE_HOME/paywall-sim/APP`, else `~/.local/state/paywall-sim/APP`.
    static func defaultStateDirectory(app: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return "\(base)/paywall-sim/\(app)"
    }
}
