import Database
import Foundation
import SimKernel
import Testing

@testable import BackendSim
@testable import Simulation
@testable import StoreSim

/// A ledger written before schema 10 kept no ownership type: the migration gave every purchase it held
/// `family_shared = 0`, and a family member's share on a reopened folder read "Subscribed on this phone" for good
/// (session 33). The server asks Apple about each purchase the ledger did not know it of, once, and the profile says
/// what Apple says.
@Suite struct OwnershipTypeMigrationTests {
    private let member = "kid@icloud.test"

    /// The purchaser's yearly plan shared with the member, whose phone restored it, in the folder `directory`.
    private func sharedFolder(_ directory: String) throws -> String {
        let world = try World(
            config: try TestSupport.demoConfig(),
            options: WorldOptions(seed: 1, latency: .fast, stateDirectory: directory))
        world.launchAndSettle()
        try world.subscribe(to: "premium-yearly")
        try world.addFamilyMember(member)
        world.scheduler.runUntilIdle()
        try world.perform(.openProfile)
        try world.perform(.restore)
        world.scheduler.runUntilIdle()
        _ = world.dismissAlert()
        let share = try #require(world.store.familySharedTransactions(appleId: member).first)
        #expect(try world.backend.ledger.purchase(share.originalTransactionIdentifier)?.familyShared == true)
        // Past the plan's free trial, renewed: an older build's audit, which the rewinds stand for, never said a trial
        // (schema 12), and the ledger's last word of the plan is then none.
        #expect(world.travel(by: .days(8)))
        world.scheduler.runUntilIdle()
        world.saveClock()
        return share.originalTransactionIdentifier
    }

    /// The folder reopened on the member's phone, the profile open.
    private func reopened(_ directory: String) throws -> World {
        var options = WorldOptions(seed: 1, latency: .fast, stateDirectory: directory)
        options.reopensLastPhone = true
        let world = try World(config: try TestSupport.demoConfig(), options: options)
        world.launchAndSettle()
        try world.perform(.openProfile)
        world.scheduler.runUntilIdle()
        return world
    }

    /// The folder's server ledger put back as an older build left it; the connection closed before the reopening.
    private func rewind(_ directory: String, _ sql: String) throws {
        try Database(path: directory + "/backend.sqlite").execute(sql)
    }

    @Test func aShareHeldBeforeSchema10IsAskedOfAppleAndSaidToBeTheFamilys() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let share = try sharedFolder(directory)
        // The ledger as the build before schema 10 wrote it: no column (the migrations from it on undone).
        let version = try #require(LedgerSchema.migrations.firstIndex { $0.contains("family_shared INTEGER") })
        try rewind(
            directory,
            "ALTER TABLE purchases DROP COLUMN family_shared; DROP TABLE ownership_unasked; "
                + "ALTER TABLE purchases DROP COLUMN in_free_trial; PRAGMA user_version = \(version)")
        let world = try reopened(directory)
        #expect(world.deviceName == "kid-iphone")
        #expect(try world.backend.ledger.purchase(share)?.familyShared == true)
        let texts = world.screen.rows.map(\.text)
        #expect(texts.contains("Shared by your family, on this phone without an account."), "\(texts)")
        #expect(!texts.contains { $0.hasPrefix("Subscribed on this phone") }, "\(texts)")
        #expect(world.timeline.entries.contains { $0.text.contains("1 shared by a family member") })
        #expect(
            try BackendLedger(readingOnly: directory + "/backend.sqlite").schemaVersion()
                == LedgerSchema.migrations.count)
        let store = try StoreRecords(readingOnly: directory + "/appstore.sqlite")
        #expect(
            try LedgerCheck.violations(in: BackendLedger(readingOnly: directory + "/backend.sqlite"), against: store)
                == [])
        // Asked once: the next start asks nothing.
        let again = try reopened(directory)
        #expect(!again.timeline.entries.contains { $0.text.contains("asked Apple whose payment") })
    }

    /// A ledger a build of schema 10 wrote kept each share it met as one: what it held as no share is asked once more,
    /// and Apple's answer changes nothing.
    @Test func aLedgerAtSchema10AsksOnlyWhatItHeldAsNotShared() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let share = try sharedFolder(directory)
        try rewind(
            directory,
            "DROP TABLE ownership_unasked; ALTER TABLE purchases DROP COLUMN in_free_trial; PRAGMA user_version = 10")
        let world = try reopened(directory)
        #expect(try world.backend.ledger.purchase(share)?.familyShared == true)
        // The share was known: asking found no other one, and wrote no state.
        #expect(world.timeline.entries.contains { $0.text.contains(": 0 shared by a family member") })
        let store = try StoreRecords(readingOnly: directory + "/appstore.sqlite")
        #expect(
            try LedgerCheck.violations(in: BackendLedger(readingOnly: directory + "/backend.sqlite"), against: store)
                == [])
    }
}
