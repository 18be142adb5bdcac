import Database

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite's own files beside a state folder's databases, `-wal` and `-shm`: a launch refused on a full disk left the
/// empty ones it had made, in a folder that had none (h3 06, session 29).
struct SQLiteSideFiles {
    private let folder: String
    private let before: Set<String>

    /// Notes the side files there now, before this process opens either database.
    init(folder: String) {
        self.folder = folder
        before = Set(
            StateCheck.databases.flatMap { ["\($0)-wal", "\($0)-shm"] }.filter { access("\(folder)/\($0)", F_OK) == 0 })
    }

    /// Removes each side file made since `init` that holds nothing, once no connection has it open: a `-wal` of 0
    /// bytes (no frame, so no commit), then a `-shm` with no `-wal` beside it (the index of no log). A `-wal` that
    /// holds frames stays: they may be commits, and a checkpoint may have begun to copy them into the database.
    func removeMade() {
        for database in StateCheck.databases {
            let (wal, shm) = ("\(folder)/\(database)-wal", "\(folder)/\(database)-shm")
            guard !before.contains("\(database)-shm") || !before.contains("\(database)-wal"),
                Self.unheld("\(folder)/\(database)")
            else {
                continue
            }
            var status = stat()
            if !before.contains("\(database)-wal"), lstat(wal, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                status.st_size == 0
            {
                unlink(wal)
            }
            if !before.contains("\(database)-shm"), access(wal, F_OK) != 0 { unlink(shm) }
        }
    }

    /// Whether no connection, in any process, this one included, has `database` open. This process's own are known
    /// without a look at the file: its `-shm` opened and closed here while one of them had it open, the close dropped
    /// every POSIX lock the process held on it, SQLite's included (session 32). Another process's connection holds a
    /// read lock on the index's DMS byte (128) while open, which an open file description's lock conflicts with. True
    /// when there is no `-shm`.
    private static func unheld(_ database: String) -> Bool {
        guard !Database.isOpenHere(database) else { return false }
        let descriptor = open("\(database)-shm", O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        return fcntl(descriptor, ofdSetLock, &lock) == 0
    }

    /// Linux's F_OFD_SETLK, which Glibc's module does not export.
    private static let ofdSetLock: Int32 = 37
}
