import Foundation
import Testing

/// A terminal a killed program left raw, where no interactive shell repairs it (a tmux command, a script, an IDE
/// task): quitting restored the raw mode found, -icanon -echo and no newline translation (h3 09).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
struct TerminalFoundRawTests {
    /// `run` started by a shell that first sets the terminal to `mode`, as a killed program leaves it.
    private static func session(after mode: String) throws -> TmuxSession {
        try TmuxSession(
            ["-c", "stty \(mode); exec \(TestSupport.binaryPath) run --ephemeral --latency none"],
            binary: "/bin/sh")
    }

    @Test(arguments: [("q", 0), ("C-c", 130), ("TERM", 143)])
    func aRawModeFoundIsLeftCookedOnEveryWayOut(way: String, code: Int) throws {
        let tmux = try Self.session(after: "-icanon -echo -opost")
        tmux.waitFor("Weekend market report")
        if way == "TERM" { try tmux.signalProgram(way) } else { try tmux.send(way) }
        tmux.waitFor("EXIT=\(code)")
        // The line after EXIT starts at the first column: newlines are translated again (onlcr).
        tmux.waitFor("EXIT=\(code)\nicanon echo")
    }

    @Test func aCookedModeFoundIsGivenBackAsItWas() throws {
        let tmux = try Self.session(after: "-echo")
        tmux.waitFor("Weekend market report")
        try tmux.quit()
        tmux.waitFor("icanon -echo")
    }
}
