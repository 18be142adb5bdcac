import SimKernel
import WhiteLabel

/// `paywall-sim apps`: the bundled demo apps, one line each.
enum AppsCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(arguments, valued: [], flags: [])
        if options.has("--help") {
            print(Usage.apps)
            return ExitCode.ok
        }
        guard let resources = AppArgument.resources else {
            throw UsageError(message: "cannot find the bundled demo apps (demo-configs/)")
        }
        if let reason = resources.noAppsReason { throw UsageError(message: reason) }
        for name in resources.appNames() {
            let (config, _) = try AppArgument.load(name)
            let app = config.app
            let offers = app.subscriptions.count
            print(
                "\(name.padded(toLength: 16)) \(app.name): \(app.tagline ?? "") (\(offers) offer\(offers == 1 ? "" : "s"), account \(app.account.mode.rawValue)\(app.kids ? ", kids" : ""))"
            )
        }
        return ExitCode.ok
    }
}
