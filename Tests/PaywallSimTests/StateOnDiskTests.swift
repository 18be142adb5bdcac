import AppFlow
import BackendSim
import Foundation
import Signing
import SimKernel
import Testing
import WhiteLabel

@testable import Simulation
@testable import StoreSim

/// A state directory reopened carries on: the virtual clock never goes back to the first morning.
@Suite struct StateOnDiskTests {
    private func world(_ directory: String, latency: LatencyProfile = .fast) throws -> World {
        try TestSupport.demoWorld(in: directory, latency: latency)
    }

    /// A world on `directory` at typical latency where the reader subscribed, everything settled.
    private func subscribed(_ directory: String) throws -> World {
        let world = try world(directory, latency: .typical)
        world.launch()
        world.scheduler.runUntilIdle()
        try world.subscribe()
        world.scheduler.runUntilIdle()
        return world
    }

    /// A world on `directory`, launched and settled.
    private func launched(_ directory: String) throws -> World {
        let world = try world(directory)
        world.launch()
        world.scheduler.runUntilIdle()
        return world
    }

    /// The reader's `actions`, each followed by the world settling.
    private func perform(_ actions: [ReaderAction], on world: World?) throws {
        for action in actions {
            try world?.perform(action)
            world?.scheduler.runUntilIdle()
        }
    }

