import FoundationEssentials

/// Finds the bundled `demo-configs/` and `themes/` folders from any working directory:
/// `$PAYWALL_SIM_HOME` first, then the folders above the executable (a `swift run` build
/// lives in the package's `.build/`), then the working directory and its parents.
public struct ResourceLocator: Sendable {
    public let root: String
    /// Whether `root` is `$PAYWALL_SIM_HOME`'s, which a message about a missing app names.
    public let fromEnvironment: Bool

    public init(root: String, fromEnvironment: Bool = false) {
        self.root = root
        self.fromEnvironment = fromEnvironment
    }

    public static func find(environment: [String: String], executablePath: String?, workingDirectory: String)
        -> ResourceLocator?
    {
        if let home = environment["PAYWALL_SIM_HOME"], !home.isEmpty {
            return ResourceLocator(root: home, fromEnvironment: true)
        }
        var starts: [String] = []
        if let executablePath {
            starts.append(
                URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent().path)
        }
        starts.append(workingDirectory)
        for start in starts {
            var directory = URL(fileURLWithPath: start)
            while true {
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent("demo-configs").path) {
                    return ResourceLocator(root: directory.path)
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }

    public var demoConfigsDirectory: String { root + "/demo-configs" }
    public var themesDirectory: String { root + "/themes" }

    /// The bundled app names, sorted.
    public func appNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: demoConfigsDirectory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Why there is no bundled app to run, naming the folder looked in and where it came from; nil when there is one.
    /// `fuzz` divided by their count and crashed, `apps` printed nothing, when PAYWALL_SIM_HOME held none (session 26).
    public var noAppsReason: String? {
        guard appNames().isEmpty else { return nil }
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: demoConfigsDirectory, isDirectory: &isFolder)
        let what =
            exists && isFolder
            ? "\(demoConfigsDirectory) holds no demo app (NAME.json)" : "there is no folder \(demoConfigsDirectory)"
        let origin =
            fromEnvironment
            ? "PAYWALL_SIM_HOME is \(root), and \(what); set it to the paywall-sim package folder"
            : "\(what) (found from where paywall-sim runs); set PAYWALL_SIM_HOME to the paywall-sim package folder"
        return "no demo apps: \(origin)"
    }

    /// A name of a bundled app, or a path to a config file.
    public func configPath(forApp nameOrPath: String) -> String {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") { return nameOrPath }
        return "\(demoConfigsDirectory)/\(nameOrPath).json"
    }

    public func themePath(named name: String) -> String { "\(themesDirectory)/\(name).json" }
}
