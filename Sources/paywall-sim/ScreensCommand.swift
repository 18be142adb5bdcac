import Simulation

/// `paywall-sim screens`: every screen of an app as text, in the order a reader meets them.
enum ScreensCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, valued: ["--app", "--storekit", "--width"], flags: [])
        if options.has("--help") {
            print(Usage.screens)
            return ExitCode.ok
        }
        let width = try options.integer("--width", in: 24...120, default: 40)
        let (config, _) = try AppArgument.load(options["--app"], storekit: options["--storekit"])
        let stops = try ScreenTour.run(config: config)
        // This module's `print` shows each control character as `\u{1B}`, as README says and `check` does: a config's
        // "\u001b[2J" never reaches the reader's terminal, and the owner sees that the file holds one (session 28).
        print(stops.map { $0.text(width: width) }.joined(separator: "\n\n"))
        return ExitCode.ok
    }
}
