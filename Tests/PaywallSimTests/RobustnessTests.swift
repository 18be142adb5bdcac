import Foundation
import Testing

/// The program as a hostile or careless user meets it, against the release binary when it is built
/// (CI builds it first), the debug one otherwise: stop signals, a closed terminal, Ctrl-Z, a terminal
/// that cannot show it, one state folder opened twice.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
struct RobustnessTests {
    private let binary = TestSupport.robustnessBinaryPath

    private func session(
        _ arguments: [String] = ["--ephemeral", "--latency", "none"], width: Int = 120, height: Int = 36,
        environment: String = "LANG=C.UTF-8 TERM=xterm-256color"
    ) throws -> TmuxSession {
        try TmuxSession(arguments, width: width, height: height, binary: binary, environment: environment)
    }

    @Test(arguments: [("INT", 130), ("TERM", 143), ("HUP", 129)])
    func aStopSignalEndsTheProgramAndRestoresTheTerminal(signal: String, code: Int) throws {
        let tmux = try session()
        tmux.waitFor("Weekend market report")
        try tmux.signalProgram(signal)
        tmux.waitFor("EXIT=\(code)")
        tmux.waitFor("icanon echo")
        #expect(!tmux.screen.contains("Weekend market report"))
    }

    @Test func closingTheTerminalEndsTheProgram() throws {
        let tmux = try session()
        tmux.waitFor("Weekend market report")
        let pid = try #require(tmux.programPid)
        try tmux.closeTerminal()
        #expect(Self.waitUntilEnded(pid), "paywall-sim (pid \(pid)) still runs after its terminal closed")
    }

    @Test func ctrlZStopsWithTheTerminalRestoredAndFgBringsTheAppBack() throws {
        let tmux = try TmuxSession(shellWidth: 120, height: 36)
        tmux.waitFor("#")
        try tmux.type("'\(binary)' --ephemeral --latency none; echo EXIT=$?")
        try tmux.send("Enter")
        tmux.waitFor("Weekend market report")
        try tmux.send("C-z")
        tmux.waitFor("Stopped")
        try tmux.type(TmuxSession.terminalModes)
        try tmux.send("Enter")
        tmux.waitFor("icanon echo")
        try tmux.type("fg")
        try tmux.send("Enter")
        tmux.waitFor("Weekend market report")
        try tmux.send("q")
        tmux.waitUntilGone("Weekend market report")
        // The job's status after fg: bash already printed the stopped command's list.
        try tmux.type("echo FG=$?")
        try tmux.send("Enter")
        tmux.waitFor("FG=0")
    }

    /// A vt100 has no alternate screen: quitting left the last frame on the terminal, under the prompt (session 27).
    @Test func aTerminalWithoutAnAlternateScreenIsClearedOnQuit() throws {
        let tmux = try session(environment: "LANG=C.UTF-8 TERM=vt100")
        tmux.waitFor("Weekend market report")
        try tmux.quit()
        #expect(!tmux.screen.contains("Weekend market report"), "\(tmux.screen)")
    }

    @Test func aTerminalWithoutUTF8GetsAsciiBorders() throws {
        let tmux = try session(environment: "LANG=C LC_ALL=C TERM=xterm-256color")
        tmux.waitFor("Weekend market report")
        let screen = tmux.screen
        #expect(screen.contains("+- Daily News -"), "\(screen)")
        #expect(!screen.unicodeScalars.contains { !$0.isASCII }, "\(screen)")
        try tmux.quit()
    }

    @Test(arguments: [
        ("TERM=dumb", "TERM is \"dumb\""), ("-u TERM", "(TERM is not set)"),
    ])
    func aTerminalThatCannotMoveTheCursorIsRefused(environment: String, message: String) throws {
        let tmux = try session(environment: "\(environment) LANG=C.UTF-8")
        tmux.waitFor("EXIT=2")
        #expect(tmux.screen.contains(message), "\(tmux.screen)")
    }

    @Test func keysOnTheTooSmallScreenDoNothingButQ() throws {
        let tmux = try session()
        tmux.waitFor("Weekend market report")
        try tmux.resize(width: 60, height: 15)
        tmux.waitFor("Terminal too small")
        // Blind, these keys would buy the first offer: open the locked article, Subscribe, an offer, confirm.
        try tmux.send("Down", "Enter", "Enter", "Down", "Enter", "Enter")
        try tmux.resize(width: 120, height: 36)
        tmux.waitFor("Weekend market report")
        #expect(!tmux.screen.contains("reader  select"), "\(tmux.screen)")
        #expect(tmux.screen.contains("The return of the night trains"))
        try tmux.quit()
    }

    @Test func aTinyTerminalStillQuitsCleanly() throws {
        let tmux = try session(width: 20, height: 5)
        tmux.waitFor("Terminal")
        try tmux.send("q")
        tmux.waitFor("EXIT=0")
    }

    @Test func aSecondRunOnTheSameFolderIsRefusedWithTheFirstOnesPid() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try session(["--state", directory, "--latency", "none"])
        first.waitFor("Weekend market report")
        let pid = try #require(first.programPid)
        let second = try session(["--state", directory, "--latency", "none"])
        second.waitFor("EXIT=2")
        #expect(second.screen.contains("\(directory) is in use by paywall-sim, pid \(pid)"), "\(second.screen)")
        try first.quit()
        let third = try session(["--state", directory, "--latency", "none"])
        third.waitFor("Weekend market report")
        try third.quit()
    }

    /// Polls until `pid` is gone or a zombie; false if it still runs after ten seconds.
    private static func waitUntilEnded(_ pid: pid_t) -> Bool {
        for _ in 0..<200 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            if let state = stat.split(separator: ")").last?.split(separator: " ").first, state == "Z" { return true }
            usleep(50_000)
        }
        return false
    }
}
