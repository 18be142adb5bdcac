#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database files this process's connections have open, by device and inode. Closing any descriptor of a file
/// drops every POSIX lock the process holds on it, SQLite's own included: a file is looked at by a descriptor of its
/// own only while none of them has it open (`Database.isOpenHere`; session 32).
final class OpenFiles: @unchecked Sendable {
    static let shared = OpenFiles()

    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64

        /// The file at `path`, its links followed; nil when there is none.
        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private let lock = Lock()
    private var counts: [Identity: Int] = [:]

    func opened(_ file: Identity) { lock.withLock { counts[file, default: 0] += 1 } }

    func closed(_ file: Identity) {
        lock.withLock {
            let count = counts[file, default: 1] - 1
            counts[file] = count > 0 ? count : nil
        }
    }

    func isOpen(_ file: Identity) -> Bool { lock.withLock { counts[file] != nil } }
}
