import Database
import Foundation
import Signing
import SimKernel
import Testing

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// `check --ledger` on a real state folder: it reads without writing, refuses what is not a ledger, and
/// finds rows edited, deleted or revived behind the server's back (issue 14).
@Suite struct LedgerTamperingTests {
    /// A folder where a reader subscribed, restored on a second phone (a move), had the latest payment
    /// refunded, and signed up and refreshed a session (a used refresh token).
    private func usedFolder() throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        let world = try TestSupport.demoWorld(in: directory, latency: .fast)
        world.launch()
        world.scheduler.runUntilIdle()
        try world.subscribe()
        try world.newDevice(named: "iphone-2")
        world.scheduler.runUntilIdle()
        try world.perform(.openProfile)
        try world.perform(.restore)
        world.scheduler.runUntilIdle()
        #expect(world.refundLatest())
        world.scheduler.runUntilIdle()
        let signUp = world.backend.handle(
            HTTPRequest(
                method: "POST", path: "/v1/accounts",
                body: Array(#"{"email":"r@example.test","password":"correct horse"}"#.utf8)))
        let session = try #require(
            try JSONSerialization.jsonObject(with: Data(signUp.body)) as? [String: Any])
        let refresh = try #require(session["refreshToken"] as? String)
        let refreshed = world.backend.handle(
            HTTPRequest(
                method: "POST", path: "/v1/sessions/refresh",
                body: Array(try JSONEncoder().encode(["refreshToken": refresh]))))
        #expect(refreshed.status == 200)
        return directory
    }

    private func check(_ directory: String, keys: Keyring? = nil) throws -> [String] {
        let ledger = try BackendLedger(readingOnly: directory + "/backend.sqlite")
        let store = try StoreRecords(readingOnly: directory + "/appstore.sqlite")
        return try LedgerCheck.violations(in: ledger, against: store, keys: keys)
    }

    private func edit(_ directory: String, _ sql: String) throws {
        let database = try Database(path: directory + "/backend.sqlite")
        try database.execute(sql)
    }

    private func files(_ directory: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.contains("sqlite") {
            found[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return found
    }

    @Test func anUntouchedFolderHoldsAndCheckingItWritesNothing() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = try files(directory)
        #expect(try check(directory) == [])
        #expect(try files(directory) == before)
    }

    /// SQLite refuses such a write while `foreign_keys` is on; another tool may have it off.
    /// A folder an older build wrote, before the newest purchase columns: `check --ledger` reads it as it is and it
    /// holds (session 22's schema 7 met "SQLite error 1: no such column" from a folder of schema 6).
    @Test(arguments: [6, 7])
    func aFolderOfAnOlderSchemaIsCheckedAsItIsAndHolds(version: Int) throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // What the later migrations added, taken off again (SQLite drops a column since 3.35).
        var older = "ALTER TABLE purchases DROP COLUMN renews_as;"
        if version < 7 { older += " ALTER TABLE purchases DROP COLUMN price_consent_pending;" }
        try edit(directory, older + " PRAGMA user_version = \(version)")
        let before = try files(directory)
        #expect(try check(directory) == [])
        #expect(try BackendLedger(readingOnly: directory + "/backend.sqlite").schemaVersion() == version)
        #expect(try files(directory) == before)
    }

    @Test func aRowPointingToAMissingIdentityIsFound() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try edit(
            directory,
            "PRAGMA foreign_keys=OFF; DELETE FROM identities WHERE id = (SELECT identity_id FROM refresh_tokens LIMIT 1)"
        )
        #expect(try check(directory).contains("a row of refresh_tokens points to a missing identities row"))
    }

