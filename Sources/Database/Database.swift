import CSQLite
import CWALWrites
import FoundationEssentials

/// A value in or out of SQLite.
public enum SQLValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    public var int: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var string: String? { if case .text(let value) = self { value } else { nil } }
}

/// An SQLite failure, with SQLite's own message.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    /// The file the disk could not read or write, and why (`StorageFailure`); nil for any other failure.
    public var storage: StorageFailure?
    public var description: String {
        "SQLite error \(code): \(message)" + (storage.map { " (\($0.reason))" } ?? "")
    }

    public init(code: Int32, message: String, storage: StorageFailure? = nil) {
        self.code = code
        self.message = message
        self.storage = storage
    }
}

/// One SQLite database: WAL, a busy timeout, foreign keys, prepared statements kept per SQL text (`StatementKey`),
/// and schema migrations keyed on `PRAGMA user_version`.
public final class Database {
    private var handle: OpaquePointer?
    private var statements: [StatementKey: OpaquePointer] = [:]
    /// The SQL functions defined on this connection (`defineFunction`), carried with it when it is kept spare.
    private var functions: Set<String> = []
    /// Set while this in-memory database is its schema's template as restored: on close it is emptied
    /// and kept with its prepared statements for the next world (`SpareConnections`).
    private var spareKey: SpareConnections.Key?
    /// Whether this database took over a spare connection (for tests).
    private(set) var adoptedSpare = false
    /// In memory, the empty commits' share of the pager's version (`EmptyCommits`). Read and written by this
    /// connection's own calls only, which never overlap: unchecked, as a check per statement cost more than it.
    @exclusivity(unchecked) private var empty = EmptyCommits()
    /// Where it lives; nil in memory.
    public let path: String?
    /// The file this connection has open, counted in `OpenFiles` until it closes.
    private var openFile: OpenFiles.Identity?

    /// Opens (creating if needed) the database at `path`, or an in-memory one when `path` is nil.
    /// `readOnly` opens an existing file that this connection can never write (`SQLITE_OPEN_READONLY`):
    /// no journal mode set, nothing created, every write refused by SQLite itself.
    public init(path: String?, readOnly: Bool = false) throws(DatabaseError) {
        self.path = path
        var flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var name = path ?? ":memory:"
        // A WAL file closed cleanly has no -wal beside it, and even a read-only connection would create
        // -wal and -shm to read it: `immutable` reads the file as it is and creates nothing. With a -wal
        // (a run still open, or killed), the plain read-only open uses it, so its last commits count.
        if readOnly, let path, !FileManager.default.fileExists(atPath: path + "-wal") {
            let escaped = Self.percentEncoded(path)
            name = "file:\(escaped)?immutable=1"
            flags |= SQLITE_OPEN_URI
        } else if readOnly, let path, FileManager.default.fileExists(atPath: path + "-shm") {
            // The -shm opened read-only: SQLite wrote its read marks (and, after a kill, a recovered index) into it,
            // and `check --ledger` changed a file it only read (h3, session 29). With no writer holding it, SQLite
            // reads the WAL into its own memory instead.
            name = "file:\(Self.percentEncoded(path))?readonly_shm=1"
            flags |= SQLITE_OPEN_URI
        }
        // A file this connection writes goes through the VFS that gathers each WAL transaction's frames
        // into one write (`CWALWrites`); what reaches the disk, and when, is the default VFS's.
        let vfs = path != nil && !readOnly ? pws_wal_writes_vfs() : nil
        let code = sqlite3_open_v2(name, &handle, flags, vfs)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            let storage = StorageFailure(code: code, path: path, handle: handle)
            sqlite3_close(handle)
            handle = nil
            throw DatabaseError(code: code, message: "\(path ?? ":memory:"): \(message)", storage: storage)
        }
        openFile = path.flatMap(OpenFiles.Identity.init)
        if let openFile { OpenFiles.shared.opened(openFile) }
        sqlite3_busy_timeout(handle, 5_000)
        // 1 KiB pages for a new database (a file's page size is fixed once it has one, so an existing file
        // keeps its own): the rows are small, and a transaction writes each page it changes whole, into the
        // in-memory journal or the WAL with its checksum, then again at the checkpoint. In memory a fuzz run
        // was 3 % faster (512 slower); on disk a validated purchase wrote 88 KiB of WAL frames at 4 KiB, and
        // `bench ledger` took 15 % less CPU at 1 KiB, in 8 pairs of 1,500 purchases.
        if !readOnly { try execute("PRAGMA page_size=1024") }
        if path != nil && !readOnly {
            try execute("PRAGMA journal_mode=WAL")
            try execute("PRAGMA synchronous=NORMAL")
        }
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit {
        if let spareKey, let handle, SpareConnections.shared.hasRoom(spareKey), emptied(spareKey),
            SpareConnections.shared.keep(
                .init(handle: handle, statements: statements, functions: functions, key: spareKey))
        {
            return
        }
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
        if let openFile { OpenFiles.shared.closed(openFile) }
    }

