import AppFlow
import CNcurses
import SimKernel
import Testing

@testable import Simulation
@testable import TerminalUI

/// The control pane: what it shows, the keys that reach it, and what each control does to the world.
struct TerminalControlPaneTests {
    let size = TerminalSize(columns: 120, rows: 40)

    func render(_ content: FrontContent = TerminalFixture.content(), state: FrontState = FrontState()) throws -> Frame {
        FrontView.render(content, state: state, theme: try TerminalFixture.theme(), size: size)
    }

    @Test func at120x40TheControlsSitUnderTheTimelineGroupedByWhoActsWithTheirState() throws {
        var readings = ControlReadings()
        readings.askToBuy = true
        readings.latency = .slow
        let lines = try render(TerminalFixture.content().with(controls: readings)).lines
        #expect(lines[23].contains("═ Controls ═"))
        let pane = lines[24...38].map { String($0.dropFirst(45)) }
        #expect(pane[0].hasPrefix("Parent  Ask to Buy"))
        // The state ends the row, 44 columns in, close enough to read against its label.
        #expect(String(pane[0].prefix(44)).hasSuffix(" on"))
        #expect(pane[1].hasPrefix("        Approve the request"))
        #expect(pane[3].hasPrefix("Store   Next purchase"))
        #expect(pane[3].contains("ok"))
        #expect(pane.contains { $0.hasPrefix("Backend Receipt check fails next") })
        #expect(pane.contains { $0.hasPrefix("        Storefront") })
        // 22 controls do not fit in 14 rows: an arrow says there are more below.
        #expect(lines[38].contains("▼"))
    }

    @Test func theSelectedControlStaysInViewAndIsReversedOnlyWhileFocused() throws {
        var state = FrontState()
        state.controlSelection = ControlBoard.count - 1
        let unfocused = try render(state: state)
        let row = try #require(unfocused.lines.firstIndex { $0.contains("Finish") })
        #expect(unfocused.lines[row].contains("before server check"))
        #expect(unfocused.lines[row].contains("App"))
        #expect(!unfocused[x: 53, y: row].style.contains(.reverse))
        #expect(unfocused.lines[23].contains("▲"))
        state.focus = .controls
        let focused = try render(state: state)
        #expect(focused[x: 53, y: row].style.contains(.reverse))
        #expect(focused[x: 47, y: 23].role == .accent)
        #expect(focused[x: 44, y: 23].role == .border)
    }

    @Test func at80x24TheControlsCoverTheTimelineOnlyWhileFocused() throws {
        let small = TerminalSize(columns: 80, rows: 24)
        let theme = try TerminalFixture.theme()
        var state = FrontState()
        let phone = FrontView.render(TerminalFixture.content(), state: state, theme: theme, size: small).text
        #expect(phone.contains("Timeline"))
        #expect(!phone.contains("Controls"))
        state.focus = .controls
        let controls = FrontView.render(TerminalFixture.content(), state: state, theme: theme, size: small).text
        #expect(controls.contains("Controls"))
        #expect(controls.contains("Ask to Buy"))
        #expect(!controls.contains("Timeline"))
        #expect(controls.contains("City approves the new harbour bridge"))
    }

    @Test func theKeysOfTheControlPane() {
        #expect(KeyMap.action(for: .function(KEY_UP), focus: .controls) == .moveControl(.up))
        #expect(KeyMap.action(for: .character("j"), focus: .controls) == .moveControl(.down))
        #expect(KeyMap.action(for: .character("\n"), focus: .controls) == .activateControl)
        #expect(KeyMap.action(for: .function(KEY_ENTER), focus: .controls) == .activateControl)
        #expect(KeyMap.action(for: .character("\u{1B}"), focus: .controls) == .focusPhone)
        #expect(KeyMap.action(for: .character("c"), focus: .controls) == .focusPhone)
        #expect(KeyMap.action(for: .character("c"), focus: .phone) == .focusControls)
        // A text field on the phone takes the letter: an e-mail address can contain a c.
        #expect(KeyMap.action(for: .character("c"), focus: .phone, textFieldFocused: true) == .reader(.character("c")))
        // The timeline filter from any pane, as the README lists it; typed in a text field.
        #expect(KeyMap.action(for: .character("f"), focus: .phone) == .cycleTimelineFilter)
        #expect(KeyMap.action(for: .character("f"), focus: .controls) == .cycleTimelineFilter)
        #expect(KeyMap.action(for: .character("f"), focus: .phone, textFieldFocused: true) == .reader(.character("f")))
    }