    @Test func aFileThatIsNotALedgerIsRefusedAndLeftAsItWas() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = try files(directory)
        #expect(throws: LedgerOpenError.self) { try BackendLedger(readingOnly: directory + "/appstore.sqlite") }
        let text = directory + "/notes.txt"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: LedgerOpenError.self) { try BackendLedger(readingOnly: text) }
        #expect(try files(directory) == before)
    }

    /// A folder an older build left (ledger schema 2, no keys, audit rows without hashes) still opens,
    /// is migrated by the run, and its ledger holds, checked from where the chain starts.
    @Test func aFolderFromBeforeTheChainOpensAndHolds() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let old = try Database(path: directory + "/backend.sqlite")
            try old.migrate(Array(LedgerSchema.migrations.prefix(2)))
            try old.execute(
                """
                INSERT INTO identities (id, kind, created_ms) VALUES ('anon-000001', 'anonymous', 0);
                INSERT INTO audit (at_ms, actor, action, detail) VALUES (0, 'anon-000001', 'identity.created', 'old')
                """)
        }
        // Every build made the store's file with the ledger: one of that build's schema, that charged nothing, stands
        // beside it (a current store file without `keys` is a folder that lost them, refused).
        try Database(path: directory + "/appstore.sqlite").migrate(
            Array(StoreLedger.migrations.prefix(StateCheck.lastStoreVersionWithout.keys)))
        do {
            let world = try TestSupport.demoWorld(in: directory, latency: .fast)
            world.launch()
            world.scheduler.runUntilIdle()
            try world.subscribe()
            #expect(world.appState.access.levels.map(\.rawValue) == ["premium"])
        }
        #expect(
            try BackendLedger(readingOnly: directory + "/backend.sqlite").schemaVersion()
                == LedgerSchema.migrations.count)
        #expect(try check(directory) == [])
    }

    /// A move "via purchase" is held to Apple's records: a payment of the purchase names, by its appAccountToken, the
    /// customer it moved to. The audit chain is keyless: a move forged through the ledger's own writes chains and
    /// audits as the server's would, and the check said the ledger holds (session 30, h11).
    @Test func aMoveByPurchaseNoPaymentNamesIsFound() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (id, ana, ben, keys) = try {
            let world = try World(
                config: try TestSupport.demoConfig(),
                options: WorldOptions(seed: 5, latency: .fast, stateDirectory: directory))
            world.launchAndSettle()
            world.openProfile()
            world.signUp("ana@example.com")
            world.buyFromFeed()
            let id = try #require(world.store.transactions(appleId: world.appleId).first?.originalTransactionIdentifier)
            try world.store.setAutoRenew(false, originalTransactionId: id)
            // Past ana's refresh token's life (from its last use, at the levels' end): she is signed out.
            world.travel(by: .days(32) + Backend.refreshTokenLifetime)
            world.returnToForeground()
            world.scheduler.runUntilIdle()
            _ = world.dismissAlert()
            world.openProfile()
            world.signUp("ben@example.com")
            world.buyFromFeed()
            #expect(try world.backend.ledger.moves().map(\.via) == [.purchase])
            let ana = try #require(try world.backend.ledger.identityId(email: "ana@example.com"))
            let ben = try #require(try world.backend.ledger.identityId(email: "ben@example.com"))
            return (id, ana, ben, world.backend.keys)
        }()
        #expect(try check(directory) == [])
        #expect(try check(directory, keys: keys) == [])
        do {
            let ledger = try BackendLedger(path: directory + "/backend.sqlite")
            try ledger.move(id, from: ben, to: ana, via: .purchase, at: SimInstant(milliseconds: 1_900_000_000_000))
        }
        let forged = "purchase \(id) moved to \(ana) via purchase at "
        #expect(try check(directory).contains { $0.hasPrefix(forged) })
        #expect(try check(directory, keys: keys).contains { $0.hasPrefix(forged) })
    }

    @Test func aRefundsRevokedFlagResetIsFound() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try edit(directory, "UPDATE purchases SET revoked = 0")
        let found = try check(directory)
        #expect(found.contains { $0.contains("Apple revoked it, the ledger does not") }, "\(found)")
        #expect(found.contains { $0.contains("is not as its last audit row left it") }, "\(found)")
        #expect(found.contains { $0.contains("its purchases.refund.changed events say otherwise") }, "\(found)")
    }

    @Test func anOwnerEditedConsistentlyIsFound() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The owner and the last move agree, so the chain of owners alone still holds.
        try edit(
            directory,
            """
            UPDATE purchases SET owner_id = 'acct-000003';
            UPDATE ownership_moves SET to_id = 'acct-000003' WHERE seq = (SELECT MAX(seq) FROM ownership_moves)
            """)
        let found = try check(directory)
        #expect(!found.contains { $0.contains("but its last move gave it to") }, "\(found)")
        #expect(found.contains { $0.contains("is not as its last audit row left it") }, "\(found)")
        #expect(found.contains { $0.contains("moves are not the ones the audit recorded") }, "\(found)")
    }

    @Test func anAuditRowDeletedIsFound() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try edit(directory, "DELETE FROM audit WHERE seq = 3")
        let found = try check(directory)
        #expect(found.contains { $0.contains("does not follow the chain") }, "\(found)")
    }

    @Test func theLastAuditRowDeletedIsFound() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try edit(directory, "DELETE FROM audit WHERE seq = (SELECT MAX(seq) FROM audit)")
        let found = try check(directory)
        #expect(found.contains { $0.contains("were deleted") }, "\(found)")
    }

    @Test func aRefreshTokenRevivedIsFound() throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try edit(directory, "UPDATE refresh_tokens SET used = 0")
        let found = try check(directory)
        #expect(found.contains { $0.contains("was revived after its use") }, "\(found)")
    }

    /// A purchase or a refresh token the audit describes, deleted behind the server's back, is named.
    @Test(arguments: [
        ("DELETE FROM refresh_tokens", "refresh "), ("DELETE FROM ownership_moves; DELETE FROM purchases", "purchase "),
    ])
    func aRowTheAuditHasDeletedIsFound(_ sql: String, _ subject: String) throws {
        let directory = try usedFolder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try check(directory) == [])
        try edit(directory, "PRAGMA foreign_keys=OFF; " + sql)
        let found = try check(directory)
        #expect(
            found.contains { $0.hasPrefix(subject) && $0.hasSuffix("was deleted: the audit still has it") }, "\(found)")
    }
}
