import Database
import Foundation
import Testing

@testable import Simulation

/// `SQLiteSideFiles` looks at a database's `-shm` for another connection's lock. Opened and closed by a descriptor of
/// its own while this process had the database open, the close dropped every POSIX lock the process held on the
/// file, SQLite's read lock on the index's DMS byte included (session 32): another process's connection would then
/// take the index for nobody's and rebuild it under the open one.
@Suite struct SQLiteSideFilesTests {
    @Test func aLookWhileTheDatabaseIsOpenKeepsSQLitesLocks() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sideFiles = SQLiteSideFiles(folder: directory)
        let database = try Database(path: "\(directory)/appstore.sqlite")
        try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        let shm = "\(directory)/appstore.sqlite-shm"
        try #require(Self.locksOnDMSByte(shm) > 0, "SQLite holds no lock on the index's DMS byte")

        sideFiles.removeMade()

        #expect(Self.locksOnDMSByte(shm) > 0, "SQLite's lock on \(shm) was dropped")
        #expect(FileManager.default.fileExists(atPath: shm))
        #expect(try database.query("SELECT x FROM t").first?.first?.int == 1)
    }

    /// The locks /proc/locks lists on `path`'s byte 128 (SQLite's DMS byte), read without opening `path`: a
    /// descriptor of the test's own would drop them on close.
    private static func locksOnDMSByte(_ path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0,
            let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return 0 }
        return text.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ").filter { $0 != "->" }
            guard fields.count >= 8, let inode = fields[5].split(separator: ":").last,
                UInt64(inode) == UInt64(status.st_ino), let start = Int(fields[6])
            else { return false }
            return start <= 128 && (fields[7] == "EOF" || Int(fields[7]).map { $0 >= 128 } == true)
        }.count
    }
}
