import Foundation
import Testing

/// `run --walk` and `play --live` from the command line: bad input stops before the terminal opens.
@Suite struct WalkAndLiveCommandTests {
    @Test func badInputIsOneMessageAndExitTwo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = "\(directory)/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let good = "\(directory)/good.scenario"
        try "launch\nexpect screen feed\n".write(toFile: good, atomically: true, encoding: .utf8)
        let bad = "\(directory)/bad.scenario"
        try "launch\nfly away\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let noApp = "\(directory)/no-app.scenario"
        try "app nosuch-app\nlaunch\n".write(toFile: noApp, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["run", "--walk", "\(directory)/missing"], "--walk: \(directory)/missing: no such file or folder"),
            (["run", "--walk", empty], "--walk: no .scenario files in \(empty)"),
            (["run", "--walk", bad], "--walk: \(bad):2: unknown step \"fly\""),
            // Named at the line that names the app, as a parse error is.
            (["run", "--walk", noApp], "--walk: \(noApp):1: no demo app named \"nosuch-app\""),
            (["run", "--walk", good, "--state", directory], "--state cannot be used with it"),
            (["run", "--report", "r.md"], "--report goes with --walk"),
            (["play", "--live", directory], "--live plays one scenario file; \(directory) is a folder"),
            (["play", "--live", good, good], "--live plays one scenario file, not 2"),
            (["play", "--live", good, "--pace", "soon"], "--pace takes seconds between steps, from 0 to 60"),
            (["play", "--live", bad], "--live: \(bad):2: unknown step"),
            (["play", good, "--pace", "1"], "--pace goes with --live"),
        ]
        for (arguments, message) in cases {
            let result = try TestSupport.runBinary(arguments)
            #expect(result.code == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }
}

/// A QA engineer walks scenarios by hand, and a demo plays itself, in a real terminal.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
struct TerminalWalkAndLiveTests {
    static let buy = """
        title Buy, then a day passes
        sees The article stays open
        app daily-news
        latency fast
        launch
        open content night-trains
        subscribe
        select offer premium-monthly
        confirm payment
        expect charges 1
        expect content night-trains unlocked
        advance 1d
        expect levels premium
        """

    @Test func aTesterChoosesAScenarioDoesItByHandAndSavesTheReport() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.buy.write(toFile: "\(directory)/a-buy.scenario", atomically: true, encoding: .utf8)
        try "title Just look\nlaunch\nexpect screen feed\n".write(
            toFile: "\(directory)/b-look.scenario", atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(["run", "--walk", directory], directory: directory)
        tmux.waitFor("Walk · 2 scenarios")
        try tmux.send("Enter")
        tmux.waitFor("Your turn on the phone.")
        tmux.waitFor("0 of 3 expectations green")
        try tmux.openSheet(offerDowns: 1)
        try tmux.send("Up", "Enter")
        tmux.waitFor("fourteen hours, three countries")
        tmux.waitFor("2 of 3 expectations green")
        tmux.waitFor("n does the next step")
        // The checklist: n does `advance 1d`, then s writes the report.
        try tmux.send("w", "n")
        tmux.waitFor("3 of 3 expectations green")
        tmux.waitFor("Every step done.")
        try tmux.send("s")
        tmux.waitFor("report saved to")
        let report = try String(contentsOfFile: "\(directory)/walk-report.md", encoding: .utf8)
        #expect(report.contains("| Buy, then a day passes | The article stays open | passed |"))
        #expect(report.contains("| 12 | `advance 1d` | done |"))
        #expect(report.contains("| 13 | `expect levels premium` | passed |"))
        // Back to the list: the walked scenario is ticked.
        try tmux.send("l")
        tmux.waitFor("✓ Buy, then a day passes")
        try tmux.quit()
    }

    @Test func aLiveReplayShowsItsCaptionsAndEndsPassed() throws {
        let file = "\(TestSupport.packageRoot)/scenarios/failure-table/01-reader-cancels.scenario"
        let tmux = try TmuxSession(["play", "--live", file, "--pace", "0.05"], width: 100, height: 30)
        tmux.waitFor("PASSED: all 15 steps")
        #expect(tmux.screen.contains("Back on the paywall, no alert, nothing charged."))
        try tmux.send("q")
        tmux.waitFor("1 passed, 0 failed")
        tmux.waitFor("EXIT=0")
    }

    @Test func aLiveReplayPausesAndAFailureEndsItWithTheStepAndExitOne() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/wrong.scenario"
        try "title Wrong\nlaunch\n# The feed is not the paywall.\nexpect screen paywall\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let slow = try TmuxSession(["play", "--live", file, "--pace", "60"], directory: directory)
        slow.waitFor("playing · space pauses")
        try slow.send("Space")
        slow.waitFor("paused · space resumes")
        try slow.send("q")
        slow.waitFor("EXIT=0")

        let fast = try TmuxSession(["play", "--live", file, "--pace", "0.05"], directory: directory)
        fast.waitFor("FAILED at line 4: expect screen paywall: expected screen paywall")
        #expect(fast.screen.contains("✗ expect screen paywall"))
        #expect(fast.screen.contains("got: screen feed"))
        #expect(fast.screen.contains("The feed is not the paywall."))
        try fast.send("q")
        fast.waitFor("\(file):4: expect screen paywall")
        fast.waitFor("EXIT=1")
    }
}
