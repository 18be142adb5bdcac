import CSQLite

/// In-memory connections whose owner is gone, emptied, kept with their prepared statements for the next
/// database of the same schema. Restoring the template (`sqlite3_deserialize`) resets the schema, so SQLite
/// prepared every statement again for every world; an emptied connection keeps them. What a reader can
/// observe is the same as the template's: every table empty, `sqlite_sequence` too, so rowids and
/// AUTOINCREMENT ids start over at 1, then the rows the template holds written back as they were
/// (`TemplateRows`); only the free pages inside differ, and nothing prints them.
final class SpareConnections: @unchecked Sendable {
    static let shared = SpareConnections()
    /// A few per schema: a world's databases are closed before the next world opens its own.
    private static let limit = 4

    /// A schema as its template was restored: the tables to empty (children before the tables they
    /// point to), the template's rows to write back (parents first), and the versions a spare must still
    /// have (a connection whose schema changed is closed).
    struct Key: Sendable {
        let migrations: [String]
        let tables: [String]
        let refill: [TemplateRows]
        let schemaVersion: Int64
        let userVersion: Int64
    }

    /// An emptied connection and the statements prepared on it.
    struct Spare: @unchecked Sendable {
        let handle: OpaquePointer
        let statements: [StatementKey: OpaquePointer]
        let functions: Set<String>
        let key: Key
    }

    private let lock = Lock()
    private var spares: [MigrationsKey: [Spare]] = [:]
    private var keys: [MigrationsKey: Key] = [:]

    /// A spare of this schema, if one is kept.
    func take(_ migrations: [String]) -> Spare? {
        lock.withLock { spares[MigrationsKey(migrations)]?.popLast() }
    }

    /// Whether a spare of this schema would be kept.
    func hasRoom(_ key: Key) -> Bool {
        lock.withLock { (spares[MigrationsKey(key.migrations)]?.count ?? 0) < Self.limit }
    }

    /// Keeps `spare`; false when there are enough (the caller closes it).
    func keep(_ spare: Spare) -> Bool {
        lock.withLock {
            let schema = MigrationsKey(spare.key.migrations)
            guard (spares[schema]?.count ?? 0) < Self.limit else { return false }
            spares[schema, default: []].append(spare)
            return true
        }
    }

    /// The key of `database`, just restored from its schema's template; nil (never kept) when a row the
    /// template holds could not be written back as it is (`TemplateRows`) or its foreign keys go round in a circle.
    static func key(_ migrations: [String], of database: Database) throws(DatabaseError) -> Key? {
        if let known = shared.lock.withLock({ shared.keys[MigrationsKey(migrations)] }) { return known }
        let names = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0.first?.string }
        var parents: [String: Set<String>] = [:]
        var held: [String: TemplateRows] = [:]
        for name in names {
            let quoted = "\"\(name.replacing("\"", with: "\"\""))\""
            if try database.query("SELECT EXISTS (SELECT 1 FROM \(quoted))").first?.first?.int != 0 {
                guard let rows = try TemplateRows.of(name, quoted: quoted, in: database) else { return nil }
                held[quoted] = rows
            }
            let referenced = try database.query("PRAGMA foreign_key_list(\(quoted))").compactMap { $0[2].string }
            parents[quoted] = Set(referenced.map { "\"\($0.replacing("\"", with: "\"\""))\"" }).subtracting([quoted])
        }
        var left = names.map { "\"\($0.replacing("\"", with: "\"\""))\"" }
        var order: [String] = []
        while !left.isEmpty {
            guard let next = left.first(where: { table in !left.contains { parents[$0]?.contains(table) == true } })
            else { return nil }
            order.append(next)
            left.removeAll { $0 == next }
        }
        let key = Key(
            migrations: migrations, tables: order, refill: order.reversed().compactMap { held[$0] },
            schemaVersion: try database.query("PRAGMA schema_version").first?.first?.int ?? -1,
            userVersion: try database.query("PRAGMA user_version").first?.first?.int ?? -1)
        shared.lock.withLock { shared.keys[MigrationsKey(migrations)] = key }
        return key
    }
}

/// A schema's migrations as a dictionary key: hashed by how many there are and the last one's length,
/// compared whole (a schema's migrations are one array, compared by its storage at once). Hashing every
/// migration's SQL, kilobytes, at every open and close of a database was 0.4 % of a fuzz run.
struct MigrationsKey: Hashable {
    let migrations: [String]

    init(_ migrations: [String]) { self.migrations = migrations }

    static func == (lhs: MigrationsKey, rhs: MigrationsKey) -> Bool { lhs.migrations == rhs.migrations }

    func hash(into hasher: inout Hasher) {
        hasher.combine(migrations.count)
        hasher.combine(migrations.last?.utf8.count ?? 0)
    }
}
