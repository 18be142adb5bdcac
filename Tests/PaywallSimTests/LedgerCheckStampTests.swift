import Database
import Foundation
import Testing

@testable import BackendSim
@testable import Simulation

/// The ledger's check after each step keeps its answer while the ledger's change stamp stays the same:
/// every write, through the server's connection or another, must give a new answer.
@Suite struct LedgerCheckStampTests {
    private func subscribedWorld(in directory: String? = nil) throws -> World {
        let world = try TestSupport.demoWorld(in: directory, latency: .fast)
        world.launch()
        world.scheduler.runUntilIdle()
        try world.subscribe()
        return world
    }

    private func ownershipViolations(_ monitor: InvariantMonitor) -> [InvariantViolation] {
        monitor.willRun(.other)
        return monitor.didRun().filter { $0.invariant == .ownershipMoves }
    }

    @Test func aRowEditedBehindTheServersBackAfterACleanCheckIsFoundAtTheNextStep() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        #expect(ownershipViolations(monitor) == [])
        #expect(ownershipViolations(monitor) == [])  // the kept answer
        try world.backend.ledger.database.execute("UPDATE purchases SET expires_ms = expires_ms + 86400000")
        let found = ownershipViolations(monitor)
        #expect(found.count == 1)
        #expect(found.first?.detail.contains("is not as its last audit row left it") == true)
    }

    @Test func anEditThroughAnotherConnectionIsFoundToo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = try subscribedWorld(in: directory)
        var scan = AuditScan()
        #expect(try LedgerCheck.violations(in: world.backend.ledger, continuing: &scan) == [])
        try Database(path: directory + "/backend.sqlite").execute("UPDATE purchases SET revoked = 1")
        let found = try LedgerCheck.violations(in: world.backend.ledger, continuing: &scan)
        #expect(found.contains { $0.contains("is revoked, but its purchases.refund.changed events say otherwise") })
    }

    @Test func aRowDeletedBehindTheServersBackIsFoundAtTheNextStep() throws {
        let world = try subscribedWorld()
        let monitor = InvariantMonitor(world: world)
        #expect(ownershipViolations(monitor) == [])
        try world.backend.ledger.database.execute(
            "PRAGMA foreign_keys=OFF; DELETE FROM ownership_moves; DELETE FROM purchases")
        let found = ownershipViolations(monitor)
        #expect(found.contains { $0.detail.hasSuffix("was deleted: the audit still has it") }, "\(found)")
    }

    /// A purchase looked up after all were read is the row as the file holds it now, whoever wrote it.
    @Test func aPurchaseLookedUpAfterAnEditIsTheEditedRow() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = try subscribedWorld(in: directory)
        let ledger = world.backend.ledger
        let id = try #require(try ledger.allPurchases().first?.originalTransactionId)
        #expect(try ledger.purchase(id)?.revoked == false)
        try Database(path: directory + "/backend.sqlite").execute("UPDATE purchases SET revoked = 1")
        #expect(try ledger.purchase(id)?.revoked == true)
        try ledger.database.execute("UPDATE purchases SET revoked = 0")
        #expect(try ledger.purchase(id)?.revoked == false)
        #expect(try ledger.allPurchases().first?.revoked == false)
        #expect(try ledger.purchase("no-such-purchase") == nil)
    }

    /// An owner's purchases looked up after all were read are the rows as the file holds them now, whoever wrote them:
    /// the kept purchases answer only while the stamp stands, and the same as the file would.
    @Test func anOwnersPurchasesLookedUpAfterAnEditAreTheEditedRows() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = try subscribedWorld(in: directory)
        let ledger = world.backend.ledger
        let purchase = try #require(try ledger.allPurchases().first)
        let owner = try #require(purchase.ownerId)
        #expect(try ledger.purchases(ownedBy: owner).map(\.originalTransactionId) == [purchase.originalTransactionId])
        #expect(try ledger.purchasesWithAppleCheck(ownedBy: owner).map(\.purchase) == [purchase])
        #expect(try ledger.purchases(ownedBy: "nobody") == [])
        try Database(path: directory + "/backend.sqlite").execute(
            "UPDATE purchases SET revoked = 1, apple_checked_ms = 1234")
        #expect(try ledger.purchases(ownedBy: owner).map(\.revoked) == [true])
        #expect(try ledger.purchasesWithAppleCheck(ownedBy: owner).map(\.appleChecked) == [1234])
        _ = try ledger.allPurchases()  // kept again, with the edit
        #expect(try ledger.purchasesWithAppleCheck(ownedBy: owner).map(\.appleChecked) == [1234])
        try ledger.database.execute("UPDATE purchases SET owner_id = NULL")
        #expect(try ledger.purchases(ownedBy: owner) == [])
        #expect(try ledger.purchasesWithAppleCheck(ownedBy: owner).isEmpty)
    }

    /// An account's identity looked up by email after an edit is the file's, whoever wrote it: the answers are kept
    /// only while the stamp stands, and read inside a transaction.
    @Test func anAccountLookedUpAfterAnEditIsTheEditedRow() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = try subscribedWorld(in: directory)
        try world.createAccount(email: "ana@example.com", password: "password-ana")
        let ledger = world.backend.ledger
        #expect(try ledger.identityId(email: "zed@example.com") == nil)
        let ana = try #require(try ledger.identityId(email: "ana@example.com"))
        #expect(try ledger.identityId(email: "Ana@Example.com") == ana)
        try Database(path: directory + "/backend.sqlite").execute(
            "UPDATE accounts SET email = 'zed@example.com' WHERE email = 'ana@example.com'")
        #expect(try ledger.identityId(email: "ana@example.com") == nil)
        #expect(try ledger.identityId(email: "zed@example.com") == ana)
        try ledger.database.execute("UPDATE accounts SET email = 'ana@example.com' WHERE email = 'zed@example.com'")
        #expect(try ledger.identityId(email: "zed@example.com") == nil)
        #expect(try ledger.identityId(email: "ana@example.com") == ana)
        try ledger.database.transaction {
            try ledger.database.run("UPDATE accounts SET email = 'zed@example.com' WHERE email = 'ana@example.com'")
            #expect(try ledger.identityId(email: "ana@example.com") == nil)
            #expect(try ledger.identityId(email: "zed@example.com") == ana)
        }
        #expect(try ledger.identityId(email: "ana@example.com") == nil)
        #expect(try ledger.identityId(email: "zed@example.com") == ana)
    }

    /// An identity looked up after a write is the file's, whoever wrote it: the answers (none too) are kept only while
    /// the stamp stands, and read inside a transaction.
    @Test func anIdentityLookedUpAfterAWriteIsTheFilesRow() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = try subscribedWorld(in: directory)
        let ledger = world.backend.ledger
        #expect(try ledger.identity("zed") == nil)
        try Database(path: directory + "/backend.sqlite").execute(
            "INSERT INTO identities (id, kind, created_ms) VALUES ('zed', 'anonymous', 0)")
        #expect(try ledger.identity("zed")?.kind == .anonymous)
        try ledger.database.execute("UPDATE identities SET kind = 'account' WHERE id = 'zed'")
        #expect(try ledger.identity("zed")?.kind == .account)
        try ledger.database.transaction {
            try ledger.database.run("UPDATE identities SET kind = 'anonymous' WHERE id = 'zed'")
            #expect(try ledger.identity("zed")?.kind == .anonymous)
            try ledger.database.run("DELETE FROM identities WHERE id = 'zed'")
            #expect(try ledger.identity("zed") == nil)
        }
        #expect(try ledger.identity("zed") == nil)
    }

    @Test func theStampMovesWithEveryCommitAndOnlyThen() throws {
        let database = try Database(path: nil)
        try database.execute("CREATE TABLE t (x INTEGER)")
        let empty = try database.changeStamp()
        #expect(empty != nil)
        #expect(try database.changeStamp() == empty)
        _ = try database.query("SELECT x FROM t")
        #expect(try database.changeStamp() == empty)
        try database.run("INSERT INTO t VALUES (1)")
        let one = try database.changeStamp()
        #expect(one != empty)
        try database.transaction {
            try database.run("UPDATE t SET x = 2")
            #expect(try database.changeStamp() == nil)  // written, not yet committed: no stamp to trust
        }
        #expect(try database.changeStamp() != one)
    }

    /// In memory a commit that changed no row keeps the stamp (`EmptyCommits`); a row changed, a table made or a
    /// pragma written by any path moves it.
    @Test func aCommitThatChangedNothingKeepsTheStampInMemory() throws {
        let database = try Database(path: nil)
        try database.execute("CREATE TABLE t (x INTEGER)")
        try database.run("INSERT INTO t VALUES (1)")
        let one = try database.changeStamp()
        try database.transaction { _ = try database.query("SELECT x FROM t") }
        #expect(try database.changeStamp() == one)
        try database.transaction { try database.run("UPDATE t SET x = 5 WHERE x = 9") }
        try database.run("DELETE FROM t WHERE x = 9")
        #expect(try database.changeStamp() == one)
        #expect(database.ownDataVersion() == database.ownDataVersion())
        try database.transaction { try database.run("UPDATE t SET x = 1") }  // the same value: still a change
        let two = try database.changeStamp()
        #expect(two != one)
        try database.transaction { try database.run("CREATE TABLE u (y INTEGER)") }
        let three = try database.changeStamp()
        #expect(three != two)
        try database.run("PRAGMA user_version = 9")
        #expect(try database.changeStamp() != three)
        let four = try database.changeStamp()
        try database.begin()
        try database.run("INSERT INTO t VALUES (2)")
        try database.rollback()
        #expect(try database.changeStamp() == four)  // rolled back: the rows, and SQLite's version, as they were
        try database.begin()
        try database.run("INSERT INTO t VALUES (3)")
        try database.commit()
        #expect(try database.changeStamp() != four)
    }
}
