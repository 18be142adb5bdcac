import FoundationEssentials

/// A file the terminal writes at the end of its work (a recording, a walk's report), checked again then: a file the
/// reader put at that path during the session is kept, and the output goes to the next free name beside it (`--record`
/// and `--report` were checked only at the start, session 25).
enum KeptFile {
    /// `path`, or `NAME-2.EXT`, `NAME-3.EXT`…: the first that is absent, empty, or starts with `ownPrefix`.
    static func path(_ path: String, ownPrefix: String) -> String {
        var candidate = path
        var number = 1
        while let data = FileManager.default.contents(atPath: candidate), !data.isEmpty,
            !String(decoding: data.prefix(256), as: UTF8.self).hasPrefix(ownPrefix)
        {
            number += 1
            candidate = numbered(path, number)
        }
        return candidate
    }

    private static func numbered(_ path: String, _ number: Int) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(path)-\(number)" }
        let folder = path.dropLast(name.count)
        return "\(folder)\(name[..<dot])-\(number)\(name[dot...])"
    }
}
