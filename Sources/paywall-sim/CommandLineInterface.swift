import FoundationEssentials
import SimKernel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exit codes, as design.md sets them.
enum ExitCode {
    static let ok: Int32 = 0
    static let failures: Int32 = 1
    static let badInput: Int32 = 2
}

/// A mistake in how the command was called, or in a file it was given: one message, exit 2.
struct UsageError: Error {
    let message: String
}

/// Dispatches `paywall-sim [COMMAND] [OPTIONS]` to a command.
enum CommandLineInterface {
    static let commands: [String: @Sendable ([String]) throws -> Int32] = [
        "run": RunCommand.main,
        "screens": ScreensCommand.main,
        "apps": AppsCommand.main,
        "check": CheckCommand.main,
        "bench": BenchCommand.main,
        "play": PlayCommand.main,
        "compare": CompareCommand.main,
        "fuzz": FuzzCommand.main,
    ]

    static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--help"] || arguments == ["-h"] || arguments.first == "help" {
            print(Usage.overview)
            return ExitCode.ok
        }
        var arguments = arguments
        var name = "run"
        if let first = arguments.first, !first.hasPrefix("-") {
            name = first
            arguments.removeFirst()
        }
        guard let command = commands[name] else {
            printError(
                "paywall-sim: unknown command \"\(name)\". Commands: \(commands.keys.sorted().joined(separator: ", "))."
            )
            return ExitCode.badInput
        }
        do {
            return try command(arguments)
        } catch let error as UsageError {
            printError("paywall-sim \(name): \(error.message)")
            return ExitCode.badInput
        } catch {
            printError("paywall-sim \(name): \(error)")
            return ExitCode.badInput
        }
    }
}

func printError(_ message: String) {
    StandardStream.error((message + "\n"))
}