    @Test func tabCyclesPhoneTimelineControlsAndEnterReturnsTheSelectedControlsAction() {
        var state = FrontState()
        _ = state.apply(.focusNext)
        _ = state.apply(.focusNext)
        #expect(state.focus == .controls)
        let controls = ControlBoard.controls(ControlReadings())
        #expect(state.apply(.activateControl, controls: controls) == .control(.askToBuy(true)))
        _ = state.apply(.moveControl(.down))
        #expect(state.apply(.activateControl, controls: controls) == .control(.parentApprove))
        _ = state.apply(.moveControl(.up))
        _ = state.apply(.moveControl(.up))
        #expect(state.controlSelection == 0)
        _ = state.apply(.moveControl(.last))
        #expect(state.controlSelection == controls.count - 1)
        _ = state.apply(.moveControl(.down))
        #expect(state.controlSelection == controls.count - 1)
        _ = state.apply(.focusNext)
        #expect(state.focus == .phone)
        #expect(state.apply(.activateControl, controls: controls) == nil)
    }

    @Test func helpListsTheNewKeys() throws {
        var state = FrontState()
        state.showsHelp = true
        let text = try render(state: state).text
        #expect(text.contains("phone → timeline → controls"))
        #expect(text.contains("timeline filter, from any pane: all, app, store, backend, reader, control"))
        #expect(KeyMap.help.contains { $0.key == "c" })
    }
}

/// The timeline filter: `f` walks the sources, the title names the one shown, scrolling still works.
struct TerminalTimelineFilterTests {
    let size = TerminalSize(columns: 120, rows: 40)

    @Test func fCyclesAllAppStoreBackendReaderControlAndBack() {
        var state = FrontState()
        state.focus = .timeline
        var names: [String] = []
        for _ in 0..<6 {
            _ = state.apply(.cycleTimelineFilter)
            names.append(state.timelineFilter.name)
        }
        #expect(names == ["app", "store", "backend", "reader", "control", "all"])
    }

    @Test(arguments: [TimelineSource.store, .backend, .control])
    func theFilterShowsOnlyTheChosenSource(_ source: TimelineSource) throws {
        let content = TerminalFixture.content(
            timeline: TerminalFixture.timeline(
                TimelineSource.allCases.enumerated().map { (Int64($0), $1, "said by \($1.rawValue)") }))
        var state = FrontState()
        state.timelineFilter = .source(source)
        let frame = FrontView.render(content, state: state, theme: try TerminalFixture.theme(), size: size)
        let timeline = frame.lines[0..<23].map { String($0.dropFirst(44)) }
        #expect(timeline[0].contains("Timeline · \(source.rawValue)"))
        #expect(timeline.contains { $0.contains("said by \(source.rawValue)") })
        for other in TimelineSource.allCases where other != source {
            #expect(!timeline.contains { $0.contains("said by \(other.rawValue)") })
        }
    }

