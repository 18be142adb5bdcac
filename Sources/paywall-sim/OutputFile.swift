import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file an option writes (`--junit`, `--cast`, `--record`, `--report`), checked before any work: a folder it can be written in,
/// and never a file the command did not make before. `play --junit p.scenario p.scenario` wrote XML over the scenario
/// it played (session 24): an existing file is written over only when it reads as this option's own output.
enum OutputFile {
    /// `ownOutput`: whether a file's first bytes read as what this option writes.
    static func check(_ path: String, option: String, ownOutput: (String) -> Bool) throws(UsageError) {
        guard !path.isEmpty else { throw UsageError(message: "\(option) needs a file name, not an empty one") }
        var isFolder = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard !isFolder else { throw UsageError(message: "\(option): \(path) is a folder, not a file") }
            guard access(path, W_OK) == 0 else { throw UsageError(message: "\(option): cannot write \(path)") }
            let head = FileManager.default.contents(atPath: path).map {
                String(decoding: $0.prefix(256), as: UTF8.self)
            }
            guard head?.isEmpty ?? true || ownOutput(head ?? "") else {
                throw UsageError(message: "\(option): \(path) exists and is not its output; name a new file")
            }
            return
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw UsageError(message: "\(option): no folder \(folder) to write \(path) in")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw UsageError(message: "\(option): cannot write in \(folder)")
        }
    }

    /// A JUnit report as `play --junit` writes it: XML whose root is `<testsuites` (another XML file, a `pom.xml`, is
    /// not one).
    static func isJUnit(_ head: String) -> Bool { head.hasPrefix("<?xml") && head.contains("<testsuites") }
    /// An asciicast v2 recording as `play --live --cast` writes it.
    static func isCast(_ head: String) -> Bool { head.hasPrefix("{\"version\": 2") || head.hasPrefix("{\"version\":2") }
    /// A walk's report as `run --walk` writes it.
    static func isWalkReport(_ head: String) -> Bool { head.hasPrefix("# Walk report") }
    /// A session recording as `run --record` writes it.
    static func isRecording(_ head: String) -> Bool { head.hasPrefix("# recorded by paywall-sim") }
}
