import CWALWrites
import Database
import Foundation
import Testing

/// The VFS that writes a WAL transaction's frames at once (`CWALWrites`): every commit is in the file when
/// it returns, for a reader in this process on SQLite's plain VFS, and for SQLite's own checks.
@Suite struct WALWritesTests {
    private func count(_ reader: Database, _ table: String = "t") throws -> Int64? {
        try reader.query("SELECT COUNT(*) FROM \(table)").first?.first?.int
    }

    @Test func theVFSIsRegisteredAndNotTheDefault() {
        let name = pws_wal_writes_vfs().map { String(cString: $0) }
        #expect(name == "pws-wal-writes")
    }

    @Test func eachCommitIsReadByAnotherConnectionAsSoonAsItReturns() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/w.sqlite"
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX t_body ON t(body)")
        let reader = try Database(path: path, readOnly: true)
        for round in 1...300 {
            // Transactions of one page to many (the last rounds spill past the page cache, 2 MB a round).
            let rows = round <= 290 ? round % 7 + 1 : 500
            try writer.transaction {
                for row in 0..<rows {
                    try writer.run(
                        "INSERT INTO t (body) VALUES (?)",
                        [.text(String(repeating: "r\(round)-\(row) ", count: round <= 290 ? 4 : 400))])
                }
            }
            let expected = try count(writer)
            #expect(try count(reader) == expected, "round \(round)")
        }
        // A rolled-back transaction leaves nothing, and the next commit is read.
        try writer.run("BEGIN IMMEDIATE")
        try writer.run("INSERT INTO t (body) VALUES ('gone')")
        try writer.run("ROLLBACK")
        try writer.run("INSERT INTO t (body) VALUES ('kept')")
        #expect(try reader.query("SELECT COUNT(*) FROM t WHERE body IN ('gone', 'kept')").first?.first?.int == 1)
        // Checkpointed, restarted from the WAL's start, and still whole.
        try writer.execute("PRAGMA wal_checkpoint(RESTART)")
        try writer.run("INSERT INTO t (body) VALUES ('after the restart')")
        #expect(try count(reader) == count(writer))
        #expect(try writer.integrityCheck() == "ok")
        #expect(try reader.integrityCheck() == "ok")
    }

    @Test func aFileWrittenThroughItReadsTheSameAfterItsWriterCloses() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/w.sqlite"
        do {
            let writer = try Database(path: path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
            for index in 0..<2_000 { try writer.run("INSERT INTO t (body) VALUES (?)", [.text("row \(index)")]) }
        }
        let reopened = try Database(path: path)
        #expect(try count(reopened) == 2_000)
        #expect(try reopened.query("SELECT body FROM t WHERE id = 2000").first?.first?.string == "row 1999")
        #expect(try reopened.integrityCheck() == "ok")
    }
}