    @Test func scrollingWorksOnTheFilteredEntries() throws {
        let items = (0..<120).map { (Int64($0), $0 % 2 == 0 ? TimelineSource.store : .app, "message \($0)") }
        let content = TerminalFixture.content(timeline: TerminalFixture.timeline(items))
        var state = FrontState()
        state.focus = .timeline
        _ = state.apply(.cycleTimelineFilter)
        _ = state.apply(.cycleTimelineFilter)
        #expect(state.timelineFilter == .source(.store))
        let metrics = FrontView.timelineScrollMetrics(content, filter: state.timelineFilter, size: size)
        // 60 store lines and a date line, in a pane 21 lines tall.
        #expect(metrics.limit == 61 - 21)
        _ = state.apply(.scrollTimeline(.oldest), timelinePage: metrics.page, timelineLimit: metrics.limit)
        let lines = FrontView.render(content, state: state, theme: try TerminalFixture.theme(), size: size).lines
        #expect(lines[2].contains("store   message 0"))
        #expect(lines.contains { $0.contains("▼ 40 newer") })
        #expect(!lines.contains { $0.contains("app     message") })
        // Another filter starts again at the newest entry.
        _ = state.apply(.cycleTimelineFilter)
        #expect(state.timelineScrollBack == 0)
    }
}

/// Each control applied to a headless world of the news app does what its row says, and says so on the timeline.
struct TerminalControlActionTests {
    /// Presses Enter on the control labelled `label`, as the pane offers it now.
    func use(_ label: String, on world: World, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = ControlBoard.controls(ControlReadings(world: world))
        guard let control = controls.first(where: { $0.label == label }) else {
            Issue.record("no control \"\(label)\": \(controls.map(\.label))", sourceLocation: sourceLocation)
            return
        }
        _ = control.action.press(on: world)
        world.scheduler.runUntilIdle()
    }

    func value(_ label: String, in world: World) -> String? {
        ControlBoard.controls(ControlReadings(world: world)).first { $0.label == label }?.value
    }

    @Test func askToBuyOnMakesAPurchaseWaitAndApproveCompletesItWhileTheReaderIsOnTheFeed() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        use("Ask to Buy", on: world)
        #expect(value("Ask to Buy", in: world) == "on")
        world.buyFromFeed()
        #expect(world.screen.alert?.title == "Waiting for approval")
        #expect(world.charges == 0)
        world.dismissAlert()
        world.backToFeed()
        use("Approve the request", on: world)
        #expect(world.charges == 1)
        #expect(world.screen.id == .feed)
        #expect(world.screen.rows.contains { $0.text == "The return of the night trains" && $0.badge == .unlocked })
    }

    @Test func declineChargesNothing() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        use("Ask to Buy", on: world)
        world.buyFromFeed()
        world.dismissAlert()
        use("Decline the request", on: world)
        #expect(world.charges == 0)
        #expect(!world.isUnlocked)
    }

    @Test func nextPurchaseCyclesItsOutcomesAndAFailedOneIsSpentByOnePurchase() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        var seen: [String?] = []
        for _ in 0..<5 {
            use("Next purchase", on: world)
            seen.append(value("Next purchase", in: world))
            #expect(world.store.plannedFaults.filter { $0.target == "payment" }.count <= 1)
        }
        #expect(seen == ["fails", "cancelled", "deferred", "interrupted", "ok"])
        use("Next purchase", on: world)
        world.buyFromFeed()
        #expect(world.screen.alert?.message == "The App Store could not complete the payment. You were not charged.")
        #expect(value("Next purchase", in: world) == "ok")
        #expect(world.charges == 0)
    }

    // Issue 12, defect 13: an interrupted purchase is no dead end; the control resolves it and a recording says so.
    @Test func resolvingAnInterruptedPurchaseChargesOnceAndUnlocks() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        for _ in 0..<4 { use("Next purchase", on: world) }
        #expect(value("Next purchase", in: world) == "interrupted")
        world.buyFromFeed()
        #expect(world.charges == 0)
        world.dismissAlert()
        use("Resolve the interrupted purchase", on: world)
        #expect(world.charges == 1)
        #expect(world.isUnlocked)
        #expect(WorldAction.resolveInterrupted.text == "store resolve-interrupted")
    }

    @Test func aFailedReceiptCheckLeavesThePurchaseLocked() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        use("Receipt check fails next", on: world)
        world.buyFromFeed()
        #expect(world.charges == 1)
        #expect(!world.isUnlocked)
        #expect(world.timeline.text.contains("fault: receipts error"))
    }

    @Test func togglesShowTheWorldsState() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        use("Payments allowed", on: world)
        #expect(!world.canMakePayments)
        #expect(value("Payments allowed", in: world) == "off")
        use("Billing issue", on: world)
        #expect(world.hasBillingIssue)
        #expect(value("Billing issue", in: world) == "with grace")
        #expect(value("Latency", in: world) == "fast")
        use("Latency", on: world)
        #expect(world.latency.name == "typical")
        #expect(world.store.latency.name == "typical")
        use("Finish", on: world)
        #expect(world.finishPolicy == .afterServerCheck)
        #expect(value("Finish", in: world) == "after server check")
    }

    @Test func plusOneMonthIsACalendarMonth() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        #expect(world.scheduler.now.dateDescription == "2026-03-02")
        use("+1 month", on: world)
        #expect(world.scheduler.now.dateDescription == "2026-04-02")
        use("+1 day", on: world)
        #expect(world.scheduler.now.dateDescription == "2026-04-03")
    }

    @Test(arguments: ControlBoard.controls(ControlReadings()).map(\.label))
    func everyControlIsWrittenOnTheTimeline(_ label: String) throws {
        let world = try newsWorld()
        world.launchAndSettle()
        let before = world.timeline.entries.count
        use(label, on: world)
        let added = world.timeline.entries.dropFirst(before)
        #expect(added.contains { $0.source == .control || $0.source == .store }, "\(label) left no trace")
    }
}

