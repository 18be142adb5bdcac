extension Database {
    /// The largest value of these columns across their tables, nil when all are empty: when a file last recorded
    /// anything, asked of the App Store's records and the ledger alike. `columns` are the caller's own names, never
    /// input.
    public func largest(of columns: [(table: String, column: String)]) throws(DatabaseError) -> Int64? {
        let parts = columns.map { "SELECT MAX(\($0.column)) AS value FROM \($0.table)" }
        return try query("SELECT MAX(value) FROM (\(parts.joined(separator: " UNION ALL ")))").first?.first?.int
    }
}
