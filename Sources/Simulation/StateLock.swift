import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a state folder cannot be taken: another process holds it, or the lock file cannot be made.
public struct StateLockError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// One owner per state folder: an exclusive `flock` on `DIR/lock`, held until this value is released
/// or the process ends. The kernel drops the lock when its holder dies, so a killed run's folder is
/// taken over by the next one with nothing to clean up.
public final class StateLock {
    public static let fileName = "lock"
    private let descriptor: Int32
    private let path: String
    /// Whether this process made the lock file, and else what it held before `signPid` wrote over it: a run refused
    /// after it took the lock puts the file back as it found it (`restore`).
    private let madeFile: Bool
    private var signedOver: (bytes: [UInt8], times: [timespec])?
    /// SQLite's side files as the folder had them when taken: `restore` removes those made since (`SQLiteSideFiles`).
    private let sideFiles: SQLiteSideFiles

    /// Takes the folder's lock at once, or throws naming the process that holds it.
    public convenience init(folder: String) throws(StateLockError) {
        try self.init(folder: folder, creating: true)
        signPid()
    }

    /// The folder's lock taken as `init(folder:)` takes it when it has a lock file, nil when it has none: a
    /// folder refused for its shape gets no lock file of its own. The file is left as it was until `signPid`.
    public static func existing(folder: String) throws(StateLockError) -> StateLock? {
        guard FileManager.default.fileExists(atPath: "\(folder)/\(fileName)") else { return nil }
        return try StateLock(folder: folder, creating: false)
    }

    private init(folder: String, creating: Bool) throws(StateLockError) {
        let path = "\(folder)/\(Self.fileName)"
        // Made here, or opened as it is: what `restore` does differs. Never through a symbolic link: the pid was
        // written into the file it pointed to, whatever that held (session 29); `O_EXCL` already refuses to follow one.
        var descriptor = creating ? open(path, O_RDWR | O_CLOEXEC | O_CREAT | O_EXCL, 0o644) : -1
        let madeFile = descriptor >= 0
        if !madeFile && (!creating || errno == EEXIST) { descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW) }
        if descriptor < 0 && errno == ELOOP { throw Self.linkRefusal(path) }
        guard descriptor >= 0 else {
            throw StateLockError(
                description: "\(folder): cannot create its lock file (\(String(cString: strerror(errno))))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            // The holder writes its pid just after it takes the lock: a moment's wait covers that gap.
            var holder = Self.holder(descriptor)
            for _ in 0..<100 where holder == nil {
                usleep(2_000)
                holder = Self.holder(descriptor)
            }
            close(descriptor)
            throw StateLockError(description: "\(folder) is in use by paywall-sim, pid \(holder ?? "unknown")")
        }
        self.descriptor = descriptor
        self.path = path
        self.madeFile = madeFile
        sideFiles = SQLiteSideFiles(folder: folder)
    }

    /// Writes this process's pid into the lock file, for the message a second process prints; the lock itself is
    /// the flock.
    public func signPid() {
        var status = stat()
        if !madeFile && signedOver == nil && fstat(descriptor, &status) == 0 {
            var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            if count == bytes.count { signedOver = (bytes, [status.st_atim, status.st_mtim]) }
        }
        Self.replace(descriptor, with: Array("\(getpid())\n".utf8))
    }

    /// The file's bytes replaced by `bytes`: written over the old ones, then cut to their length. Emptied first, the
    /// file lost its block, and a full disk (or `ulimit -f`) refused the write that followed: the lock file was left
    /// empty, and a refused run could not put it back (h3 06, session 29).
    private static func replace(_ descriptor: Int32, with bytes: [UInt8]) {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        if written == bytes.count { _ = ftruncate(descriptor, off_t(bytes.count)) }
    }

    /// Puts the lock file back as this process found it, the lock still held: removed if this process made it, else
    /// its bytes and times as they were. A run refused after taking the lock (another app's folder) signed it, and
    /// README says a refused folder is left as it was (session 28). SQLite's side files made since the lock was
    /// taken go too (`SQLiteSideFiles`): call it once the refused world's databases are closed.
    public func restore() {
        sideFiles.removeMade()
        if madeFile {
            unlink(path)
        } else if let (bytes, times) = signedOver {
            Self.replace(descriptor, with: bytes)
            _ = times.withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }
        }
    }

    private init(holding descriptor: Int32, folder: String, path: String) {
        self.descriptor = descriptor
        self.path = path
        madeFile = false
        sideFiles = SQLiteSideFiles(folder: folder)
    }

    /// A reader's hold on the folder (`check --ledger`): a shared lock, so no owner writes while it reads, taken
    /// without creating or writing anything. Nil when the folder never had an owner (no lock file). Throws naming
    /// the process that owns the folder now: read while it writes, its ledger and its App Store's records are caught
    /// between two commits, and the check would report tampering that never happened.
    public static func reading(folder: String) throws(StateLockError) -> StateLock? {
        let path = "\(folder)/\(fileName)"
        // Never through a symbolic link, as an owner's lock (h3, session 29): its target is none of the folder's.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 && errno == ELOOP { throw Self.linkRefusal(path) }
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else {
            let holder = Self.holder(descriptor)
            close(descriptor)
            throw StateLockError(
                description: "\(folder) is in use by paywall-sim, pid \(holder ?? "unknown"): check it once that ends")
        }
        return StateLock(holding: descriptor, folder: folder, path: path)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// A lock file that is a symbolic link, refused by an owner and a reader alike.
    private static func linkRefusal(_ path: String) -> StateLockError {
        StateLockError(
            description: "\(path): a symbolic link, which the lock never follows; remove it, the next run makes its "
                + "own lock file")
    }

    private static func holder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace()
        return Int32(text) == nil ? nil : text
    }
}
