import AppFlow
import SimKernel
import Simulation
import Testing

@testable import TerminalUI

struct TerminalFrameTests {
    let size = TerminalSize(columns: 120, rows: 40)

    func render(_ content: FrontContent = TerminalFixture.content(), state: FrontState = FrontState()) throws -> Frame {
        FrontView.render(content, state: state, theme: try TerminalFixture.theme(), size: size)
    }

    @Test func thePhoneShowsTheAppTheScreenTitleAndItsRows() throws {
        let lines = try render().lines
        #expect(lines[0].hasPrefix("╔═ Daily News ═"))
        #expect(lines[1].contains("▤ THE MORNING EDITION"))
        #expect(lines[1].contains("09:00"))
        #expect(lines[2].contains("Daily News"))
        #expect(lines[4].hasPrefix("║City approves the new harbour bridge"))
        #expect(lines[5].hasPrefix("║The return of the night trains    [locked]║"))
        #expect(lines[6].hasPrefix("║Weekend market report"))
    }

    @Test func theSelectedRowIsReversedAcrossThePhone() throws {
        let frame = try render()
        for x in 1..<43 {
            #expect(frame[x: x, y: 5].style.contains(.reverse))
            #expect(!frame[x: x, y: 4].style.contains(.reverse))
        }
        #expect(!frame[x: 0, y: 5].style.contains(.reverse))
    }

    @Test func theTimelineShowsEntriesNewestAtTheBottomColoredBySource() throws {
        let frame = try render()
        let lines = frame.lines
        // At 120x40 the timeline takes the right column's top 23 rows; the controls sit under it.
        #expect(lines[0].contains("═ Timeline · all ═"))
        #expect(lines[21].hasSuffix("║║09:00:02.250 backend GET /access → 200                                    ║"))
        #expect(lines[20].contains("║09:00:01.250 store   products request"))
        #expect(lines[19].contains("║09:00:00.250 app     launch Daily News"))
        #expect(lines[18].contains("── 2026-03-02 ──"))
        #expect(frame[x: 45 + 13, y: 21].role == .backend)
        #expect(frame[x: 45 + 21, y: 21].role == .backend)
        #expect(frame[x: 45, y: 21].role == .muted)
        #expect(frame[x: 45 + 13, y: 20].role == .store)
    }

    @Test func theBarShowsTheScreensKeysThenTheKeysThatAlwaysWork() throws {
        let lines = try render().lines
        #expect(lines[39] == " ↑↓ move · Enter open · c controls · Tab focus · ? keys · q quit")
        var state = FrontState()
        state.focus = .timeline
        #expect(try render(state: state).lines[39].hasPrefix(" ↑↓ scroll · f filter · PgUp/PgDn page"))
        state.focus = .controls
        #expect(try render(state: state).lines[39].hasPrefix(" ↑↓ move · Enter use · Esc phone · Tab focus"))
    }

