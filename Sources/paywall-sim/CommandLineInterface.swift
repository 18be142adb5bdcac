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

/// A line of a command's output, each control character but line ends and tabs shown as `\u{1B}`: reports
/// quote input files (an app's name, a `.storekit` display name, a screen), and a third party's file must not
/// retitle or drive the reader's terminal. It stands in for the standard library's `print` in this whole
/// module, so no command can forget it.
func print(_ text: String) {
    Swift.print(text.withVisibleControls)
}

/// A message on stderr, shown as `print` shows its text: errors and warnings quote input files too.
func printError(_ message: String) {
    StandardStream.error(message.withVisibleControls + "\n")
}