extension FrontContent {
    func with(controls: ControlReadings) -> FrontContent {
        var copy = self
        copy.controls = controls
        return copy
    }
}

@Suite struct StorefrontControlTests {
    @Test func changingTheStorefrontAsksForProductsAgainAndThePaywallShowsItsPrices() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.choose("The return of the night trains")
        world.choose("Subscribe")
        #expect(world.screen.rows.contains { $0.text == "Premium Monthly: $4.99 per month" })
        let readings = ControlReadings(world: world)
        let control = try #require(ControlBoard.controls(readings).first { $0.label == "Storefront" })
        _ = control.action.press(on: world)
        world.scheduler.runUntilIdle()
        // The storefronts the catalog sells in, in order after USA: FRA, in euros.
        #expect(world.storefront == "FRA")
        #expect(world.screen.rows.contains { $0.text == "Premium Monthly: €4.99 per month" })
        #expect(world.timeline.text.contains("storefront FRA"))
    }

    @Test func changingTheLocaleShowsTheStoresFrenchTitles() throws {
        let world = try newsWorld()
        world.launchAndSettle()
        world.locale = "fr_FR"
        world.scheduler.runUntilIdle()
        world.choose("The return of the night trains")
        world.choose("Subscribe")
        #expect(world.screen.rows.contains { $0.text.hasPrefix("Premium mensuel") })
    }
}

/// What the control pane says of a control is what the world does: pressing a control with a state shows a new
/// state, in every bundled app (the kids app's Ask to Buy logged "off" and stayed on, session 23).
struct ControlStateTests {
    @Test(arguments: ["daily-news", "fit-track", "kids-stories", "podcast-club"])
    func everyControlWithAStateShowsItChangedWhenPressed(app: String) throws {
        let world = try World(config: try TestSupport.demoConfig(app), options: WorldOptions(seed: 5, latency: .fast))
        world.launchAndSettle()
        for control in ControlBoard.controls(ControlReadings(world: world)) where control.value != nil {
            let before = control.value
            _ = control.action.press(on: world)
            world.scheduler.runUntilIdle()
            let after = ControlBoard.controls(ControlReadings(world: world)).first { $0.label == control.label }?.value
            #expect(after != before, "\(app): \"\(control.label)\" still reads \(before ?? "") once pressed")
        }
    }

}
