import Database
import Foundation
import Scenarios
import Subscriptions
import Testing
import WhiteLabel

@testable import Simulation
@testable import StoreSim

/// A parent's answer given while no app of the asking phone runs reaches that phone's next launch, even when the whole
/// `run` quits in between. The decline was kept in memory for the run only: the reopened folder's launch told the
/// reader nothing, and "Waiting for approval" was the last word on a purchase that will never come (session 40).
@Suite struct DeclineAcrossRunsTests {
    /// A child's request for the monthly plan of kids-stories, waiting for a parent, and the app killed.
    private static let asked = """
        app kids-stories
        seed 4
        latency fast
        launch
        open content moon-picnic
        subscribe
        select offer stories-monthly
        answer gate
        confirm payment
        expect alert "Waiting for approval"
        """

    /// What a run showed: how many times its app told the reader a parent declined, and its timeline.
    private struct Seen {
        let declinesTold: Int
        let timeline: String
    }

    /// `text`'s steps run on the state folder `directory`, then the run quits (`FolderRun`).
    @discardableResult
    private func run(_ text: String, in directory: String) throws -> Seen {
        let world = try FolderRun.quitAfter(text, in: directory)
        return Seen(
            declinesTold: world.readerOutcomes.filter { $0.told == .purchase(.declined) }.count,
            timeline: world.timeline.text)
    }

    @Test func aDeclineWhileTheAppIsKilledIsToldAfterTheRunQuits() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try run(Self.asked + "\nkill\nparent decline\nexpect timeline \"the decline is kept for\"", in: directory)
        let next = try run(
            """
            app kids-stories
            seed 4
            latency fast
            launch
            expect alert "Not approved"
            expect content moon-picnic locked
            expect charges 0
            expect invariants
            """, in: directory)
        #expect(next.declinesTold == 1)
        // Told once: the run after that hears nothing more of it.
        let after = try run("app kids-stories\nseed 4\nlatency fast\nlaunch\nexpect no alert", in: directory)
        #expect(after.declinesTold == 0)
    }

    /// Declined while the family's iPad was on screen, then quit: the next run reopens on the iPad, which hears nothing,
    /// and the iPhone's app tells it when the iPhone is back.
    @Test func aDeclineWhileAnotherPhoneIsOnScreenIsToldWhenTheAskingPhoneIsBack() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try run(Self.asked + "\nback\nnew device ipad\nparent decline", in: directory)
        let next = try run(
            """
            app kids-stories
            seed 4
            latency fast
            device ipad
            launch
            expect no alert
            phone iphone
            expect alert "Not approved"
            expect charges 0
            expect invariants
            """, in: directory)
        #expect(next.declinesTold == 1)
    }

    /// An approval while the app is killed is charged then, and the next run's launch delivers the purchase.
    @Test func anApprovalWhileTheAppIsKilledIsDeliveredAfterTheRunQuits() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try run(Self.asked + "\nkill\nparent approve\nexpect charges 1", in: directory)
        try run(
            """
            app kids-stories
            seed 4
            latency fast
            launch
            expect alert "Purchase complete"
            expect levels stories
            expect charges 1
            expect invariants
            """, in: directory)
    }

    /// A folder the build before wrote (no `declines_unheard`), holding a request that waits: it opens, and a decline
    /// given in it while the app is killed reaches the run after.
    @Test func aFolderWrittenBeforeKeepsItsDeclines() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try run(Self.asked, in: directory)
        do {
            let old = try Database(path: "\(directory)/appstore.sqlite")
            let version = try #require(StoreLedger.migrations.firstIndex { $0.contains("declines_unheard") })
            try old.execute("DROP TABLE declines_unheard; PRAGMA user_version = \(version)")
        }
        let reopened = try run(
            "app kids-stories\nseed 4\nlatency fast\nlaunch\nkill\nparent decline", in: directory)
        #expect(reopened.timeline.contains("the decline is kept for"))
        #expect(
            try Database(path: "\(directory)/appstore.sqlite").schemaVersion()
                == StoreLedger.migrations.count)
        let next = try run(
            "app kids-stories\nseed 4\nlatency fast\nlaunch\nexpect alert \"Not approved\"", in: directory)
        #expect(next.declinesTold == 1)
    }
}
