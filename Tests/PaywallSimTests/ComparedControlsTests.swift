import Scenarios
import Simulation
import Testing
import WhiteLabel

@testable import TerminalUI

/// `compare --live`'s control pane over both worlds of the finish-policy trade-off (session 41: its "Finish" row said
/// "before server check" of both worlds, and Enter on it set both to finish after, so the world titled
/// "finish=before" finished after and the two ran alike).
@Suite struct ComparedControlsTests {
    static func worlds() throws -> [World] {
        let scenario = try ScenarioParser.parse(file: CompareTests.finishTradeOff)
        return try ScenarioComparison.prepare(scenario, resources: ResourceLocator(root: TestSupport.packageRoot))
    }

    static func row(_ label: String, _ worlds: [World]) throws -> Control {
        try #require(ComparedControls.controls(worlds.map(ControlReadings.init)).first { $0.label == label })
    }

    @Test func theSettingComparedReadsPerWorldAndTheOthersTheirSharedValue() throws {
        let worlds = try Self.worlds()
        #expect(try Self.row("Finish", worlds).value == "per world")
        #expect(try Self.row("Latency", worlds).value == "fast")
        #expect(try Self.row("Storefront", worlds).value == "USA")
    }

    @Test func enterOnTheSettingComparedLeavesEachWorldItsOwnAndSaysWhy() throws {
        let worlds = try Self.worlds()
        ComparedControls.press(try Self.row("Finish", worlds), on: worlds)
        #expect(worlds.map(\.finishPolicy) == [.beforeServerCheck, .afterServerCheck])
        for world in worlds {
            #expect(
                world.timeline.entries.last?.text == "Finish refused: the worlds differ in it, and each keeps its own")
        }
        #expect(try Self.row("Finish", worlds).value == "per world")
    }

    @Test func aRowTheWorldsShareActsOnEvery() throws {
        let worlds = try Self.worlds()
        ComparedControls.press(try Self.row("Latency", worlds), on: worlds)
        #expect(worlds.map(\.latency.name) == ["typical", "typical"])
        #expect(try Self.row("Latency", worlds).value == "typical")
    }
}
