import Database

@testable import BackendSim

/// Every row of every table of a ledger, read only: two snapshots are equal when nothing was written.
struct LedgerSnapshot: Equatable, CustomStringConvertible {
    /// Table name → its rows in rowid order, each rendered as text.
    let tables: [String: [String]]

    init(_ ledger: BackendLedger) throws {
        let database = ledger.database
        var tables: [String: [String]] = [:]
        let names = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0.first?.string }
        for name in names {
            tables[name] = try database.query("SELECT * FROM \"\(name)\" ORDER BY rowid").map { row in
                row.map(Self.text).joined(separator: " | ")
            }
        }
        self.tables = tables
    }

    /// The same snapshot without `table`, for a refusal the contract says is recorded (a stale notification).
    func without(_ table: String) -> LedgerSnapshot {
        var tables = tables
        tables[table] = nil
        return LedgerSnapshot(tables: tables)
    }

    /// The rows of `table` in `after` that this snapshot did not have.
    func rowsAdded(to table: String, in after: LedgerSnapshot) -> [String] {
        Array((after.tables[table] ?? []).dropFirst(tables[table]?.count ?? 0))
    }

    var description: String {
        tables.keys.sorted().map { "\($0): \(tables[$0]?.count ?? 0) rows" }.joined(separator: ", ")
    }

    private init(tables: [String: [String]]) { self.tables = tables }

    private static func text(_ value: SQLValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .text(let text): "'\(text)'"
        case .blob(let bytes): "x'" + bytes.map { String($0, radix: 16) }.joined() + "'"
        case .null: "NULL"
        }
    }
}
