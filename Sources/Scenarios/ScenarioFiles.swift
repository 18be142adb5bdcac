import FoundationEssentials
import WhiteLabel

/// Finds the scenario files a command line names: files as given, folders searched for `*.scenario`.
public enum ScenarioFiles {
    public static let fileExtension = ".scenario"

    /// Every file, in order given, each folder's files sorted; a missing path is a `ConfigError`.
    public static func collect(_ paths: [String]) throws(ConfigError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ConfigError(file: path, message: "no such file or folder")
            }
            guard isDirectory else {
                files.append(path)
                continue
            }
            let found = ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).filter {
                $0.hasSuffix(fileExtension)
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            files += found.sorted().map { "\(base)/\($0)" }
        }
        return files
    }
}