    /// Whether a connection of this process has the database at `path` open: SQLite then holds POSIX locks on it and
    /// its `-shm`, which closing any other descriptor of those files would drop (`OpenFiles`).
    public static func isOpenHere(_ path: String) -> Bool {
        OpenFiles.Identity(path).map(OpenFiles.shared.isOpen) ?? false
    }

    /// Runs SQL that returns no rows; several statements may be separated by semicolons.
    public func execute(_ sql: String) throws(DatabaseError) {
        empty.uncounted &+= 1  // whatever it runs: a commit around it is never taken for an empty one
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "failed"
            sqlite3_free(errorMessage)
            throw DatabaseError(
                code: code, message: message, storage: StorageFailure(code: code, path: path, handle: handle))
        }
    }

    /// Runs one statement with parameters bound in order.
    public func run(_ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) {
        _ = try query(sql, parameters)
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) -> [[SQLValue]] {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        let mark = path == nil ? empty.willRun(statement, handle) : nil
        // Every parameter is bound again below; only one left unbound would keep the last call's value.
        if parameters.count < sqlite3_bind_parameter_count(statement) { sqlite3_clear_bindings(statement) }
        for (offset, value) in parameters.enumerated() {
            try check(bind(value, to: statement, at: Int32(offset + 1)))
        }
        var rows: [[SQLValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
        if path == nil { empty.didRun(mark, handle) }
        return rows
    }

    /// Runs one statement that writes and answers how many rows it changed (`sqlite3_changes`): a write
    /// that may do nothing (`ON CONFLICT … DO NOTHING`) says whether it did without RETURNING, whose rows
    /// SQLite gathers in a temporary table first.
    public func runCountingChanges(_ sql: String, _ parameters: [SQLValue] = []) throws(DatabaseError) -> Int {
        _ = try query(sql, parameters)
        return Int(sqlite3_changes(handle))
    }

    /// The rowid the last successful INSERT on this connection gave its row (`sqlite3_last_insert_rowid`).
    public var lastInsertRowid: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in one transaction: all of it is written, or none.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        // Prepared once and kept, as every statement is: `execute` parsed them again for every transaction.
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a transaction is open on this connection (`BEGIN` run, no `COMMIT` or `ROLLBACK` yet, and
    /// SQLite did not roll it back itself after a failed statement).
    public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Opens a transaction that takes the write lock now (`BEGIN IMMEDIATE`), for writes whose failures the
    /// caller handles one by one and then commits together (`commit`), unlike `transaction`'s all-or-none.
    public func begin() throws(DatabaseError) { try run("BEGIN IMMEDIATE") }

    /// Commits the transaction `begin` opened.
    public func commit() throws(DatabaseError) { try run("COMMIT") }

    /// Rolls back the open transaction.
    public func rollback() throws(DatabaseError) { try run("ROLLBACK") }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws(DatabaseError) -> Int {
        Int(try query("PRAGMA user_version").first?.first?.int ?? 0)
    }

    /// Brings the schema up to the newest version; `migrations[i]` moves version i to i + 1.
    public func migrate(_ migrations: [String]) throws(DatabaseError) {
        let version = Int(try query("PRAGMA user_version").first?.first?.int ?? 0)
        // A file from a newer build has tables this one does not know: writing into it would damage it.
        guard version <= migrations.count else {
            throw DatabaseError(
                code: SQLITE_ERROR,
                message:
                    "\(path ?? ":memory:"): schema version \(version) is newer than this build knows "
                    + "(\(migrations.count)); use the paywall-sim that wrote it")
        }
        // A new in-memory database starts as a copy of the first one migrated: running every migration
        // (ALTER TABLE parses the whole schema again) was a tenth of each fuzz session's set-up.
        if path == nil && version == 0, let spare = SpareConnections.shared.take(migrations) {
            adopt(spare)
            return
        }
        if path == nil && version == 0, let image = SchemaImages.shared[migrations], restore(image) {
            // Not knowing the key only means this connection is closed, not kept.
            spareKey = try? SpareConnections.key(migrations, of: self)
            return
        }
        for (index, sql) in migrations.enumerated() where index >= version {
            try execute("BEGIN IMMEDIATE; \(sql); PRAGMA user_version = \(index + 1); COMMIT")
        }
        if path == nil && version == 0, let image = serialized() { SchemaImages.shared[migrations] = image }
    }

    /// Empties every table (children first, `sqlite_sequence` too) and writes back the template's rows
    /// (parents first) in one transaction; false when the connection is inside a transaction, its schema
    /// changed, or a write failed: it is then not kept.
    private func emptied(_ key: SpareConnections.Key) -> Bool {
        guard sqlite3_get_autocommit(handle) != 0 else { return false }
        do {
            guard try query("PRAGMA schema_version").first?.first?.int == key.schemaVersion,
                try query("PRAGMA user_version").first?.first?.int == key.userVersion
            else { return false }
            try run("BEGIN IMMEDIATE")
            do {
                for table in key.tables { try run("DELETE FROM \(table)") }
                for table in key.refill { for row in table.rows { try run(table.insert, row) } }
                try run("COMMIT")
            } catch {
                _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
                return false
            }
            return true
        } catch {
            return false
        }
    }

    /// Takes over a spare connection (empty, its statements prepared) in place of this one's own.
    private func adopt(_ spare: SpareConnections.Spare) {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
        handle = spare.handle
        empty = EmptyCommits()
        statements = spare.statements
        functions = spare.functions
        spareKey = spare.key
        adoptedSpare = true
    }

    /// The whole database as bytes (`sqlite3_serialize`).
    private func serialized() -> [UInt8]? {
        var size: sqlite3_int64 = 0
        guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else { return nil }
        defer { sqlite3_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
    }

    /// Replaces this in-memory database with `image` (`sqlite3_deserialize`); false leaves it as it was.
    private func restore(_ image: [UInt8]) -> Bool {
        guard let buffer = sqlite3_malloc64(sqlite3_uint64(image.count))?.assumingMemoryBound(to: UInt8.self)
        else { return false }
        buffer.update(from: image, count: image.count)
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        empty = EmptyCommits()
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        return sqlite3_deserialize(
            handle, "main", buffer, sqlite3_int64(image.count), sqlite3_int64(image.count), flags)
            == SQLITE_OK
    }

    /// A reading that differs after any commit to the database: this connection's (the pager's data
    /// version, schema changes too) or another's (`PRAGMA data_version`, which also makes the pager look).
    /// Equal readings: nothing was written in between, so a check of the contents may keep its answer.
    /// Nil inside a transaction: its writes show to this connection before the commit moves the stamp.
    /// In memory no other connection can write (`:memory:` is this connection's own): the pragma is skipped.
    public func changeStamp() throws(DatabaseError) -> ChangeStamp? {
        guard sqlite3_get_autocommit(handle) != 0 else { return nil }
        let others = path == nil ? 0 : try query("PRAGMA data_version").first?.first?.int ?? 0
        var pager: UInt32 = 0
        try check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &pager))
        return ChangeStamp(others: others, pager: pager &- empty.skipped)
    }

    /// The pager's data version alone (no statement run): it moves with every commit of this
    /// connection, schema changes too; nil inside a transaction, whose writes it does not show yet.
    /// Another connection's commits show only once this one reads again, so it is a version for what
    /// this process alone writes (a state folder is one process's, `StateLock`).
    public func ownDataVersion() -> UInt32? {
        guard sqlite3_get_autocommit(handle) != 0 else { return nil }
        var pager: UInt32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &pager) == SQLITE_OK
            ? pager &- empty.skipped : nil
    }

    /// `PRAGMA integrity_check`: "ok" or SQLite's list of problems.
    public func integrityCheck() throws(DatabaseError) -> String {
        try query("PRAGMA integrity_check").compactMap { $0.first?.string }.joined(separator: "\n")
    }

    /// Defines the SQL function `name` on this connection: `arity` arguments, each a blob (nil for NULL or
    /// any other type, as `SQLValue.bytes` reads them), answered with a blob. A write that needs a value
    /// derived from a row it reads (the audit's previous hash) then reads and writes in one statement.
    /// A name is one pure function for the connection's life: on a connection that already has it (a spare
    /// taken over) the call keeps the first, since redefining a function makes SQLite prepare every kept
    /// statement again (a twentieth of a fuzz session's instructions).
    public func defineFunction(_ name: String, arity: Int32, _ body: @escaping ([[UInt8]?]) -> [UInt8])
        throws(DatabaseError)
    {
        let signature = "\(name)/\(arity)"
        guard !functions.contains(signature) else { return }
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, arity, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, arguments in
                guard let context, let box = sqlite3_user_data(context) else { return }
                let body = Unmanaged<FunctionBox>.fromOpaque(box).takeUnretainedValue().body
                let values: [[UInt8]?] = (0..<Int(count)).map { index in
                    guard let value = arguments?[index], sqlite3_value_type(value) == SQLITE_BLOB else { return nil }
                    let length = Int(sqlite3_value_bytes(value))
                    guard length > 0, let bytes = sqlite3_value_blob(value) else { return [] }
                    return Array(UnsafeRawBufferPointer(start: bytes, count: length))
                }
                let result = body(values)
                result.withUnsafeBytes { pws_sqlite_result_blob(context, $0.baseAddress, Int32($0.count)) }
            }, nil, nil,
            { box in box.map { Unmanaged<FunctionBox>.fromOpaque($0).release() } })
        try check(code)
        functions.insert(signature)
    }

    // MARK: - Statements

    private func prepared(_ sql: String) throws(DatabaseError) -> OpaquePointer {
        let key = StatementKey(sql)
        if let statement = statements[key] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        statements[key] = statement
        return statement
    }

    /// How many times SQLite prepared `sql`'s kept statement again (`SQLITE_STMTSTATUS_REPREPARE`), for tests.
    func timesPreparedAgain(_ sql: String) -> Int32? {
        statements[StatementKey(sql)].map { sqlite3_stmt_status($0, SQLITE_STMTSTATUS_REPREPARE, 0) }
    }

    private func bind(_ value: SQLValue, to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch value {
        case .integer(let number): return sqlite3_bind_int64(statement, index, number)
        case .text(var text):
            // The string's own bytes with their length: passing it as a C string copied it into a new array.
            return text.withUTF8 { pws_sqlite_bind_utf8(statement, index, $0.baseAddress, Int32($0.count)) }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { pws_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) }
        case .null: return sqlite3_bind_null(statement, index)
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let base = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    private func check(_ code: Int32) throws(DatabaseError) {
        if code != SQLITE_OK { throw error(code) }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(
            code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no database",
            storage: StorageFailure(code: code, path: path, handle: handle))
    }
}

/// A Swift function SQLite calls (`defineFunction`), kept alive by the connection while it is open.
private final class FunctionBox {
    let body: ([[UInt8]?]) -> [UInt8]
    init(_ body: @escaping ([[UInt8]?]) -> [UInt8]) { self.body = body }
}

/// What `Database.changeStamp()` read.
public struct ChangeStamp: Equatable, Sendable {
    let others: Int64
    let pager: UInt32
}

/// Each schema's empty in-memory database as bytes, by its migrations, for every later world to copy.
private final class SchemaImages: @unchecked Sendable {
    static let shared = SchemaImages()
    private let lock = Lock()
    private var images: [MigrationsKey: [UInt8]] = [:]

    subscript(migrations: [String]) -> [UInt8]? {
        get { lock.withLock { images[MigrationsKey(migrations)] } }
        set { lock.withLock { images[MigrationsKey(migrations)] = newValue } }
    }
}

extension Database {
    /// `path` for a `file:` URI: every byte but a URL path's own characters percent-encoded (Foundation's
    /// `.urlPathAllowed`), so a folder named with `?` or `#` still opens.
    static func percentEncoded(_ path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in path.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
