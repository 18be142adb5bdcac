import AppFlow
import Foundation
import Scenarios
import Simulation
import Testing
import WhiteLabel

@testable import TerminalUI

/// Golden frames of `compare --live`: the finish-policy trade-off after the server check failed and the
/// app restarted, at 120x40 and at the smallest size, 80x24. Files in `Tests/Snapshots/compare-live/`;
/// `UPDATE_SNAPSHOTS=1 swift test --filter Snapshot` rewrites them after a deliberate change.
@Suite struct CompareSnapshotTests {
    static let directory = SnapshotFiles.directory + "/compare-live"

    /// Both worlds of the trade-off, driven by the same reader actions, as one keyboard drives them.
    static func content() throws -> CompareContent {
        let scenario = try ScenarioParser.parse(file: CompareTests.finishTradeOff)
        let worlds = try ScenarioComparison.prepare(
            scenario, resources: ResourceLocator(root: TestSupport.packageRoot))
        for world in worlds {
            for action: ReaderAction in [
                .openContent("night-trains"), .subscribe, .selectOffer("premium-monthly"), .confirmPayment, .back,
            ] {
                try world.perform(action)
                world.scheduler.runUntilIdle()
            }
            world.restartApp()
            world.scheduler.runUntilIdle()
        }
        return CompareContent(worlds: worlds, labels: scenario.variation?.labels ?? [])
    }

    func render(_ size: TerminalSize, focus: Focus = .phone, scrollToMark: Bool = false) throws -> String {
        let content = try Self.content()
        var state = FrontState()
        state.focus = focus
        if scrollToMark, case .panes(let panes) = CompareLayout(size: size),
            let rect = panes.timelineRect(focus: focus)
        {
            // Scrolled back until the mark is near the bottom of the pane.
            let (entries, marked) = CompareView.timeline(content, filter: .all)
            let index = try #require(marked)
            state.timelineScrollBack =
                entries.indices.dropFirst(index).reduce(0) {
                    $0 + TimelinePane.lines(for: entries, at: $1, width: rect.inner.width).count
                } - (TimelinePane.lines(for: entries, at: index, width: rect.inner.width).count - 1)
        }
        let frame = CompareView.render(content, state: state, theme: try TerminalFixture.theme(), size: size)
        return frame.text + "\n"
    }

    func check(_ name: String, _ actual: String) throws {
        let path = "\(Self.directory)/\(name).txt"
        if SnapshotFiles.isUpdating {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let golden = try? String(contentsOfFile: path, encoding: .utf8)
        #expect(
            golden == actual,
            "\(name) differs from \(path). If meant, run: \(SnapshotFiles.updateCommand)\n--- actual\n\(actual)")
    }

    @Test func twoPhonesTheTimelineAndTheControlsAt120x40() throws {
        let text = try render(TerminalSize(columns: 120, rows: 40))
        try check("120x40", text)
        // What the reader notices: the same article, locked in one world and open in the other.
        let lines = text.split(separator: "\n")
        #expect(lines[0].contains("═ finish=before ═") && lines[0].contains("═ finish=after ═"))
        #expect(lines.contains { $0.contains("[locked]") && $0.contains("The return of the night trains  [open]") })
        #expect(lines.contains { $0.contains("Controls · both worlds") })
    }

    /// `r`, `t`, `w` and Space do nothing here: its help listed recording and the transaction inspector (session 41).
    @Test func itsHelpListsNoKeyItDoesNothingWith() throws {
        var state = FrontState()
        state.showsHelp = true
        let frame = CompareView.render(
            try Self.content(), state: state, theme: try TerminalFixture.theme(),
            size: TerminalSize(columns: 120, rows: 40))
        #expect(frame.text.contains(HelpOverlay.closing))
        #expect(!frame.text.contains("recording") && !frame.text.contains("transactions:"))
        #expect(frame.text.contains("timeline filter"))
    }

    @Test func twoPhonesShareTheWidthAt80x24() throws {
        try check("80x24", try render(TerminalSize(columns: 80, rows: 24)))
    }

    @Test func atTheSmallestSizeTheTimelineTakesTheSecondPhonesPlaceMarkedWhereTheWorldsDiffer() throws {
        let text = try render(TerminalSize(columns: 80, rows: 24), focus: .timeline, scrollToMark: true)
        try check("80x24-timeline", text)
        #expect(text.contains("Timeline · finish=before"))
        #expect(text.contains("≠ the worlds differ from here"))
        // The finish=before world finished Apple's transaction right after the mark, before the check.
        let lines = text.split(separator: "\n")
        let mark = try #require(lines.firstIndex { $0.contains("≠ the worlds differ from here") })
        #expect(lines[mark + 1].contains("store"))
        #expect(lines[mark + 2].contains("transaction"))
    }
}
