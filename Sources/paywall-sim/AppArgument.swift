import Foundation
import WhiteLabel

/// Resolves `--app NAME|PATH` to a loaded config, finding the bundled apps from any working directory.
enum AppArgument {
    static let defaultApp = "daily-news"

    static var resources: ResourceLocator? {
        ResourceLocator.find(
            environment: ProcessInfo.processInfo.environment, executablePath: executablePath,
            workingDirectory: FileManager.default.currentDirectoryPath)
    }

    static func load(_ argument: String?) throws(UsageError) -> (DemoConfig, ResourceLocator?) {
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
        guard let resources else { throw UsageError(message: "cannot find the bundled themes (themes/)") }
        do {
            return try ThemeLoader.load(path: resources.themePath(named: config.app.theme))
        } catch {
            throw UsageError(
                message: "theme \"\(config.app.theme)\" of \(config.sourcePath ?? "the app"): \(error.description)")
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
