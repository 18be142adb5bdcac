import CSQLite

/// An in-memory database's commits that changed nothing. SQLite moves the pager's data version at every write
/// transaction's end, one that changed no row too (`BEGIN IMMEDIATE; COMMIT`, an UPDATE matching none), and the
/// server runs its read-only requests (`GET /v1/me`, an article) in a transaction: what is kept by that version
/// (`changeStamp`, `ownDataVersion`: the ledger's check after each step, the store's kept reads) was read again
/// after each. A transaction, or a write outside one, that ran only statements whose changes
/// `sqlite3_total_changes64` counts (INSERT, UPDATE, DELETE, REPLACE, with their triggers; a cascade follows a
/// counted change) and left that count where it was changed no row: its move of the version is taken off
/// (`skipped`). Anything else keeps its move (`execute`, DDL, a pragma that writes). In memory only: no other
/// connection can write the database, so the pager's moves are this connection's.
struct EmptyCommits {
    struct Mark {
        let pager: UInt32
        let total: Int64
        let uncounted: UInt64
    }

    /// How far empty commits moved the pager's version.
    private(set) var skipped: UInt32 = 0
    /// Statements run whose changes the total may not count.
    var uncounted: UInt64 = 0
    /// Taken before the BEGIN of the transaction open now; nil outside one.
    private var open: Mark?

    /// Before `statement` runs: a mark when it may write and starts outside a transaction (a BEGIN IMMEDIATE,
    /// or a write of its own). A read outside one (most statements) moves no version and is not marked.
    mutating func willRun(_ statement: OpaquePointer, _ handle: OpaquePointer?) -> Mark? {
        let outside = sqlite3_get_autocommit(handle) != 0
        if outside { open = nil }  // a transaction SQLite ended itself, or `execute` ended
        guard sqlite3_stmt_readonly(statement) == 0 else { return nil }
        let mark = outside ? Self.mark(handle, uncounted) : nil
        if !Self.countsItsChanges(statement) { uncounted &+= 1 }
        return mark
    }

    /// After it ran to its end.
    mutating func didRun(_ mark: Mark?, _ handle: OpaquePointer?) {
        let inside = sqlite3_get_autocommit(handle) == 0
        if let mark {
            if inside { open = mark } else { settle(mark, handle) }
        } else if !inside, let begun = open {
            open = nil  // COMMIT or ROLLBACK
            settle(begun, handle)
        }
    }

    private mutating func settle(_ mark: Mark, _ handle: OpaquePointer?) {
        guard sqlite3_total_changes64(handle) == mark.total, uncounted == mark.uncounted,
            let now = Self.mark(handle, uncounted)
        else { return }
        skipped &+= now.pager &- mark.pager
    }

    private static func mark(_ handle: OpaquePointer?, _ uncounted: UInt64) -> Mark? {
        var pager: UInt32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &pager) == SQLITE_OK else { return nil }
        return Mark(pager: pager, total: sqlite3_total_changes64(handle), uncounted: uncounted)
    }

    /// Whether every change the statement makes is one the total counts: an INSERT, UPDATE, DELETE or REPLACE,
    /// or a transaction's BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT or RELEASE, which change no row themselves
    /// (SQLite calls BEGIN IMMEDIATE a write: it takes the write lock). Read by the first word; a WITH is not taken.
    private static func countsItsChanges(_ statement: OpaquePointer) -> Bool {
        guard var text = sqlite3_sql(statement) else { return false }
        while text.pointee == 0x20 || text.pointee == 0x0A || text.pointee == 0x09 || text.pointee == 0x0D {
            text += 1
        }
        // The first word's letters upper-cased, packed into an integer: no string is made for each write.
        var word: UInt64 = 0
        for _ in 0..<9 {
            let upper = UInt8(bitPattern: text.pointee) & ~0x20  // NUL stays 0
            guard (0x41...0x5A).contains(upper) else { break }
            word = word << 8 | UInt64(upper)
            text += 1
        }
        return countedWords.contains(word)
    }

    private static let countedWords: Set<UInt64> = Set(
        ["INSERT", "UPDATE", "DELETE", "REPLACE", "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].map {
            $0.utf8.reduce(0) { $0 << 8 | UInt64($1) }
        })
}
