import CSQLite
import CWALWrites

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the disk could not take or give: SQLite's SQLITE_FULL, SQLITE_IOERR or SQLITE_CANTOPEN, with the
/// system's reason ("No space left on device", "File too large"). SQLite alone said "disk I/O error" and named no
/// file, and a full disk at launch read as a database that was not the App Store's records (h3 06).
public struct StorageFailure: Error, CustomStringConvertible, Sendable, Equatable {
    public let path: String
    /// The system's words for the errno SQLite met; SQLITE_FULL (whose errno SQLite does not keep) is ENOSPC's.
    public let reason: String
    public var description: String { "\(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The failure a code on the connection `handle` to `path` says, or nil when it is not the disk's.
    init?(code: Int32, path: String?, handle: OpaquePointer?) {
        guard let path, [SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN].contains(code & 0xFF) else { return nil }
        // The errno of the write that failed, as the VFS noted it, first: after a failed commit SQLite's own is 0.
        var number = pws_take_failed_errno()
        if number == 0 { number = handle.map { sqlite3_system_errno($0) } ?? 0 }
        if number == 0 && code & 0xFF == SQLITE_FULL { number = ENOSPC }
        self.path = path
        reason = number != 0 ? String(cString: strerror(number)) : String(cString: sqlite3_errstr(code))
    }
}