    /// Focus shows in the pane's title; borders keep their colour, so a Tab repaints two titles, not two boxes.
    @Test func theFocusedPaneHasTheAccentTitleAndEveryBorderKeepsItsColour() throws {
        let phoneFocused = try render()
        #expect(phoneFocused[x: 3, y: 0].role == .accent)
        #expect(phoneFocused[x: 47, y: 0].role == .border)
        var state = FrontState()
        state.focus = .timeline
        let timelineFocused = try render(state: state)
        #expect(timelineFocused[x: 3, y: 0].role == .border)
        #expect(timelineFocused[x: 47, y: 0].role == .accent)
        for frame in [phoneFocused, timelineFocused] {
            #expect(
                [(0, 0), (0, 5), (44, 0), (44, 5), (43, 39 - 1)].allSatisfy { frame[x: $0.0, y: $0.1].role == .border })
        }
    }

    @Test func helpListsEveryKey() throws {
        var state = FrontState()
        state.showsHelp = true
        let text = try render(state: state).text
        for hint in KeyMap.help {
            #expect(text.contains(hint.key))
            #expect(text.contains(hint.action))
        }
        #expect(text.contains("On this screen:"))
    }

    /// Session 26: under an alert the bar and `?` listed the screen's keys ("Enter choose" over a failed check) and the
    /// row under it stayed highlighted, as if Enter would buy again. The alert takes the bar, the help and the highlight.
    @Test func anAlertTakesTheBarTheHelpAndTheHighlight() throws {
        var app = AppState(app: try TestSupport.demoConfig().app)
        _ = reduce(&app, .launched)
        app.tell(Alert(title: "Something went wrong", message: "The server could not check the purchase."))
        let content = TerminalFixture.content(screen: app.screen)
        let frame = try render(content)
        #expect(frame.lines[39] == " Enter OK · Esc close · c controls · Tab focus · ? keys · q quit")
        let okRow = try #require(frame.lines.firstIndex { $0.contains("[ OK ]") })
        let line = frame.lines[okRow]
        let okColumn = line.distance(from: line.startIndex, to: try #require(line.firstRange(of: "[ OK ]")).lowerBound)
        #expect((okColumn..<okColumn + 6).allSatisfy { frame[x: $0, y: okRow].style.contains(.reverse) })
        // Only the button: the box's sides and the rows under the alert are not.
        #expect(!frame[x: okColumn - 2, y: okRow].style.contains(.reverse))
        #expect(!(0..<okRow).contains { y in (1..<43).contains { frame[x: $0, y: y].style.contains(.reverse) } })
        var state = FrontState()
        state.showsHelp = true
        let help = try render(content, state: state).text
        #expect(help.contains("On this alert:"))
        #expect(!help.contains("On this screen:"))
    }

    /// At 80×24 with a screen of many keys, every general key's whole explanation is on screen (wrapped, not cut)
    /// and so is the way out.
    @Test func helpAtEightyByTwentyFourCutsNoExplanation() throws {
        let keys = (1...8).map { KeyHint("k\($0)", "screen key \($0)") }
        let screen = ScreenModel(id: .paywall, title: "Premium", rows: [Row(.choice, "Monthly")], keys: keys)
        var state = FrontState()
        state.showsHelp = true
        let frame = FrontView.render(
            TerminalFixture.content(screen: screen), state: state, theme: try TerminalFixture.theme(),
            size: TerminalSize(columns: 80, rows: 24))
        let words = Set(frame.lines.flatMap { $0.split(whereSeparator: { " ║╔╗╚╝═".contains($0) }) }.map(String.init))
        for hint in KeyMap.help {
            for word in hint.action.split(separator: " ") { #expect(words.contains(String(word)), "\(word)") }
        }
        #expect(frame.text.contains(HelpOverlay.closing))
    }

    @Test func theSelectedRowStaysInViewOnALongScreen() throws {
        let rows = (1...60).map { Row(.choice, "Story \($0)") }
        let screen = ScreenModel(id: .feed, title: "Daily News", rows: rows, selection: 49)
        let frame = FrontView.render(
            TerminalFixture.content(screen: screen), state: FrontState(), theme: try TerminalFixture.theme(),
            size: TerminalSize(columns: 80, rows: 24))
        let selected = frame.lines.firstIndex { $0.contains("Story 50") }
        #expect(selected != nil)
        #expect(frame.lines[2].contains("Daily News"))
        if let selected { #expect(frame[x: 1, y: selected].style.contains(.reverse)) }
        #expect(frame.text.contains("▲"))
        #expect(frame.text.contains("▼"))
    }

    @Test func scrollingTheTimelineShowsOlderEntriesAndHowManyAreNewer() throws {
        let entries = TerminalFixture.timeline((0..<80).map { (Int64($0), .reader, "down \($0)") })
        var state = FrontState()
        state.timelineScrollBack = 10
        let lines = try render(TerminalFixture.content(timeline: entries), state: state).lines
        #expect(lines[21].contains("09:01:09.250 reader  down 69"))
        #expect(lines.contains { $0.contains("▼ 10 newer") })
        #expect(!lines.contains { $0.contains("down 70") })
    }

    @Test func longTimelineTextsWrapUnderTheTextColumnAndAreCutAfterFourLines() throws {
        let long = (1...80).map { "word\($0)" }.joined(separator: " ")
        let entries = TerminalFixture.timeline([(0, .backend, long), (1, .app, "done")])
        let theme = try TerminalFixture.theme()
        let wide = FrontView.render(
            TerminalFixture.content(timeline: entries), state: FrontState(), theme: theme,
            size: TerminalSize(columns: 150, rows: 30)
        ).lines
        let first = try #require(wide.firstIndex { $0.contains("backend word1 ") })
        let column = try #require(wide[first].range(of: "word1")).lowerBound
        #expect(wide[first + 1][column...].hasPrefix("word"))
        #expect(wide[first + 1][..<column].hasSuffix(String(repeating: " ", count: 21)))
        #expect(wide[first + 3].dropLast().trimmingTrailingSpaces().hasSuffix("…"))
        #expect(wide[first + 4].contains("app     done"))
        // At 80 columns the pane is too narrow to line text up after the time: it goes under it, the pane's width
        // (a dozen characters a line cut every product id, session 24), and holds as much text as the wide pane's
        // 4 lines before it is cut (4 lines cut everyday entries there, session 27).
        let narrow = FrontView.render(
            TerminalFixture.content(timeline: entries), state: FrontState(), theme: theme,
            size: TerminalSize(columns: 80, rows: 40)
        ).lines
        let header = try #require(narrow.firstIndex { $0.contains("backend") && !$0.contains("word") })
        let most = TimelinePane.maxLines(textWidth: 32, leading: 1)
        #expect(most == 8)
        #expect(narrow[header + 1].contains("  word1 word2 word3"))
        #expect(narrow[header + most - 1].dropLast().trimmingTrailingSpaces().hasSuffix("…"))
        #expect(narrow[header + most].contains("app"))
    }

    /// Entries are laid out once per width and kept: a resize must wrap them anew, and going back must show
    /// the first width's lines again, never another width's.
    @Test func aResizedTimelineWrapsEachEntryForItsOwnWidth() throws {
        let long = (1...30).map { "word\($0)" }.joined(separator: " ")
        let entries = TerminalFixture.timeline([(0, .backend, long)])
        let theme = try TerminalFixture.theme()
        func rows(_ columns: Int) -> [String] {
            FrontView.render(
                TerminalFixture.content(timeline: entries), state: FrontState(), theme: theme,
                size: TerminalSize(columns: columns, rows: 30)
            ).lines.filter { $0.contains("word") }
        }
        let wide = rows(150)
        let narrow = rows(80)
        #expect(wide.count == 3)
        #expect(narrow.count == 7)
        #expect(wide != narrow)
        #expect(rows(150) == wide)
        #expect(rows(80) == narrow)
    }

    /// A date line goes above the first entry of each new day, however far time travel jumps.
    @Test func eachNewDayOfTheTimelineGetsItsDateLine() throws {
        let day: Int64 = 86_400
        let entries = TerminalFixture.timeline([
            (0, .app, "launch"), (60, .app, "same day"), (day, .control, "+1 day"), (40 * day, .control, "+1 month"),
        ])
        let lines = try render(TerminalFixture.content(timeline: entries)).lines
        let dates = lines.compactMap { line in line.range(of: "── 2026-").map { line[$0.lowerBound...].prefix(16) } }
        #expect(dates == ["── 2026-03-02 ──", "── 2026-03-03 ──", "── 2026-04-11 ──"])
    }

    @Test func wideCharactersTakeTwoCellsAndBoxDrawingOne() {
        var frame = Frame(size: TerminalSize(columns: 6, rows: 1))
        let end = frame.write("日本─", x: 0, y: 0, role: .text)
        #expect(end == 5)
        #expect(frame.lines == ["日本─"])
        #expect(frame[x: 1, y: 0].isContinuation)
        frame.write("x", x: 1, y: 0, role: .text)
        #expect(frame.lines == [" x本─"])
    }

    /// A Japanese win-back banner wrapped "！" alone onto a line (session 32): at every width a phone has, no line
    /// begins with a closing mark (its word or character goes down with it), none overflows, nothing is lost.
    @Test func noWrappedLineBeginsWithAClosingMark() {
        let texts = [
            "おかえりなさい！Listener+ に登録：月額¥480", "全エピソードを広告なしで。独立系オーディオを応援しましょう。",
            "Bon retour ! Devenez Listener+ : 4,99 € par mois", "Willkommen zurück! Werde Listener+",
        ]
        let closing: Set<Character> = ["！", "。", "、", "：", "!", ":", "?"]
        for text in texts {
            for width in 12...40 {
                let lines = ScreenRenderer.wrap(text, width: width)
                #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(text) at \(width): \(lines)")
                #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "\(text) at \(width)")
                #expect(!lines.contains { $0.first.map(closing.contains) == true }, "\(text) at \(width): \(lines)")
            }
        }
    }

    /// Issue 13, item 10: an emoji logo shifted the border. An emoji made wide only by its presentation
    /// selector (U+FE0F) is one column to ncurses and two to the terminal; it is drawn without it.
    @Test func anEmojiWithAPresentationSelectorTakesTheColumnsTheTerminalGivesIt() {
        var frame = Frame(size: TerminalSize(columns: 8, rows: 1))
        let end = frame.write("🗞\u{FE0F}ab║", x: 0, y: 0, role: .text)
        // As wide as the newspaper glyph alone, whatever width this locale gives it, and the selector gone.
        #expect(end == ColumnWidth.of(Character("🗞")) + 3)
        #expect(frame.lines[0].hasPrefix("🗞ab║"))
        #expect(!frame.lines[0].unicodeScalars.contains { $0.value == 0xFE0F })
    }

    /// With several phones nothing on screen said whose phone the pane showed (session 27): its title names it.
    @Test func thePhonePaneNamesThePhoneWhenThereAreSeveral() throws {
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 1, latency: .none))
        world.launch()
        world.scheduler.runUntilIdle()
        let theme = try TerminalFixture.theme()
        let size = TerminalSize(columns: 120, rows: 40)
        let alone = FrontView.render(FrontContent(world: world), state: FrontState(), theme: theme, size: size)
        #expect(alone.lines[0].hasPrefix("╔═ Daily News ═"), "\(alone.lines[0])")
        try world.newDevice(named: "iphone-2")
        world.scheduler.runUntilIdle()
        let two = FrontView.render(FrontContent(world: world), state: FrontState(), theme: theme, size: size)
        #expect(two.lines[0].hasPrefix("╔═ Daily News · iphone-2 ═"), "\(two.lines[0])")
    }

    /// A family emoji in an app's text (👨‍👩‍👧, three emoji joined by U+200D) was measured as one wide character;
    /// ncurses draws its parts, and the row's border moved four columns (session 27). It is measured, wrapped and
    /// drawn as its parts, without the joiners.
    @Test func aJoinedEmojiSequenceIsDrawnAsItsParts() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(family.count == 1)
        let part = ColumnWidth.of(Character("\u{1F468}"))
        #expect(ColumnWidth.of(family) == 3 * part)
        #expect(DisplayWidth.of(family) == 6)
        var frame = Frame(size: TerminalSize(columns: 12, rows: 1))
        let end = frame.write("a\(family)b║", x: 0, y: 0, role: .text)
        #expect(end == 3 * part + 3)
        #expect(frame.lines[0].hasPrefix("a\u{1F468}\u{1F469}\u{1F467}b║"))
        #expect(!frame.lines[0].unicodeScalars.contains { $0.value == 0x200D })
    }
}

extension StringProtocol {
    func trimmingTrailingSpaces() -> String {
        var text = String(self)
        while text.last == " " { text.removeLast() }
        return text
    }
}

struct TerminalSpinnerTests {
    @Test func aWaitingScreenShowsTheSpinnerTurningWithThePhase() throws {
        var screen = TerminalFixture.feed
        screen.waiting = "Waiting for the App Store"
        var content = TerminalFixture.content(screen: screen)
        let theme = try TerminalFixture.theme()
        let size = TerminalSize(columns: 80, rows: 24)
        let first = FrontView.render(content, state: FrontState(), theme: theme, size: size)
        content.spinnerPhase = 1
        let second = FrontView.render(content, state: FrontState(), theme: theme, size: size)
        #expect(first.text.contains("║| Waiting for the App Store…"))
        #expect(second.text.contains("║/ Waiting for the App Store…"))
        #expect(first != second)
    }
}
