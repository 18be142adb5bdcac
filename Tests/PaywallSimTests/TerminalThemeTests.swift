import SimKernel
import Testing
import WhiteLabel

@testable import TerminalUI

struct TerminalThemeTests {
    @Test(arguments: ["newsprint", "playground", "midnight"])
    func bundledThemesLoadWithEveryRole(name: String) throws {
        let theme = try TerminalFixture.theme(name)
        #expect(theme.name == name)
        #expect(!theme.logo.isEmpty)
        #expect(ColumnWidth.of(theme.logo) <= 30)
        for role in Theme.Role.allCases {
            #expect(theme.color(role) != nil)
        }
    }

    @Test func paletteDepthFollowsTheTerminalAndNoColor() {
        #expect(Palette.depth(colors: 256, hasColors: true, noColor: nil) == .extended)
        #expect(Palette.depth(colors: 8, hasColors: true, noColor: nil) == .basic)
        #expect(Palette.depth(colors: 256, hasColors: false, noColor: nil) == .monochrome)
        #expect(Palette.depth(colors: 256, hasColors: true, noColor: "1") == .monochrome)
        // no-color.org: an empty NO_COLOR does not count.
        #expect(Palette.depth(colors: 256, hasColors: true, noColor: "") == .extended)
    }

    @Test func paletteUsesTheThemesColorsForTheDepth() throws {
        let theme = try TerminalFixture.theme("newsprint")
        let extended = Palette(theme: theme, depth: .extended)
        #expect(extended.pairs[.accent]?.foreground == 167)
        let basic = Palette(theme: theme, depth: .basic)
        #expect(basic.pairs[.accent]?.foreground == 1)  // red
        #expect(Set(basic.pairs.values.map(\.number)).count == Theme.Role.allCases.count)
    }

    @Test func withoutColorsHighlightStillStandsOut() throws {
        let palette = Palette(theme: try TerminalFixture.theme(), depth: .monochrome)
        #expect(palette.pairs.isEmpty)
        #expect(palette.pairNumber(for: .accent) == 0)
        #expect(palette.style(for: .accent) == .bold)
        #expect(palette.style(for: .highlight) == .bold)
        #expect(palette.style(for: .muted) == .dim)
    }
}

struct TerminalRealTimeDriverTests {
    let start = SimInstant.worldStart

    @Test func virtualTimeFollowsWallTimeTimesSpeed() {
        let driver = RealTimeDriver(anchorWallNanoseconds: 1_000_000_000, anchorVirtual: start, speed: 2)
        #expect(driver.virtualInstant(atWall: 1_000_000_000) == start)
        #expect(driver.virtualInstant(atWall: 1_500_000_000) == start + .millis(1000))
    }

    @Test func aWorldThatJumpedAheadReanchorsTheMapping() {
        var driver = RealTimeDriver(anchorWallNanoseconds: 0, anchorVirtual: start)
        let jumped = start + .days(1)
        #expect(driver.target(atWall: 1_000_000_000, schedulerNow: jumped) == jumped)
        #expect(driver.target(atWall: 2_000_000_000, schedulerNow: jumped) == jumped + .seconds(1))
    }

    @Test func changingSpeedDoesNotJump() {
        var driver = RealTimeDriver(anchorWallNanoseconds: 0, anchorVirtual: start)
        driver.setSpeed(10, atWall: 1_000_000_000)
        #expect(driver.virtualInstant(atWall: 1_000_000_000) == start + .seconds(1))
        #expect(driver.virtualInstant(atWall: 2_000_000_000) == start + .seconds(11))
    }

    @Test func theWaitForKeysEndsAtTheNextEventOrSpinnerStep() {
        let driver = RealTimeDriver(anchorWallNanoseconds: 0, anchorVirtual: start, speed: 1)
        #expect(driver.waitMilliseconds(now: start, nextDue: nil, spinnerStep: nil) == 250)
        #expect(driver.waitMilliseconds(now: start, nextDue: start + .millis(40), spinnerStep: nil) == 40)
        #expect(driver.waitMilliseconds(now: start, nextDue: start + .seconds(5), spinnerStep: 120) == 120)
        #expect(driver.waitMilliseconds(now: start + .millis(100), nextDue: nil, spinnerStep: 120) == 20)
        let fast = RealTimeDriver(anchorWallNanoseconds: 0, anchorVirtual: start, speed: 4)
        #expect(fast.waitMilliseconds(now: start, nextDue: start + .millis(400), spinnerStep: nil) == 100)
    }
}
