import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `write(2)`: what a file descriptor takes, or -1 and `errno`. Tests hand `OutputWriter` one that fails as a full disk
/// does, which no test can make of a real device without root.
typealias ByteWriter = @Sendable (Int32, UnsafeRawBufferPointer) -> Int

#if canImport(Glibc)
    let systemWrite: ByteWriter = { Glibc.write($0, $1.baseAddress, $1.count) }
#elseif canImport(Darwin)
    let systemWrite: ByteWriter = { Darwin.write($0, $1.baseAddress, $1.count) }
#endif

/// Why an output file could not be written, in a person's words ("No space left on device").
public struct OutputWriteError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// What a path an output option names is, once its symbolic links are followed.
public enum OutputTarget: Equatable, Sendable {
    /// Nothing there yet: the file is made at `path` (a link's target, when a link named it).
    case absent(path: String)
    /// A regular file: replaced whole at `path` (a link's target, never the link), keeping its mode.
    case file(path: String)
    /// A character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe): written through, never replaced.
    case passThrough(path: String)

    public var path: String {
        switch self {
        case .absent(let path), .file(let path), .passThrough(let path): path
        }
    }
}

/// Every output option's write (`--junit`, `--cast`, `--record`, a walk's report, `fuzz --out`). Writing a temporary
/// file and renaming it over the path replaced `/dev/null` with a regular file, and a symbolic link with a file of
/// its own while the file it pointed to kept its old text (session 26). A regular file is still replaced whole, so a
/// kill never leaves half a report, but the one a link points to, with its mode; a device or a FIFO is opened and
/// written, so `/dev/full` fails with "No space left on device"; a folder is refused.
public enum OutputWriter {
    /// The target `path` names; an error for a folder, a block device, a socket or a loop of links.
    public static func target(_ path: String) throws(OutputWriteError) -> OutputTarget {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                // A name under a file (`notes.txt/out.xml`) is absent too: the folder check says why it cannot be made.
                guard errno == ENOENT || errno == ENOTDIR else { throw failure(current, errno) }
                return .absent(path: current)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                current = try linkTarget(current)
            case S_IFREG:
                return .file(path: current)
            case S_IFCHR, S_IFIFO:
                return .passThrough(path: current)
            case S_IFDIR:
                throw OutputWriteError(description: "\(current) is a folder, not a file")
            default:
                throw OutputWriteError(description: "\(current) is not a file (a block device or a socket)")
            }
        }
        throw OutputWriteError(description: "\(path): too many levels of symbolic links")
    }

    /// Writes `text`, sealed as `own`'s, to what `path` names; a regular file there that is not `own`'s as written
    /// (put there since the option was checked) is kept and the write refused. Returns the path written.
    @discardableResult
    public static func write(_ text: String, to path: String, as own: OwnOutput) throws(OutputWriteError) -> String {
        if case .file(let file) = try target(path) {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw OutputWriteError(description: "\(file): cannot be read to see whose it is")
            }
            guard own.mayReplace(data) else {
                throw OutputWriteError(description: "\(file) exists and is not paywall-sim's own unedited output: kept")
            }
        }
        return try write(own.sealed(text), to: path)
    }

    /// Writes `text` to what `path` names (see `OutputTarget`); returns the path written.
    @discardableResult
    public static func write(_ text: String, to path: String) throws(OutputWriteError) -> String {
        try write(text, to: path, writer: systemWrite)
    }

    @discardableResult
    static func write(_ text: String, to path: String, writer: ByteWriter) throws(OutputWriteError) -> String {
        let target = try target(path)
        let bytes = Array(text.utf8)
        switch target {
        case .passThrough(let device):
            let descriptor = open(device, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure(device, errno) }
            // A FIFO whose reader has gone is EPIPE, said as such, rather than a SIGPIPE that kills the process.
            let pipeAction = signal(SIGPIPE, SIG_IGN)
            defer { signal(SIGPIPE, pipeAction) }
            let written = writeAll(descriptor, bytes, writer)
            let closed = close(descriptor) == 0 ? 0 : errno
            if written != 0 { throw failure(device, written) }
            if closed != 0 { throw failure(device, closed) }
        case .absent(let file):
            try replace(file, with: bytes, keeping: nil, writer)
        case .file(let file):
            var info = stat()
            guard stat(file, &info) == 0 else { throw failure(file, errno) }
            try replace(file, with: bytes, keeping: info, writer)
        }
        return target.path
    }

    /// A link's target, relative to the link's folder when it is relative.
    private static func linkTarget(_ link: String) throws(OutputWriteError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count >= 0 else { throw failure(link, errno) }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !target.hasPrefix("/"), let slash = link.lastIndex(of: "/") else { return target }
        return String(link[...slash]) + target
    }

    /// A temporary file beside `file` (created with the umask's mode, or given the replaced file's mode and owner),
    /// written, synced and renamed over it; removed when any of that fails.
    private static func replace(_ file: String, with bytes: [UInt8], keeping old: stat?, _ writer: ByteWriter)
        throws(OutputWriteError)
    {
        let slash = file.lastIndex(of: "/")
        let folder = slash.map { String(file[...$0]) } ?? ""
        let name = slash.map { String(file[file.index(after: $0)...]) } ?? file
        var temporary = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 where descriptor < 0 {
            temporary = "\(folder).\(name).\(getpid())-\(attempt).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor < 0 && errno != EEXIST { throw failure(folder.isEmpty ? "." : folder, errno) }
        }
        guard descriptor >= 0 else { throw failure(file, EEXIST) }
        var problem: Int32 = 0
        if let old {
            // The owner first (root writing a person's file), then the mode, which a change of owner may clear.
            if old.st_uid != geteuid() || old.st_gid != getegid() { _ = fchown(descriptor, old.st_uid, old.st_gid) }
            if fchmod(descriptor, old.st_mode & 0o7777) != 0 { problem = errno }
        }
        if problem == 0 { problem = writeAll(descriptor, bytes, writer) }
        if problem == 0 && fsync(descriptor) != 0 { problem = errno }
        if close(descriptor) != 0 && problem == 0 { problem = errno }
        if problem == 0 && rename(temporary, file) != 0 { problem = errno }
        if problem != 0 {
            unlink(temporary)
            throw failure(file, problem)
        }
    }

    /// 0, or the errno of the write that failed.
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ writer: ByteWriter) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { writer(descriptor, $0) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    private static func failure(_ path: String, _ code: Int32) -> OutputWriteError {
        OutputWriteError(description: "\(path): \(String(cString: strerror(code)))")
    }
}
