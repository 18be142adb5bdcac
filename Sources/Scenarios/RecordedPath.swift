import FoundationEssentials

/// A file a recording names (`storekit FILE`, `app CONFIG`), written relative to the recording's folder where the two
/// share a folder below the root: an absolute path replays only on the machine that wrote it (session 34). A replay
/// reads a relative path from the scenario's folder first (`ScenarioSetup.resolvedOrBeside`), and either form replays.
enum RecordedPath {
    /// `path` (absolute) as seen from `folder`; `path` itself when they share nothing but the root, where `../..`
    /// climbing out of the recording's tree would be no more portable than the absolute path.
    static func relative(_ path: String, from folder: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let target = components(path)
        let base = components(folder)
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        guard common > 0, common < target.count else { return path }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...]).joined(separator: "/")
    }

    private static func components(_ path: String) -> [String] {
        URL(fileURLWithPath: path).standardizedFileURL.path.split(separator: "/").map(String.init)
    }
}
