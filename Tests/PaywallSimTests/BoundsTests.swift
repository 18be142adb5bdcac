import Foundation
import Scenarios
import SimKernel
import Simulation
import TerminalUI
import Testing

/// Every length and instant is bounded where it is read: ten years a step or a jump of a reopened clock,
/// the end of year 9999 for any clock.
/// Past them the program crashed on an overflow or charged renewals for minutes before its first frame.
@Suite struct BoundsTests {
    @Test func durationsStopAtTenYears() {
        #expect(SimDuration(text: "3660d") == .days(3_660))
        #expect(SimDuration(text: "3661d") == nil)
        #expect(SimDuration(text: "106751991168d") == nil)
        #expect(SimDuration(text: "9223372036854775807ms") == nil)
    }

    @Test func periodsStopAtTenYears() {
        #expect(CalendarPeriod(iso8601: "P10Y") == CalendarPeriod(unit: .year, value: 10))
        #expect(CalendarPeriod(iso8601: "P120M") != nil)
        #expect(CalendarPeriod(iso8601: "P11Y") == nil)
        #expect(CalendarPeriod(iso8601: "P99999999999Y") == nil)
    }

    @Test func aScenarioFileWithWindowsLineEndsParses() throws {
        let scenario = try ScenarioParser.parse(
            "app daily-news\r\nlaunch\r\nexpect screen feed\r\n", file: "t.scenario")
        #expect(scenario.steps.map(\.text) == ["app daily-news", "launch", "expect screen feed"])
    }

    @Test(arguments: [
        ("9223372036854775807", "its clock file is past 9999-12-31"),
        (
            "32503680000000",
            "clock: 3000-01-01 00:00:00.000 is more than ten years past the App Store's or the ledger's last record"
        ),
        ("yesterday", "clock: not a number of milliseconds"),
        // Forms this tool never writes, read as numbers and then ignored: before the first morning a world starts at,
        // the clock stayed where the records were, in silence (h3, session 29).
        ("-5", "clock: not a number of milliseconds"),
        ("+1772442000000", "clock: not a number of milliseconds"),
        ("0", "clock: 1970-01-01 00:00:00.000 is before 2026-03-02"),
    ])
    func aFarFutureClockFileIsRefusedNamingIt(clock: String, message: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A folder with records: a clock beside none is refused for the records gone (`DamagedStateTests`).
        let made = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        try #require(made.code == 0, "\(made.stderr)")
        try clock.write(toFile: "\(directory)/clock", atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["bench", "lifecycle", "--count", "1", "--state", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func timeTravelStopsAtTheLatestInstantWithALine() throws {
        let world = try World(config: try TestSupport.demoConfig(), options: WorldOptions(latency: .none))
        world.launch()
        var steps = 0
        while world.travel(by: .longest) && steps < 1_000 { steps += 1 }
        #expect(steps == Int((SimInstant.latest - .worldStart).milliseconds / SimDuration.longest.milliseconds))
        let before = world.scheduler.now
        #expect(!world.travel(by: .longest))
        #expect(world.scheduler.now == before)
        #expect(world.timeline.entries.last?.text.contains("refused: the clock stops at 9999-12-31") == true)
    }
}

/// Text a person types or a config carries, bounded and cleaned before it reaches a screen.
@Suite struct TextInputBoundsTests {
    @Test func aLongPasteIntoAFieldStopsAtTheLimit() throws {
        var config = try TestSupport.demoConfig()
        config.app.kids = true
        let world = try World(config: config, options: WorldOptions(latency: .none))
        world.launchAndSettle()
        world.choose("The return of the night trains")
        world.choose("Subscribe")
        world.choose("Premium Monthly")
        #expect(world.screen.id == .parentalGate)
        world.type(String(repeating: "7", count: 20_000))
        #expect(world.appState.gate?.answer.count == 254)
    }

    @Test func oneLongUnbrokenStringWrapsIntoFullLines() {
        let lines = WordWrap.lines("short " + String(repeating: "ab", count: 100_000) + " end", width: 40)
        #expect(lines.first == "short")
        #expect(lines.count == 1 + 5_000 + 1)
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.count == 40 })
        #expect(lines.last == "end")
    }

    /// Shown as `\u{1B}`, as README says and `check` does; a tab parts words as a space (session 28: "twoTabbed").
    @Test func screensPrintsNoControlCharacterFromAConfig() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        let hostile = text.replacingOccurrences(
            of: "Read without limits", with: "Read \\u001b[2J\\u0007without\\tlimits")
        #expect(hostile != text)
        let path = "\(directory)/hostile.json"
        try hostile.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["screens", "--app", path])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Read \\u{1B}[2J\\u{7}without limits"), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
