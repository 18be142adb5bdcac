import Testing

@testable import Database

/// A closed in-memory database is emptied and kept, its statements prepared, for the next of its schema:
/// the next must read exactly as a new one does.
@Suite struct SpareConnectionTests {
    /// A schema of its own per test: spares are shared by the whole process.
    private func schema(_ name: String) -> [String] {
        [
            "CREATE TABLE owners_\(name) (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL)",
            "CREATE TABLE pets_\(name) (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL REFERENCES owners_\(name)(id))",
        ]
    }

    private func opened(_ migrations: [String]) throws -> Database {
        let database = try Database(path: nil)
        try database.migrate(migrations)
        return database
    }

    @Test func aReusedDatabaseIsEmptyAndItsIdsStartOver() throws {
        let migrations = schema("reused")
        var adopted = false
        // The first runs the migrations, the second copies the template, the later ones are spares.
        for _ in 0..<4 {
            let database = try opened(migrations)
            adopted = adopted || database.adoptedSpare
            #expect(try database.query("SELECT count(*) FROM owners_reused") == [[.integer(0)]])
            try database.run("INSERT INTO owners_reused (name) VALUES (?)", [.text("ann")])
            try database.run("INSERT INTO pets_reused (owner) VALUES (1)")
            #expect(try database.query("SELECT id FROM owners_reused") == [[.integer(1)]])
            #expect(try database.query("SELECT id FROM pets_reused") == [[.integer(1)]])
            #expect(try database.schemaVersion() == 2)
        }
        #expect(adopted)
    }

    /// The audit chain's hash is an SQL function: a taken-over spare must still answer it, and its kept
    /// statements must not all be prepared again, as redefining a function would make SQLite do.
    @Test func aReusedDatabaseKeepsItsFunctionsAndStatements() throws {
        let migrations = schema("function")
        let sql = "INSERT INTO owners_function (name) VALUES (hex(twice(?)))"
        var adopted = false
        for _ in 0..<4 {
            let database = try opened(migrations)
            adopted = adopted || database.adoptedSpare
            try database.defineFunction("twice", arity: 1) { ($0[0] ?? []) + ($0[0] ?? []) }
            try database.run(sql, [.blob([0xAB])])
            #expect(try database.query("SELECT name FROM owners_function") == [[.text("ABAB")]])
            #expect(database.timesPreparedAgain(sql) == 0)
        }
        #expect(adopted)
    }

    /// A migration that seeds rows (the store's `held …` serials): a spare is still kept, and reads as the
    /// template does, rowids and all, whatever the last world wrote over them.
    @Test func aReusedDatabaseHoldsTheTemplatesRowsAgain() throws {
        let migrations =
            schema("seeded") + [
                """
                CREATE TABLE serials_seeded (name TEXT PRIMARY KEY, value INTEGER NOT NULL, note BLOB);
                INSERT INTO serials_seeded (name, value, note) VALUES ('b', 0, x'00ff'), ('a', 0, NULL), ('c', 7, '')
                """
            ]
        let read = "SELECT rowid, name, value, note FROM serials_seeded ORDER BY rowid"
        let seeded: [[SQLValue]] = [
            [.integer(1), .text("b"), .integer(0), .blob([0, 0xFF])], [.integer(2), .text("a"), .integer(0), .null],
            [.integer(3), .text("c"), .integer(7), .text("")],
        ]
        var adopted = false
        for _ in 0..<4 {
            let database = try opened(migrations)
            adopted = adopted || database.adoptedSpare
            #expect(try database.query(read) == seeded)
            try database.run("UPDATE serials_seeded SET value = value + 1 WHERE name = 'a'")
            try database.run("DELETE FROM serials_seeded WHERE name = 'b'")
            try database.run("INSERT INTO serials_seeded (name, value) VALUES ('d', 1)")
            try database.run("INSERT INTO owners_seeded (name) VALUES ('ann')")
            #expect(try database.query("SELECT id FROM owners_seeded") == [[.integer(1)]])
        }
        #expect(adopted)
    }

    /// A template row `SQLValue` cannot hold as it is (a REAL) is never written back: the database is closed.
    @Test func aTemplateWithARealIsNotReused() throws {
        let migrations = schema("real") + ["CREATE TABLE rates_real (x); INSERT INTO rates_real VALUES (0.1)"]
        for _ in 0..<3 {
            let database = try opened(migrations)
            #expect(!database.adoptedSpare)
            #expect(try database.query("SELECT typeof(x), x = 0.1 FROM rates_real") == [[.text("real"), .integer(1)]])
        }
    }

    @Test func aDatabaseWhoseSchemaChangedIsNotReused() throws {
        let migrations = schema("changed")
        _ = try opened(migrations)
        try opened(migrations).execute("CREATE TABLE extra_changed (x)")
        let next = try opened(migrations)
        #expect(try next.query("SELECT name FROM sqlite_master WHERE name = 'extra_changed'").isEmpty)
    }

    @Test func aDatabaseClosedInsideATransactionIsNotReusedWithItsRows() throws {
        let migrations = schema("open")
        _ = try opened(migrations)
        try opened(migrations).execute("BEGIN; INSERT INTO owners_open (name) VALUES ('bo')")
        let next = try opened(migrations)
        #expect(try next.query("SELECT count(*) FROM owners_open") == [[.integer(0)]])
    }
}
