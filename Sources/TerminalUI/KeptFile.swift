import FoundationEssentials

/// A file the terminal writes at the end of its work (a recording, a walk's report), checked again then: a file the
/// reader put at that path during the session is kept, and the output goes to the next free name beside it (`--record`
/// and `--report` were checked only at the start, session 25).
public enum KeptFile {
    /// `path`, or `NAME-2.EXT`, `NAME-3.EXT`…: the first that is absent, a device or FIFO (written through), empty, or
    /// `own`'s file as written (`OwnOutput`); a symbolic link is judged by the file it points to.
    public static func path(_ path: String, own: OwnOutput) -> String {
        var candidate = path
        var number = 1
        while !mayWrite(candidate, own: own) {
            number += 1
            candidate = numbered(path, number)
        }
        return candidate
    }

    private static func mayWrite(_ path: String, own: OwnOutput) -> Bool {
        switch Result(catching: { () throws(OutputWriteError) in try OutputWriter.target(path) }) {
        case .success(.absent), .success(.passThrough): return true
        case .success(.file(let file)): return FileManager.default.contents(atPath: file).map(own.mayReplace) ?? false
        // A folder, a socket, a loop of links: the next name.
        case .failure: return false
        }
    }

    private static func numbered(_ path: String, _ number: Int) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(path)-\(number)" }
        let folder = path.dropLast(name.count)
        return "\(folder)\(name[..<dot])-\(number)\(name[dot...])"
    }
}
