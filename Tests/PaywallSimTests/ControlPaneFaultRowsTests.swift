import AppFlow
import SimKernel
import Testing

@testable import Simulation
@testable import TerminalUI

/// The faults a scenario writes that the control pane had no row for (session 32): each row is read off the pane as
/// the terminal draws it at 80x24, the smallest size the README states, and its action is the scenario's words.
struct ControlPaneFaultRowsTests {
    let small = TerminalSize(columns: 80, rows: 24)

    /// The pane at 80x24, focused, with the row labelled `label` selected: the frame's lines.
    func pane(selecting label: String, readings: ControlReadings = ControlReadings()) throws -> [String] {
        let controls = ControlBoard.controls(readings)
        let index = try #require(controls.firstIndex { $0.label == label }, "no row \"\(label)\"")
        var state = FrontState()
        state.focus = .controls
        state.controlSelection = index
        let content = TerminalFixture.content().with(controls: readings)
        return FrontView.render(content, state: state, theme: try TerminalFixture.theme(), size: small).lines
    }

    /// The row labelled `label`, as the pane offers it for `readings`.
    func control(_ label: String, _ readings: ControlReadings = ControlReadings()) throws -> Control {
        try #require(ControlBoard.controls(readings).first { $0.label == label }, "no row \"\(label)\"")
    }

    /// What `r` writes for a pressed row is read back as the same action: a recording replays it.
    func readBack(_ action: WorldAction) throws -> WorldAction? {
        let words = action.text.split(whereSeparator: \.isWhitespace).map(String.init)
        let rest = action.text.dropFirst(words.first?.count ?? 0).trimmingCharacters(in: .whitespaces)
        return try WorldAction.parse(words, rest: rest)
    }

    /// Enter on the row labelled `label` of `world`'s pane, then the world runs until idle.
    func press(_ label: String, on world: World) throws {
        let row = try control(label, ControlReadings(world: world))
        #expect(row.action.press(on: world) == nil, "\(label) was refused")
        world.scheduler.runUntilIdle()
    }

    @Test func receiptForgedNextSitsWithTheReceiptRowsAndIsTheScenariosInject() throws {
        let lines = try pane(selecting: "Receipt forged next")
        let row = try #require(lines.firstIndex { $0.contains("Receipt forged next") })
        #expect(lines[row - 1].contains("Receipt goes missing"))
        let forged = try control("Receipt forged next")
        #expect(forged.group == .store)
        #expect(forged.action.text == "inject receipt forged times 1")
        #expect(try readBack(forged.action) == forged.action)

        // Pressed before a purchase: Apple refuses the altered receipt, the app asks for a fresh one and sends it.
        let world = try newsWorld()
        world.launchAndSettle()
        try press("Receipt forged next", on: world)
        world.buyFromFeed()
        #expect(world.charges == 1)
        #expect(world.timeline.text.contains("fault: receipt forged"))
        #expect(world.timeline.text.contains("receipt refreshed"))
        #expect(world.isUnlocked)
    }

