import FoundationEssentials
import SimKernel
import StoreSim
import WhiteLabel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves `--app NAME|PATH` to a loaded config, finding the bundled apps from any working directory.
enum AppArgument {
    static let defaultApp = "daily-news"

    static var resources: ResourceLocator? {
        ResourceLocator.find(
            environment: ProcessInfo.processInfo.environment, executablePath: executablePath,
            workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// `--app NAME|PATH` and `--storekit FILE`: an app built around the file, or the owner's app selling from it.
    /// The file's warnings go to stderr, once; `reportsUnsold`: but for the products not on the paywall, which the
    /// caller's report lists (`check --paywall`).
    static func load(_ argument: String?, storekit: String?, reportsUnsold: Bool = false) throws(UsageError) -> (
        DemoConfig, ResourceLocator?
    ) {
        var storekitPath = storekit
        var app = argument
        if storekitPath == nil, let argument, argument.hasSuffix(".storekit") { (storekitPath, app) = (argument, nil) }
        guard let storekitPath else { return try load(argument, reportsUnsold: reportsUnsold) }
        let option = storekit == nil ? "--app" : "--storekit"
        guard FileManager.default.fileExists(atPath: storekitPath) else {
            throw UsageError(message: "\(option): no such file: \(storekitPath)")
        }
        let known = Set(Storefront.known.map(\.countryCode))
        let owner = try app.map { name throws(UsageError) in try loadQuietly(name) }
        let config: DemoConfig
        do {
            if let owner {
                config = try StoreKitApp.load(path: storekitPath, owner: owner.0, knownStorefronts: known)
            } else {
                config = try StoreKitApp.load(path: storekitPath, knownStorefronts: known)
            }
        } catch {
            throw UsageError(message: error.description)
        }
        warn(config.warnings.filter { !reportsUnsold || !$0.isUnsoldProduct })
        _ = try theme(for: config, resources: owner?.1 ?? resources)
        return (config, owner?.1 ?? resources)
    }

    /// What the simulator ignores in an imported catalog, each line led by the file and the field.
    static func warn(_ warnings: [ConfigError]) {
        for warning in warnings {
            let location = warning.location.map { "\($0): " } ?? ""
            printError("\(warning.file): \(location)warning: \(warning.message)")
        }
    }

    static func load(_ argument: String?, reportsUnsold: Bool = false) throws(UsageError) -> (
        DemoConfig, ResourceLocator?
    ) {
        let loaded = try loadQuietly(argument)
        warn(loaded.0.warnings.filter { !reportsUnsold || !$0.isUnsoldProduct })
        // Checked by every command, as `run` checks it: a config is refused by all or by none.
        _ = try theme(for: loaded.0, resources: loaded.1)
        return loaded
    }

    private static func loadQuietly(_ argument: String?) throws(UsageError) -> (DemoConfig, ResourceLocator?) {
        let name = argument ?? defaultApp
        let resources = resources
        let isPath = name.contains("/") || name.hasSuffix(".json")
        guard isPath || resources != nil else {
            throw UsageError(
                message: "cannot find the bundled demo apps (demo-configs/); set PAYWALL_SIM_HOME to the package folder"
            )
        }
        let path = isPath ? name : resources!.configPath(forApp: name)
        if !isPath && !FileManager.default.fileExists(atPath: path) {
            if let reason = resources?.noAppsReason { throw UsageError(message: "--app \(name): \(reason)") }
            let known = resources?.appNames().joined(separator: ", ") ?? ""
            throw UsageError(message: "--app: no demo app named \"\(name)\" (bundled: \(known))")
        }
        do {
            return (try DemoConfigLoader.load(path: path), resources)
        } catch {
            throw UsageError(message: error.description)
        }
    }

    /// The theme a config names, from the bundled themes.
    static func theme(for config: DemoConfig, resources: ResourceLocator?) throws(UsageError) -> Theme {
        do {
            return try ThemeLoader.load(for: config, resources: resources)
        } catch {
            throw UsageError(message: error.description)
        }
    }

    /// This process's executable, resolved through /proc on Linux so a `swift run` from anywhere finds the package.
    private static var executablePath: String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first
    }
}