    /// A parent's Ask to Buy setting is the family's, kept across runs both ways: a reopened folder said "on" of a child
    /// a parent had set "off" in a kids app, and "off" of one set "on" elsewhere (session 25).
    @Test(arguments: [("kids-stories", false), ("daily-news", true)])
    func aParentsAskToBuySettingIsKeptAcrossRuns(app: String, setTo: Bool) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig(app)
        do {
            let first = try World(config: config, options: WorldOptions(latency: .fast, stateDirectory: directory))
            #expect(first.askToBuy == !setTo)
            first.askToBuy = setTo
        }
        let reopened = try World(config: config, options: WorldOptions(latency: .fast, stateDirectory: directory))
        #expect(reopened.askToBuy == setTo)
    }

    /// A run that launches, makes a new phone, and ends with "iphone-2" on screen.
    private static func leaveOnIphone2(_ config: DemoConfig, _ options: WorldOptions) throws {
        let first = try World(config: config, options: options)
        first.launch()
        try first.newDevice(named: "iphone-2")
    }

    /// A world on `directory` as `run` opens it: on the phone its last run left on screen.
    private static func reopening(_ directory: String) -> WorldOptions {
        var options = WorldOptions(latency: .fast, stateDirectory: directory)
        options.reopensLastPhone = true
        return options
    }

    /// `run` reopens a folder on the phone its last run left on screen, a family member's signed into the member's
    /// Apple ID; it opened on "iphone" (session 26). A world not asked to reopen it opens on its own phone.
    @Test func aReopenedFolderComesBackOnThePhoneLastUsed() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig()
        let options = Self.reopening(directory)
        try Self.leaveOnIphone2(config, options)
        let second = try World(config: config, options: options)
        #expect(second.deviceName == "iphone-2")
        #expect(second.timeline.text.contains("the app reopens on iphone-2, the phone the last run left on screen"))
        try second.addFamilyMember("kid@icloud.test")
        let third = try World(config: config, options: options)
        #expect(third.deviceName == "kid-iphone")
        #expect(third.appleId == "kid@icloud.test")
        // Scenarios and benchmarks name their phone.
        let named = try World(config: config, options: WorldOptions(latency: .fast, stateDirectory: directory))
        #expect(named.deviceName == "iphone")
    }

    /// A record that cannot be used opens on "iphone" and says why: never a crash, never a phone made up.
    @Test(arguments: ["garbled", "iphone-9\nreader@icloud.test\n", "../keys\nreader@icloud.test\n", "folder"])
    func aPhoneRecordThatCannotBeUsedOpensOnIphone(record: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig()
        let options = Self.reopening(directory)
        try Self.leaveOnIphone2(config, options)
        if record == "folder" {
            try FileManager.default.removeItem(atPath: "\(directory)/phone")
            try FileManager.default.createDirectory(atPath: "\(directory)/phone", withIntermediateDirectories: false)
        } else {
            try record.write(toFile: "\(directory)/phone", atomically: true, encoding: .utf8)
        }
        let reopened = try World(config: config, options: options)
        #expect(reopened.deviceName == "iphone")
        #expect(reopened.timeline.text.contains("\(directory)/phone: "))
        #expect(reopened.timeline.text.contains("; the app starts on iphone"))
    }

    @Test func timeTravelledIsWhereTheNextRunStarts() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try world(directory)
        let start = first.scheduler.now
        first.launch()
        first.travel(by: .days(40))
        let stopped = first.scheduler.now

        let second = try world(directory)
        #expect(second.scheduler.now == stopped)
        #expect(second.scheduler.now > start)
        #expect(second.timeline.entries.contains { $0.text.hasPrefix("state reopened: the clock carries on") })
    }

    @Test func aRunKilledBeforeSavingStillCarriesOnFromItsLastPurchase() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try world(directory)
        first.launch()
        first.scheduler.runUntilIdle()
        first.scheduler.advance(by: .days(3))  // no control: nothing saves the clock
        try first.subscribe()
        let purchase = try #require(first.store.transactions(appleId: first.appleId).first?.purchaseDate)

        let second = try world(directory)
        #expect(second.scheduler.now >= purchase)
        second.launch()
        second.scheduler.runUntilIdle()
        #expect(second.appState.access.levels.map(\.rawValue) == ["premium"])
    }

    /// A run that died without saving its clock after the backend took Apple's notification: the next run carried on
    /// from the ledger's last audit row, before the notification the backend had already logged (session 28).
    @Test func aRunKilledAfterANotificationCarriesOnFromTheNotification() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try subscribed(directory)  // no control: nothing saves the clock
        let notified = try #require(
            first?.timeline.entries.last { $0.source == .backend && $0.text.hasPrefix("notification SUBSCRIBED") }?.time
        )
        first = nil

        let second = try world(directory)
        #expect(second.scheduler.now >= notified)
    }

    /// Issue 12, defect 15: the process dies after the reader confirmed on Apple's sheet, before the
    /// charge. The payment is Apple's once confirmed: it goes through, and the next launch's observer
    /// hears of it, as StoreKit's queue delivers an unfinished transaction.
    @Test func aPaymentConfirmedBeforeTheProcessDiedGoesThroughAtTheNextLaunch() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        try perform([.openPaywall, .selectOffer("premium-monthly")], on: first)
        try first?.perform(.confirmPayment)  // the charge is still on its way when the process dies
        #expect(first?.charges == 0)
        first = nil

        let second = try launched(directory)
        #expect(second.charges == 1)
        #expect(second.appState.access.levels.map(\.rawValue) == ["premium"])
        #expect(
            second.timeline.entries.contains { $0.text.hasPrefix("a payment confirmed before the last run stopped") })
    }

    /// The run after a kill starts its clock no earlier than a payment confirmed before the kill: charged at the
    /// instant the last charge or ledger change left, before its confirmation, time went back (session 27).
    @Test func aPaymentConfirmedBeforeAKillIsChargedAfterItsConfirmation() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        try perform([.openPaywall, .selectOffer("premium-monthly")], on: first)
        first?.scheduler.advance(by: .hours(1))  // the reader reads the sheet; no control: nothing saves the clock
        try first?.perform(.confirmPayment)
        let confirmed = try #require(first?.scheduler.now)
        first = nil

        let second = try world(directory)
        #expect(second.scheduler.now >= confirmed)
        second.launch()
        second.scheduler.runUntilIdle()
        let charge = try #require(second.store.transactions(appleId: second.appleId).first)
        #expect(charge.purchaseDate >= confirmed)
    }

    /// A win-back payment waiting for a parent keeps its offer across runs (`held_payments.offer_id`): approved in the
    /// next run, it is charged the offer's $1.99, not the plan's $4.99 (session 26).
    @Test func aWinBackRequestFromTheLastRunIsChargedTheOffersPrice() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try TestSupport.demoConfig("podcast-club")
        func launched() throws -> World {
            let world = try World(config: config, options: WorldOptions(latency: .fast, stateDirectory: directory))
            world.launch()
            world.scheduler.runUntilIdle()
            return world
        }
        var first: World? = try launched()
        try perform([.openPaywall, .selectOffer("listener-monthly"), .confirmPayment], on: first)
        for action in [WorldAction.expire, .background, .foreground] {
            try action.apply(to: try #require(first))
            first?.scheduler.runUntilIdle()
        }
        first?.askToBuy = true
        try perform([.openPaywall, .selectOffer("listener-monthly"), .confirmPayment], on: first)
        #expect(first?.pendingPayments.count == 1)
        first = nil

        let second = try launched()
        #expect(second.approveAskToBuy())
        second.scheduler.runUntilIdle()
        let charged = second.store.transactions(appleId: second.appleId).last
        #expect(charged?.price == Decimal(string: "1.99"))
        #expect(charged?.offerType == 2)
    }

    /// An Ask to Buy request held from the last run keeps its payment number; the new run's payments number on
    /// past it, so the parent's "no" to the old request is not the answer to the payment on the sheet now. (The app
    /// refuses a purchase of the group while the request waits, since session 26: `second-payment` lets one through,
    /// as an app of several groups would for another group.)
    @Test func aParentsAnswerToARequestFromTheLastRunIsNotThePaymentOnTheSheet() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        first?.askToBuy = true
        try perform([.openPaywall, .selectOffer("premium-monthly"), .confirmPayment], on: first)
        #expect(first?.pendingPayments.count == 1)
        first = nil

        let second = try launched(directory)
        second.defect = .secondPayment
        try perform([.openPaywall, .selectOffer("premium-monthly")], on: second)
        #expect(second.screen.id == .appStoreSheet)
        #expect(second.declineAskToBuy())
        second.scheduler.runUntilIdle()
        #expect(second.screen.id == .appStoreSheet)
        #expect(second.screen.alert == nil)
    }

    /// The monthly plan bought with Ask to Buy on: the request that waits for a parent. (The world is not kept: the
    /// caller lets it go to end the run.)
    private func askToBuyRequest(on world: World?) throws -> PendingPayment {
        world?.askToBuy = true
        try perform([.openPaywall, .selectOffer("premium-monthly"), .confirmPayment], on: world)
        return try #require(world?.pendingPayments.first)
    }

    /// An Ask to Buy request lapses 24 hours after it was asked, on the clock of whichever run is open then, and stays
    /// lapsed in the runs after: a parent's late approval is refused with the reason, and nothing is charged (an
    /// approval 400 days later was charged, session 26).
    @Test func anAskToBuyRequestLapsesInALaterRunAndStaysLapsed() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        let request = try askToBuyRequest(on: first)
        first?.travel(by: .hours(20))
        first = nil

        var second: World? = try launched(directory)
        #expect(second?.pendingPayments.map(\.identifier) == [request.identifier])
        second?.travel(by: .hours(5))
        #expect(second?.pendingPayments.isEmpty == true)
        #expect(
            second?.timeline.entries.contains { $0.text.hasPrefix("ask to buy request \(request.identifier) lapsed") }
                == true)
        second = nil

        let third = try launched(directory)
        #expect(third.pendingPayments.isEmpty)
        #expect(third.transactionRows.first { $0.id == request.identifier }?.state == "lapsed")
        #expect(third.transactionRows.first { $0.id == request.identifier }?.controls == [])
        #expect(throws: WorldActionRefusal.self) {
            try WorldAction.transaction(.approve, request.identifier).apply(to: third)
        }
        #expect(throws: WorldActionRefusal.self) { try WorldAction.parentApprove.apply(to: third) }
        #expect(third.lapseNote(request.identifier)?.contains("can no longer be approved") == true)
        third.scheduler.runUntilIdle()
        #expect(third.charges == 0)
    }

    /// A request whose 24 hours ran out while no run was open lapses as the folder reopens, at the instant it was due.
    @Test func anAskToBuyRequestPastItsHoursLapsesAsTheFolderReopens() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try launched(directory)
        let request = try askToBuyRequest(on: first)
        first = nil
        let later = request.requestDate + .days(3)
        try "\(later.milliseconds)".write(toFile: directory + "/clock", atomically: true, encoding: .utf8)

        let second = try launched(directory)
        #expect(second.pendingPayments.isEmpty)
        let due = request.requestDate + .hours(24)
        #expect(second.store.lapsedRequests.first?.lapsedAt == due)
        #expect(!second.approveAskToBuy())
        #expect(second.charges == 0)
    }

    @Test func aNewPhoneInALaterRunIsNeverOneAnEarlierRunLeftOnDisk() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try world(directory)
        first.launch()
        try first.newDevice(named: "iphone-2")
        first.scheduler.runUntilIdle()
        try first.subscribe()
        #expect(first.appState.access.levels.map(\.rawValue) == ["premium"])

        let second = try world(directory)
        second.launch()
        #expect(throws: WorldSetupError.self) { try second.newDevice(named: "iphone-2") }
        try second.newDevice(named: "iphone-3")
        second.scheduler.runUntilIdle()
        #expect(second.appState.access.identity == .none)
    }

    /// Issue 14, item 1: the seeded generator starts over every run, but the backend remembers every
    /// notification id it saw; a reopened folder's new notifications must not read as duplicates.
    @Test func aReopenedFolderAppliesNewRenewalsAndRefunds() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // No latency: the store's generator draws only notification ids, the same ones in both runs.
        let first = try world(directory, latency: .none)
        first.launch()
        first.scheduler.runUntilIdle()
        try first.subscribe()
        #expect(first.travelToNextRenewal())
        first.scheduler.runUntilIdle()

        let second = try world(directory, latency: .none)
        second.launch()
        second.scheduler.runUntilIdle()
        #expect(second.travelToNextRenewal())
        second.scheduler.runUntilIdle()
        #expect(second.refundLatest())
        second.scheduler.runUntilIdle()
        let answers = second.timeline.entries.map(\.text).filter { $0.hasPrefix("notification ") }
        #expect(answers.contains { $0.hasPrefix("notification DID_RENEW") && $0.hasSuffix(": applied") })
        #expect(answers.contains { $0.hasPrefix("notification REFUND") && $0.hasSuffix(": applied") })
        #expect(!answers.contains { $0.contains(": duplicate") })
        let purchase = try #require(try second.backend.ledger.allPurchases().first)
        #expect(purchase.revoked)
    }

    /// Apple's REFUND on its way when `run` quit was never sent: every later run granted the refunded reader premium
    /// until the period ended, and `check --ledger` said the ledger does not revoke it (session 29). Kept in the App
    /// Store's records, it reaches the server in the next run, once: one left by a kill after its delivery is a
    /// duplicate.
    @Test func aNotificationOnItsWayWhenTheRunStoppedReachesTheServerInTheNext() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try subscribed(directory)
        #expect(first?.refundLatest() == true)
        first?.saveClock()  // a quit, the REFUND still on its way
        let kept = try #require(try first?.store.ledger.notificationsOnTheirWay())
        let row = try #require(kept.first)
        #expect(kept.map(\.name) == ["REFUND"])
        first = nil
        // Meanwhile the ledger is behind Apple, not wrong: `check --ledger` says the news is on its way.
        do {
            let records = try StoreRecords(readingOnly: "\(directory)/appstore.sqlite")
            let ledger = try BackendLedger(readingOnly: "\(directory)/backend.sqlite")
            #expect(try LedgerCheck.violations(in: ledger, against: records).isEmpty)
            let purchase = try #require(row.originalTransactionId)
            #expect(try records.newsOnItsWay().map(\.description) == ["REFUND about purchase \(purchase)"])
        }

        let second = try world(directory, latency: .typical)
        second.launch()
        second.scheduler.runUntilIdle()
        let lines = second.timeline.entries.map(\.text)
        #expect(lines.contains("notification REFUND (from the last run)"))
        #expect(lines.contains { $0.hasPrefix("notification REFUND ") && $0.hasSuffix(": applied") })
        #expect(try #require(try second.backend.ledger.allPurchases().first).revoked)
        second.returnToForeground()  // the app reads its access again
        second.scheduler.runUntilIdle()
        #expect(second.appState.access.levels.isEmpty)
        #expect(try second.store.ledger.notificationsOnTheirWay().isEmpty)

        // A kill between the server's commit and the row's delete: sent again, taken once.
        _ = try second.store.ledger.keepOnItsWay(
            name: row.name, originalTransactionId: row.originalTransactionId, signed: row.signed, due: row.due)
        let third = try world(directory, latency: .typical)
        third.launch()
        third.scheduler.runUntilIdle()
        #expect(third.timeline.entries.contains { $0.text.hasSuffix(": duplicate, already applied") })
        #expect(try third.store.ledger.notificationsOnTheirWay().isEmpty)
    }

    /// A REFUND the server answered 500 is kept with Apple's next retry, an hour later: a quit before it keeps the
    /// schedule, the next run tries again when it is due (not at launch), and the server applies it then. A retry
    /// that fails again is kept for the next one, 12 hours later (session 30).
    @Test func aNotificationTheServerDidNotAnswerIsRetriedOnAppleScheduleAcrossAQuit() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: World? = try subscribed(directory)
        try first?.inject(FaultPlan.parse("notifications error"))
        #expect(first?.refundLatest() == true)
        first?.scheduler.runUntilIdle()
        let refunded = try #require(first?.scheduler.now)
        first?.saveClock()  // a quit, the REFUND waiting for Apple's retry
        let row = try #require(try first?.store.ledger.notificationsOnTheirWay().first)
        #expect(row.name == "REFUND" && row.attempts == 1)
        #expect(row.due > refunded + .minutes(59) && row.due <= refunded + .hours(1))
        #expect(try first?.backend.ledger.allPurchases().first?.revoked == false)
        first = nil
        // `check --ledger` notes it as on its way, Apple retrying it.
        let records = try StoreRecords(readingOnly: "\(directory)/appstore.sqlite")
        #expect(try records.newsOnItsWay().map(\.attempts) == [1])

        let second = try world(directory, latency: .typical)
        try second.inject(FaultPlan.parse("notifications error"))
        second.launch()
        second.scheduler.runUntilIdle()
        // A retry is not due at launch: the server still holds what it last heard.
        #expect(
            !second.timeline.entries.contains { $0.text.hasPrefix("notification REFUND (from the last run) (retry") })
        second.travel(by: .hours(1))
        let lines = second.timeline.entries.map(\.text)
        #expect(lines.contains("notification REFUND (from the last run) (retry 1 of 5)"))
        #expect(
            lines.contains(
                "notification REFUND (from the last run) (retry 1 of 5) answered 500: Apple tries again in 12h"))
        let kept = try #require(try second.store.ledger.notificationsOnTheirWay().first)
        #expect(kept.attempts == 2 && kept.due == row.due + .hours(12))
        second.travel(by: .hours(12))
        #expect(try #require(try second.backend.ledger.allPurchases().first).revoked)
        #expect(try second.store.ledger.notificationsOnTheirWay().isEmpty)
    }

    /// Each folder gets its own keys when it is made, readable by its owner only, kept from run to run;
    /// an ephemeral world's keys come from its seed.
    @Test func aFolderHasItsOwnOwnerOnlyKeysAndEphemeralWorldsTheirSeeds() throws {
        let first = try TestSupport.temporaryDirectory()
        let second = try TestSupport.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let key = try world(first).store.verifyingKey
        #expect(try world(first).store.verifyingKey == key)
        #expect(try world(second).store.verifyingKey != key)
        let attributes = try FileManager.default.attributesOfItem(atPath: first + "/keys")
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
        let config = try TestSupport.demoConfig()
        let seeded = { (seed: UInt64) in try World(config: config, options: WorldOptions(seed: seed)).store.verifyingKey
        }
        #expect(try seeded(7) == seeded(7))
        #expect(try seeded(7) != seeded(8))
        #expect(try seeded(7) != key)
    }

    /// A keys file that is there but cannot be read stops the world with its path, and is left as it was:
    /// new keys would leave every receipt and sign-in of the folder unverifiable.
    @Test func aKeysFileThatCannotBeReadIsAnErrorNeverReplaced() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try world(directory)
        let garbled = Data([0xFF, 0xFE, 0x00, 0x41])  // not UTF-8
        try garbled.write(to: URL(fileURLWithPath: directory + "/keys"))
        #expect {
            _ = try world(directory)
        } throws: { error in
            "\(error)".contains("\(directory)/keys: not three base64url keys (not UTF-8 text)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/keys")) == garbled)
    }

    @Test func aFreshDirectoryStartsOnTheWorldsFirstMorning() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try world(directory).scheduler.now == .worldStart)
    }
}
