#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A statement's SQL as the key its prepared statement is kept under. Hashing the whole text (a few hundred bytes,
/// looked up for every statement run) was 1 % of a fuzz run; its length and last bytes tell the texts apart as well.
/// Two keys are equal only when their bytes are: SQLite reads the bytes, so a text canonically equal to another but
/// written otherwise (which `String`'s `==` would take for it) has its own statement.
struct StatementKey: Hashable {
    let sql: String

    init(_ sql: String) { self.sql = sql }

    static func == (left: StatementKey, right: StatementKey) -> Bool {
        var left = left.sql
        var right = right.sql
        return left.withUTF8 { one in
            right.withUTF8 { other in
                one.count == other.count
                    && (one.isEmpty || memcmp(one.baseAddress!, other.baseAddress!, one.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var sql = sql  // `withUTF8` may make a copy native: this one, never the key's
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(Self.tail))))
        }
    }

    /// How many of the last bytes are hashed.
    private static let tail = 32
}
