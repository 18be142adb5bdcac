/// The rows a schema's template holds in one table (a migration that seeds a row: the store's `held …` serials at
/// 0), written back into a spare after it is emptied, so it reads as the template does, rowids too. Without them the
/// store's template was never kept spare: each world restored it, parsed the schema and prepared its statements
/// again (session 31: an eighth of a fuzz step).
struct TemplateRows: Sendable {
    let insert: String
    let rows: [[SQLValue]]

    /// `table`'s rows (`quoted` as SQL names it) in rowid order; nil when writing them back could differ from the
    /// template: `sqlite_sequence`, a table without rowid, with AUTOINCREMENT, a trigger or a column named as the
    /// rowid, or a value `SQLValue` does not hold as it is (a REAL, a text that is not UTF-8 or holds a NUL).
    static func of(_ table: String, quoted: String, in database: Database) throws(DatabaseError) -> TemplateRows? {
        guard table != "sqlite_sequence",
            let sql = try database.query(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]
            ).first?.first?.string?.uppercased(),
            !sql.contains("WITHOUT ROWID"), !sql.contains("AUTOINCREMENT"),
            try database.query(
                "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?)", [.text(table)]
            ).first?.first?.int == 0
        else { return nil }
        let columns = try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
            .compactMap { $0.first?.string }
        guard !columns.isEmpty, !columns.contains(where: { ["rowid", "_rowid_", "oid"].contains($0.lowercased()) })
        else { return nil }
        let names = columns.map { "\"\($0.replacing("\"", with: "\"\""))\"" }
        // Each value beside its bytes, to tell it was read as it is.
        let read = try database.query(
            "SELECT rowid, \(names.map { "\($0), CAST(\($0) AS BLOB)" }.joined(separator: ", ")) FROM \(quoted) "
                + "ORDER BY rowid")
        var rows: [[SQLValue]] = []
        for row in read {
            var values = [row[0]]
            for index in stride(from: 1, to: row.count, by: 2) {
                switch (row[index], row[index + 1]) {
                case (.null, .null), (.integer, _), (.blob, _): break
                case (.text(let text), .blob(let bytes)) where Array(text.utf8) == bytes: break
                default: return nil
                }
                values.append(row[index])
            }
            rows.append(values)
        }
        let insert =
            "INSERT INTO \(quoted) (rowid, \(names.joined(separator: ", "))) VALUES "
            + "(\(Array(repeating: "?", count: names.count + 1).joined(separator: ", ")))"
        return TemplateRows(insert: insert, rows: rows)
    }
}
