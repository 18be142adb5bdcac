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
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Puts the lock file back as this process found it, the lock still held: removed if this process made it, else
    /// its bytes and times as they were. A run refused after taking the lock (another app's folder) signed it, and
    /// README says a refused folder is left as it was (session 28).
    public func restore() {
        if madeFile {
            unlink(path)
        } else if let (bytes, times) = signedOver {
            _ = ftruncate(descriptor, 0)
            _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            _ = times.withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }
        }
    }

    private init(holding descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        madeFile = false
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
        return StateLock(holding: descriptor, path: path)
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
