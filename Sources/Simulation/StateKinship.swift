import Database
import FoundationEssentials
import Signing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A state folder's two databases belong together and can be written: each is stamped with the folder's identity
/// (SQLite's `application_id`, a header field, so no schema change), and the App Store's records are never behind
/// what the ledger already heard from them. A store file from another folder (its transaction ids coincide), an
/// older copy, or one whose -wal was lost after a crash was opened in silence: a cancelled subscription renewed and
/// charged, its news dropped by the backend as a duplicate; a read-only file failed every purchase (session 29).
public enum StateKinship {
    /// What is wrong with `folder`'s databases as a pair, read only, each said naming the file: empty when they
    /// belong together, or for a new folder. `run` refuses with the first; `check --ledger` reports them all.
    public static func problems(folder: String) -> [String] {
        var found = unwritable(folder: folder)
        let store = "\(folder)/appstore.sqlite"
        let ledger = "\(folder)/backend.sqlite"
        guard let apple = Reading(store), let backend = Reading(ledger) else { return found }
        if apple.stamp != 0, backend.stamp != 0, apple.stamp != backend.stamp {
            found.append(
                "\(store): from another state folder than backend.sqlite beside it (folder \(hex(apple.stamp)), the "
                    + "ledger's \(hex(backend.stamp))): put back this folder's own file, or start a new folder")
        }
        // The ledger cannot have heard a notification the store never numbered: its records lost what came after.
        if let reserved = apple.storeSerial, let heard = backend.ledgerSerial, heard > reserved {
            found.append(
                "\(store): behind backend.sqlite: the ledger heard the App Store's notification \(heard), its "
                    + "records number none past \(reserved) (an older copy, or its -wal lost after a crash): what "
                    + "Apple did since is gone; put back the newer file, or start a new folder")
        }
        return found
    }

    /// Each database not stamped yet (a new folder, or one made before the stamp) takes the folder's identity: the
    /// other's, or a new one. Run once `problems` found nothing and both databases are open.
    static func stamp(folder: String) throws(WorldSetupError) {
        let paths = StateCheck.databases.map { "\(folder)/\($0)" }
        do {
            let databases = try paths.map { path throws(DatabaseError) in try Database(path: path) }
            let stamps = try databases.map { database throws(DatabaseError) in try Reading.stamp(of: database) }
            guard stamps.contains(0) else { return }
            var identity = stamps.first { $0 != 0 } ?? 0
            while identity == 0 { identity = SecureRandom.bytes(4).reduce(0) { $0 << 8 | Int32($1) } }
            for (database, stamp) in zip(databases, stamps) where stamp == 0 {
                try database.execute("PRAGMA application_id = \(identity)")
            }
        } catch {
            throw WorldSetupError(
                description: "\(folder): cannot stamp its databases as one folder's (\(error.message))")
        }
    }

    /// A database, or its -wal or -shm beside it, this process cannot write: SQLite opened it and every purchase,
    /// renewal and notification then failed ("attempt to write a readonly database").
    private static func unwritable(folder: String) -> [String] {
        StateCheck.databases.flatMap { name in
            ["", "-wal", "-shm"].compactMap { suffix -> String? in
                let path = "\(folder)/\(name)\(suffix)"
                guard FileManager.default.fileExists(atPath: path), access(path, W_OK) != 0 else { return nil }
                return "\(path): cannot be written (\(String(cString: strerror(errno)))): every purchase and renewal "
                    + "would fail; make it writable for this user, or start a new folder"
            }
        }
    }

    private static func hex(_ stamp: Int32) -> String {
        Hex.encode((0..<4).map { UInt8(truncatingIfNeeded: stamp >> (24 - 8 * $0)) })
    }

    /// What one database says of itself, read only; nil when it is not there. What cannot be read stays unknown:
    /// `StateCheck` refuses a file it cannot open, and one from before the serials or notifications has none.
    private struct Reading {
        /// The folder's identity it was stamped with; 0 before the stamp.
        var stamp: Int32 = 0
        /// The store's last notification serial reserved (`StoreLedger.nextSerial`), nil for a ledger.
        var storeSerial: Int64?
        /// The highest serial among the notification ids the ledger took (`NotificationBuilder.nextUUID`).
        var ledgerSerial: Int64?

        init?(_ path: String) {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            do {
                let database = try Database(path: path, readOnly: true)
                stamp = try Self.stamp(of: database)
                if path.hasSuffix("appstore.sqlite") {
                    let rows = try database.query("SELECT value FROM serials WHERE name = 'notification'")
                    storeSerial = rows.first?.first?.int ?? 0
                } else {
                    // The last 12 hex digits of a numbered id; an unnumbered one's start at 8…f (`nextUUID`).
                    let rows = try database.query(
                        "SELECT max(substr(uuid, 25)) FROM notifications WHERE length(uuid) = 36 AND substr(uuid, 25, 1) < '8'"
                    )
                    ledgerSerial = rows.first?.first?.string.flatMap { Int64($0, radix: 16) }
                }
            } catch {
                return
            }
        }

        static func stamp(of database: Database) throws(DatabaseError) -> Int32 {
            Int32(truncatingIfNeeded: try database.query("PRAGMA application_id").first?.first?.int ?? 0)
        }
    }
}