    @Test func notificationsFailIsABackendRowTheServerRefusesThreePostsAndAppleRetriesUntilOneLands() throws {
        let lines = try pane(selecting: "Notifications fail (3x)")
        #expect(lines.contains { $0.contains("Notifications fail (3x)") })
        #expect(lines.contains { $0.contains("Notification answer lost") })
        let failing = try control("Notifications fail (3x)")
        #expect(failing.group == .backend)
        #expect(failing.action.text == "inject notifications error times 3")
        #expect(try readBack(failing.action) == failing.action)
        let lost = try control("Notification answer lost")
        #expect(lost.action.text == "inject notifications lost-response times 1")
        #expect(try readBack(lost.action) == lost.action)

        // Apple's news of a refund is refused three times, then its third retry, a day and a half on, lands.
        let world = try newsWorld()
        world.launchAndSettle()
        world.buyFromFeed()
        #expect(world.isUnlocked)
        try press("Notifications fail (3x)", on: world)
        try press("Refund the latest", on: world)
        #expect(world.timeline.text.contains("fault: notifications error"))
        for _ in 0..<3 { try press("+1 day", on: world) }
        #expect(world.timeline.entries.filter { $0.text.contains("fault: notifications error") }.count == 3)
        #expect(world.timeline.text.contains("notification REFUND (retry 3 of 5)"))
        #expect(
            world.timeline.entries.contains { $0.text.hasPrefix("notification REFUND") && $0.text.hasSuffix("applied") }
        )
    }

    @Test func killTheAppIsADeviceRowAndBackgroundAndBackStartsItAgain() throws {
        let lines = try pane(selecting: "Kill the app")
        let row = try #require(lines.firstIndex { $0.contains("Kill the app") })
        #expect(lines[row + 1].contains("Restart the app"))
        let kill = try control("Kill the app")
        #expect(kill.group == .device)
        #expect(kill.action == .kill)
        #expect(try readBack(kill.action) == .kill)

        let world = try newsWorld()
        world.launchAndSettle()
        try press("Kill the app", on: world)
        #expect(!world.isAppRunning)
        #expect(world.timeline.text.contains("app killed on iphone"))
        // The phone says so, not the last screen whose keys do nothing.
        let theme = try TerminalFixture.theme()
        let killed = FrontView.render(FrontContent(world: world), state: FrontState(), theme: theme, size: small).text
        #expect(killed.contains("The app is not running"))
        #expect(!killed.contains("The return of the night trains"))
        try press("Background and back", on: world)
        #expect(world.isAppRunning)
        let started = FrontView.render(FrontContent(world: world), state: FrontState(), theme: theme, size: small).text
        #expect(!started.contains("The app is not running"))
        #expect(started.contains("The return of the night trains"))
    }

    /// "Billing issue" gave a grace period whatever the file said, and offered no other (session 31, h11): its first
    /// press is the file's grace period, its second the other, its third lifts the issue.
    @Test(arguments: [true, false]) func billingIssueGoesFromTheFilesGracePeriodToTheOtherAndOff(fileGrace: Bool) throws
    {
        var readings = ControlReadings()
        readings.defaultGrace = fileGrace
        readings.billingGrace = fileGrace
        var seen: [String] = []
        var texts: [String] = []
        for _ in 0..<3 {
            let row = try control("Billing issue", readings)
            let line = try #require(
                try pane(selecting: "Billing issue", readings: readings).first { $0.contains("Billing issue") })
            seen.append(try #require(row.value))
            #expect(line.contains(row.value ?? ""))
            texts.append(row.action.text)
            #expect(try readBack(row.action) == row.action)
            switch row.action {
            case .billingIssueWith(let grace): (readings.billingIssue, readings.billingGrace) = (true, grace)
            case .billingIssue(false): (readings.billingIssue, readings.billingGrace) = (false, fileGrace)
            default: Issue.record("Billing issue does \(row.action.text)")
            }
        }
        let (first, second) = fileGrace ? ("grace", "no-grace") : ("no-grace", "grace")
        #expect(texts == ["store billing-issue \(first)", "store billing-issue \(second)", "store recover"])
        #expect(seen == ["off", fileGrace ? "with grace" : "no grace", fileGrace ? "no grace" : "with grace"])
    }

    /// Every row's words, as `r` records them, read back as the very action the row does: a recording replays what
    /// was pressed, whatever the row (with a billing issue on, the Billing issue row does another action).
    @Test func everyRowsWordsReadBackAsItsAction() throws {
        var failing = ControlReadings()
        failing.billingIssue = true
        for readings in [ControlReadings(), failing] {
            for row in ControlBoard.controls(readings) {
                #expect(try readBack(row.action) == row.action, "\(row.label): \(row.action.text)")
            }
        }
    }
}
