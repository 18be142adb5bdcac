import AppFlow
import Scenarios
import Simulation
import Testing
import WhiteLabel

@testable import TerminalUI

/// The checklist pane of a walk and of a live replay, rendered into a frame and read as text.
@Suite struct ChecklistPaneTests {
    let session: WalkSession

    init() throws {
        let scenario = try ScenarioParser.parse(WalkStateTests.text, file: "walk.scenario")
        session = .over([scenario], reportPath: "/tmp/r.md")
    }

    /// A walk whose reader steps are done, with `expect charges 2` settled red by `advance 1d`.
    private func walked() throws -> (World, FrontState) {
        var state = FrontState()
        var (world, walk) = try session.started()
        try session.doByHand(buyingNightTrains, on: world, &walk, eachTurn: false)
        session.settle(world, state: &walk)
        session.runStep(walk.nextStep!, state: &walk)
        session.settle(world, state: &walk)
        state.walk = walk
        return (world, state)
    }

    private func render(_ world: World, _ state: FrontState, columns: Int, rows: Int) throws -> Frame {
        FrontView.render(
            FrontContent(world: world), state: state, theme: try TerminalFixture.theme(),
            size: TerminalSize(columns: columns, rows: rows))
    }

    @Test func fromThirtyRowsTheChecklistSitsAboveTheTimelineAndTheControls() throws {
        let (world, state) = try walked()
        let frame = try render(world, state, columns: 120, rows: 40)
        let lines = frame.lines
        #expect(lines[0].contains("╔═ Walk · Walk me ═"))
        #expect(lines[1].contains("║4 of 5 expectations green, 1 red"))
        #expect(lines[2].contains("║Every step done."))
        let red = try #require(lines.firstIndex { $0.contains("✗ expect charges 2") })
        #expect(lines[red + 1].contains("║  got: 1 charge"))
        #expect(frame[x: 45, y: red].role == .error)
        let green = try #require(lines.firstIndex { $0.contains("✓ expect charges 1") })
        #expect(frame[x: 47, y: green].role == .success)
        #expect(lines[15].contains("═ Timeline · all ═"))
        #expect(lines.contains { $0.contains("═ Controls ═") })
        #expect(lines[13].contains("║s saves the report to /tmp/r.md"))
    }

    @Test func atEightyByTwentyFourTheChecklistTakesTheTimelinesPlaceUntilTheTimelineIsFocused() throws {
        var (world, state) = try walked()
        let lines = try render(world, state, columns: 80, rows: 24).lines
        #expect(lines[0].hasSuffix("╔═ Walk · Walk me ═════════════════╗"))
        #expect(lines.contains { $0.hasSuffix("║✓ advance 1d                      ║") })
        #expect(lines[23] == " w walk · Esc back · c controls · Tab focus · ? keys · q quit")
        state.focus = .timeline
        #expect(try render(world, state, columns: 80, rows: 24).lines[0].contains("═ Timeline · all ═"))
        #expect(state.apply(.focusNext) == nil)
        #expect(state.focus == .checklist)
        let focused = try render(world, state, columns: 80, rows: 24).lines
        #expect(focused[0].contains("═ Walk · Walk me ═"))
        #expect(focused[23].hasPrefix(" n next step · s save report · l list · Esc phone"))
        #expect(state.apply(.focusNext) == nil)
        #expect(state.focus == .controls)
        #expect(try render(world, state, columns: 80, rows: 24).lines[0].contains("═ Controls ═"))
    }

    @Test func theListOfScenariosIsHighlightedWhileFocused() throws {
        var state = FrontState()
        state.walk = session.initialState
        state.focus = .checklist
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions())
        world.launch()
        let frame = try render(world, state, columns: 80, rows: 24)
        #expect(frame.lines[0].contains("═ Walk · 1 scenario ═"))
        #expect(frame.lines[1].contains("║Enter walks a scenario:"))
        #expect(frame.lines[2].contains("║  Walk me"))
        #expect(frame[x: 50, y: 2].style.contains(.reverse))
        #expect(frame.lines[23].hasPrefix(" ↑↓ move · Enter walk · Esc phone"))
    }

    @Test func liveReplayShowsTheCaptionTheStepsAndHowItEnded() throws {
        let scenario = try ScenarioParser.parse(
            """
            title Live demo
            launch
            # The reader opens the locked article.
            open content night-trains
            expect screen content
            """, file: "live.scenario")
        let replay = LiveReplay(
            scenario: scenario, resources: ResourceLocator(root: TestSupport.packageRoot), paceSeconds: 0)
        let world = try replay.prepare()
        var state = FrontState()
        state.live = replay.initialState
        let first = try render(world, state, columns: 80, rows: 24).lines
        #expect(first[1].contains("║Live demo"))
        #expect(first[23].hasPrefix(" Space pause · Tab focus"))
        var wall: Int64 = 0
        while !state.live!.isFinished {
            _ = replay.tick(atWall: wall, state: &state.live!)
            wall += 1
        }
        let lines = try render(world, state, columns: 80, rows: 24).lines
        #expect(lines[0].contains("═ Live · Live demo ═"))
        #expect(lines[1].contains("║The reader opens the locked"))
        #expect(lines.contains { $0.contains("║✓ open content night-trains") })
        #expect(lines.contains { $0.contains("║PASSED: all 3 steps") })
        // Ended: Space does nothing more, so the bar no longer offers it.
        #expect(lines[23].hasPrefix(" Tab focus"))
        replay.ended(state.live!)
        #expect(replay.result?.passed == true)
    }
}
