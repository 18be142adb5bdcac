import FoundationEssentials
import TerminalUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file an option writes (`--junit`, `--cast`, `--record`, `--report`), checked before any work: a folder it can be
/// written in, and never a file the command did not make before. `play --junit p.scenario p.scenario` wrote XML over
/// the scenario it played (session 24): an existing file is written over only when it is this option's own output as
/// paywall-sim wrote it (`OwnOutput`: sealed, not a byte changed). A symbolic link is judged by the file it points
/// to, and a device or FIFO (`/dev/null`, a pipe) is written through (`OutputWriter`).
enum OutputFile {
    static func check(_ path: String, option: String, own: OwnOutput) throws(UsageError) {
        guard !path.isEmpty else { throw UsageError(message: "\(option) needs a file name, not an empty one") }
        let target: OutputTarget
        do {
            target = try OutputWriter.target(path)
        } catch {
            throw UsageError(message: "\(option): \(error)")
        }
        switch target {
        case .passThrough(let device):
            guard access(device, W_OK) == 0 else { throw UsageError(message: "\(option): cannot write \(device)") }
            return
        case .file(let file):
            guard access(file, W_OK) == 0 else { throw UsageError(message: "\(option): cannot write \(file)") }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw UsageError(message: "\(option): cannot read \(file) to see whose it is")
            }
            guard own.mayReplace(data) else {
                throw UsageError(
                    message: "\(option): \(file) exists and is not its output as paywall-sim wrote it (another "
                        + "program's, or edited since); name a new file")
            }
            try checkFolder(of: file, path: path, option: option)
        case .absent(let file):
            try checkFolder(of: file, path: path, option: option)
        }
    }

    /// The file is replaced through a temporary file beside it: its folder must take one.
    private static func checkFolder(of file: String, path: String, option: String) throws(UsageError) {
        var isFolder = false
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw UsageError(message: "\(option): no folder \(folder) to write \(path) in")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw UsageError(message: "\(option): cannot write in \(folder)")
        }
    }
}
