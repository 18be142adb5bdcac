import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A state folder's file replaced whole (the clock, the last phone, the app, a phone's files): written beside it as
/// `.NAME.paywall-sim-XXXXXX`, then renamed over it, so a kill never leaves half of one. A kill between the two
/// leaves that file, which only this program names so: the next run that owns the folder removes it (`removeStale`).
/// Foundation's atomic write left `.dat.nosyncXXXX.YYYYYY` files, one per closed terminal, that nothing could tell
/// from another program's (session 28).
public enum StateFile {
    /// What a temp file's name holds before its six random characters.
    static let marker = ".paywall-sim-"

    public struct WriteError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Replaces `path` with `data`, or throws why it could not (and leaves no temp file).
    public static func write(_ data: Data, to path: String) throws(WriteError) {
        let slash = path.lastIndex(of: "/")
        let (folder, name) =
            slash.map { (String(path[..<$0]), String(path[path.index(after: $0)...])) } ?? (".", path)
        var template = Array("\(folder)/.\(name)\(marker)XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(description: reason(errno)) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = writeBytes(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    failure = count < 0 ? errno : EIO
                    return
                }
                offset += count
            }
        }
        // mkstemp makes the file 0600: give it the mode a new file gets, as Foundation's write did.
        if failure == 0 && fchmod(descriptor, 0o666 & ~processUmask) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw WriteError(description: reason(failure))
        }
    }

    /// Why the file at `path`, which is there, cannot be opened to be read (a permission, a loop of links); nil when
    /// it can, or when there is none. A file that cannot be read is left as it is and refused, never taken as missing
    /// nor set aside as corrupt (session 29). Without blocking: a FIFO is opened, not waited on.
    public static func unreadable(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor < 0 else {
            close(descriptor)
            return nil
        }
        return errno == ENOENT ? nil : reason(errno)
    }

    /// Removes the temp files a run killed mid-write left anywhere in `folder`: only names this program makes.
    /// Call it holding the folder's lock, so no other run's write is in progress. The paths removed.
    @discardableResult
    public static func removeStale(in folder: String) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.subpathsOfDirectory(atPath: folder)
        } catch {
            return []  // nothing listed, nothing removed: the run goes on as it would have
        }
        return names.filter(isTemporary).map { "\(folder)/\($0)" }.filter { unlink($0) == 0 }
    }

    /// `.NAME.paywall-sim-XXXXXX`, its last path component.
    public static func isTemporary(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix(".") && name.count > marker.count + 7 && name.dropLast(6).hasSuffix(marker)
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The process's umask, read without changing it where the kernel says it (`/proc/self/status`, Linux 4.7 on):
    /// `umask(2)` can only be read by setting it, which would hand another thread's new file a mask of 0 for an
    /// instant (tests run in parallel in one process).
    private static var processUmask: mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = mode_t(String(line.dropFirst("Umask:".count).filter { !$0.isWhitespace }), radix: 8)
        {
            return mask
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

/// `write(2)`, named apart from `StateFile.write`.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
