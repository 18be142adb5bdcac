import AppFlow
import Foundation
import SimKernel
import Testing

@testable import Simulation

/// The whole world headless: the same flow a person follows in the terminal, on the virtual clock.
@Suite struct PurchaseFlowTests {
    /// Launches, opens the first locked article, its paywall, and the first offer's sheet.
    private func worldOnSheet(seed: UInt64 = 7, latency: LatencyProfile = .typical, state: String? = nil) throws
        -> World
    {
        let world = try World(
            config: try TestSupport.demoConfig(),
            options: WorldOptions(seed: seed, latency: latency, stateDirectory: state))
        world.launch()
        world.scheduler.runUntilIdle()
        #expect(world.screen.id == .feed)
        world.send(.down)
        world.send(.select)
        #expect(world.screen.id == .content)
        world.send(.select)
        #expect(world.screen.id == .paywall)
        world.scheduler.runUntilIdle()
        world.send(.select)
        world.scheduler.runUntilIdle()
        #expect(world.screen.id == .appStoreSheet)
        return world
    }

    /// Subscribe on Apple's sheet: up from Cancel, where the sheet opens, then Enter.
    private func confirm(_ world: World) {
        world.send(.up)
        world.send(.select)
    }

    private func articleIsUnlocked(_ world: World) -> Bool {
        world.appState.access.unlocks(["premium"])
    }

    @Test func nothingUnlocksBeforeTheBackendAnswers() throws {
        let world = try worldOnSheet()
        confirm(world)
        var backendAnswered = false
        var sawCheckingSpinner = false
        while let due = world.scheduler.nextDue {
            world.scheduler.run(until: due)
            backendAnswered = backendAnswered || world.timeline.text.contains("POST /v1/receipts → 200")
            if articleIsUnlocked(world) { #expect(backendAnswered, "unlocked before the backend answered") }
            if world.screen.id == .paywall && world.screen.waiting == "Checking your purchase with the server" {
                sawCheckingSpinner = true
                #expect(world.charges == 1)
            }
        }
        #expect(sawCheckingSpinner)
        #expect(world.screen.id == .content)
        #expect(
            world.screen.rows.contains {
                $0.text.hasPrefix("Sleeper services are coming back") && $0.text.contains("breakfast")
            })
        #expect(world.charges == 1)
        // Injected latency ran on the virtual clock: seconds passed there, none here.
        #expect(world.scheduler.now - SimInstant.worldStart > .seconds(3))
    }

    @Test func cancellingOnTheSheetReturnsToThePaywallWithNoErrorAndNoCharge() throws {
        let world = try worldOnSheet()
        // The sheet opens on Cancel: Enter alone cancels (session 26).
        world.send(.select)
        world.scheduler.runUntilIdle()
        #expect(world.screen.visibleID == .paywall)
        #expect(world.screen.alert == nil)
        #expect(world.charges == 0)
    }

    @Test func theSameSeedGivesTheSameTimelineByteForByte() throws {
        func timeline(seed: UInt64) throws -> String {
            let world = try worldOnSheet(seed: seed)
            confirm(world)
            world.scheduler.runUntilIdle()
            return world.timeline.text
        }
        let first = try timeline(seed: 11)
        #expect(first == (try timeline(seed: 11)))
        #expect(first != (try timeline(seed: 12)))
        #expect(first.contains("offer premium-weekly left out"))
    }

    @Test func anAnonymousSubscriberKeepsAccessAfterARestart() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = try worldOnSheet(state: directory)
        confirm(world)
        world.scheduler.runUntilIdle()
        #expect(articleIsUnlocked(world))

        let restarted = try World(
            config: try TestSupport.demoConfig(), options: WorldOptions(seed: 2, stateDirectory: directory))
        restarted.launch()
        restarted.scheduler.runUntilIdle()
        #expect(restarted.appState.access.identity == .anonymous(id: "anon-000001"))
        #expect(articleIsUnlocked(restarted))
        #expect(restarted.charges == 1)
        #expect(try restarted.backend.ledger.integrityCheck() == "ok")
    }
}

/// Quitting the app or changing phones while answers are on their way: they are dropped, never delivered
/// to the app that is gone, and the app that takes its place works.
@Suite struct AnswersInFlightTests {
    @Test(arguments: ["restart", "new phone"])
    func answersOnTheirWayToAGoneAppAreDropped(_ how: String) throws {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(latency: .typical))
        world.launch()  // the products request and the access reload are on their way
        #expect(!world.scheduler.isIdle)
        if how == "restart" { world.restartApp() } else { try world.newDevice(named: "iphone-2") }
        world.scheduler.runUntilIdle()
        #expect(world.screen.visibleID == .feed)
        #expect(world.appState.offers?.map(\.id) == ["premium-yearly", "premium-monthly"])
    }
}
