import AppFlow
import Foundation
import Testing

@testable import TerminalUI

struct TerminalLayoutTests {
    @Test func minimumSizeFitsPhoneTimelineAndKeyBar() {
        let layout = Layout(size: TerminalSize(columns: 80, rows: 24))
        guard case .panes(let panes) = layout else {
            Issue.record("80x24 must fit")
            return
        }
        #expect(panes.phone == Rect(x: 0, y: 0, width: 44, height: 23))
        #expect(panes.timeline == Rect(x: 44, y: 0, width: 36, height: 23))
        #expect(panes.keyBar == Rect(x: 0, y: 23, width: 80, height: 1))
        // No room for the controls under the timeline: they cover it while they have the focus.
        #expect(panes.controls == nil)
        #expect(panes.controlsRect(focus: .phone) == nil)
        #expect(panes.controlsRect(focus: .controls) == panes.timeline)
    }

    @Test func largerTerminalsPutTheControlsUnderTheTimeline() {
        guard case .panes(let panes) = Layout(size: TerminalSize(columns: 120, rows: 40)) else {
            Issue.record("120x40 must fit")
            return
        }
        #expect(panes.phone == Rect(x: 0, y: 0, width: 44, height: 39))
        #expect(panes.timeline == Rect(x: 44, y: 0, width: 76, height: 23))
        #expect(panes.controls == Rect(x: 44, y: 23, width: 76, height: 16))
        #expect(panes.controlsRect(focus: .phone) == panes.controls)
        #expect(panes.keyBar == Rect(x: 0, y: 39, width: 120, height: 1))
    }

    @Test func aChecklistTakesTheTopOfTheRightColumnOrTheTimelinesPlaceWhenShort() {
        guard case .panes(let large) = Layout(size: TerminalSize(columns: 120, rows: 40), checklist: true),
            case .panes(let small) = Layout(size: TerminalSize(columns: 80, rows: 24), checklist: true)
        else {
            Issue.record("80x24 and 120x40 must fit")
            return
        }
        #expect(large.checklist == Rect(x: 44, y: 0, width: 76, height: 15))
        #expect(large.timeline == Rect(x: 44, y: 15, width: 76, height: 14))
        #expect(large.controls == Rect(x: 44, y: 29, width: 76, height: 10))
        #expect(large.checklistRect(focus: .timeline) == large.checklist)
        #expect(small.checklist == nil)
        #expect(small.checklistRect(focus: .phone) == small.timeline)
        #expect(small.checklistRect(focus: .checklist) == small.timeline)
        #expect(small.checklistRect(focus: .timeline) == nil)
        #expect(small.checklistRect(focus: .controls) == nil)
        #expect(Focus.phone.next(checklist: true) == .timeline)
        #expect(Focus.timeline.next(checklist: true) == .checklist)
        #expect(Focus.timeline.next == .controls)
    }

    @Test(arguments: [(79, 24), (80, 23), (60, 20), (20, 5)])
    func tooSmallTerminalsSaySoWithTheirSize(columns: Int, rows: Int) throws {
        let size = TerminalSize(columns: columns, rows: rows)
        #expect(Layout(size: size) == .tooSmall(size))
        let text = FrontView.render(
            TerminalFixture.content(), state: FrontState(), theme: try TerminalFixture.theme(), size: size
        ).text
        let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains("Terminal too small: \(columns)x\(rows)."))
        #expect(joined.contains("PaywallSim needs at least 80x24."))
        #expect(!text.contains("Timeline"))
    }

    @Test func theMessageGoesAwayWhenTheTerminalGrowsAgain() throws {
        let theme = try TerminalFixture.theme()
        let small = FrontView.render(
            TerminalFixture.content(), state: FrontState(), theme: theme, size: TerminalSize(columns: 79, rows: 23))
        let grown = FrontView.render(
            TerminalFixture.content(), state: FrontState(), theme: theme, size: TerminalSize(columns: 80, rows: 24))
        #expect(small.text.contains("Terminal too small: 79x23."))
        #expect(small.text.contains("PaywallSim needs at least 80x24."))
        #expect(small.text.contains("Keys are ignored until it grows; q quits."))
        #expect(!grown.text.contains("too small"))
        #expect(grown.text.contains("Timeline"))
    }

    /// Issue 15: at 60x15 the phone is hidden, so ↓ Enter Enter must not reach the app (no blind purchase).
    @Test func keysAtAHiddenPhoneDoNothingButQuit() {
        var state = FrontState()
        for input in [ReaderInput.down, .select, .select, .select] {
            #expect(state.apply(.reader(input), terminalFits: false) == nil)
        }
        #expect(state.apply(.focusControls, terminalFits: false) == nil)
        #expect(state.apply(.quit, terminalFits: false) == .quit)
        #expect(state.apply(.reader(.select)) == .send(.select))
    }

    /// In an 80-column terminal the timeline's text goes under the time, and a fixed 4 lines cut the store's everyday
    /// lines ("…or no…", session 27). An entry holds as much text there as in a wide pane; only a chattier one is cut.
    @Test func aNarrowTimelineShowsAnEverydayEntryWhole() {
        let text =
            "offer premium-weekly left out: the App Store does not sell it here (unknown, not ready, or not in this "
            + "storefront)"
        let entry = TerminalFixture.timeline([(5, .app, text)])[0]
        for width in [34, 74] {
            let lines = TimelinePane.body(of: entry, width: width)
            #expect(!lines.contains { $0.text.contains("…") }, "\(lines.map(\.text))")
            #expect(lines.map(\.text).joined(separator: " ").contains("storefront)"))
        }
        let chatty = TerminalFixture.timeline([(5, .app, String(repeating: "many words ", count: 40))])[0]
        #expect(TimelinePane.body(of: chatty, width: 74).count == 4)
        #expect(TimelinePane.body(of: chatty, width: 74).last?.text.hasSuffix("…") == true)
        #expect(TimelinePane.body(of: chatty, width: 34).last?.text.hasSuffix("…") == true)
    }
}
