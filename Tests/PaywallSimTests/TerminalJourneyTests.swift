import Foundation
import Testing

/// A real terminal: tmux runs the built binary, `send-keys` types, `capture-pane` reads the screen.
/// Each session has its own tmux server socket so tests never see each other's panes.
final class TmuxSession {
    let socket = "paywall-sim-test-\(UUID().uuidString.prefix(8))"

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    }

    /// `directory`: the program's working directory (where anything it writes by default lands).
    /// `binary`: the program to run; `environment`: `env` arguments (`-u TERM` unsets one).
    init(
        _ arguments: [String], width: Int = 120, height: Int = 36, directory: String? = nil,
        binary: String = TestSupport.binaryPath, environment: String = "LANG=C.UTF-8 TERM=xterm-256color"
    ) throws {
        let command = ([binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // After the program, the shell says how it ended and whether the terminal is cooked again.
        try start(
            // A carriage return first: a killed program leaves the terminal raw (a newline does not return to the
            // first column), and the shell's "Killed …" line, as long as the command, would wrap EXIT where it fell.
            "env \(environment) SWIFT_BACKTRACE=enable=no \(command); printf '\\r\\nEXIT=%s\\n' $?; "
                + Self.terminalModes + "; cat",
            width: width, height: height, directory: directory)
    }

    /// An interactive shell with job control, for what only a shell does (Ctrl-Z and `fg`).
    init(shellWidth width: Int = 120, height: Int = 36) throws {
        try start(
            "env -i PATH=/usr/bin:/bin HOME=\(NSTemporaryDirectory()) LANG=C.UTF-8 TERM=xterm-256color bash --norc -i",
            width: width, height: height, directory: nil)
    }

    /// The terminal's echo and icanon modes, as one line ("icanon echo" when cooked again).
    static let terminalModes =
        "stty -a | tr ' ' '\\n' | grep -x -e echo -e -echo -e icanon -e -icanon | tr '\\n' ' '; echo"

    private func start(_ command: String, width: Int, height: Int, directory: String?) throws {
        // The server this starts must not inherit a pipe we read to its end.
        try tmux(
            capturing: false,
            [
                "new-session", "-d", "-s", "sim", "-x", "\(width)", "-y", "\(height)",
                "-c", directory ?? FileManager.default.currentDirectoryPath, command,
            ])
    }

    /// Ends the tmux server, as closing the terminal window does: the program's terminal hangs up.
    func closeTerminal() throws {
        try tmux(capturing: false, ["kill-server"])
    }

    /// The pid of the program the pane's shell runs, nil when it runs none.
    var programPid: pid_t? {
        guard
            let shell = try? tmux(["display-message", "-p", "-t", "sim", "#{pane_pid}"]).trimmingCharacters(
                in: .whitespacesAndNewlines)
        else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    deinit {
        _ = try? tmux(capturing: false, ["kill-server"])
    }

    func send(_ keys: String...) throws {
        for key in keys { try tmux(capturing: false, ["send-keys", "-t", "sim", key]) }
    }

    /// Sends `signal` to the program the pane's shell runs.
    func signalProgram(_ signal: String) throws {
        let shell = try tmux(["display-message", "-p", "-t", "sim", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        process.arguments = ["-\(signal)", "-P", shell]
        try process.run()
        process.waitUntilExit()
    }

    /// Types text as it is, letter by letter (a `q` is a letter here, not a key binding).
    func type(_ text: String) throws {
        try tmux(capturing: false, ["send-keys", "-t", "sim", "-l", text])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(capturing: false, ["resize-window", "-t", "sim", "-x", "\(width)", "-y", "\(height)"])
    }

    var screen: String {
        (try? tmux(["capture-pane", "-t", "sim", "-p"])) ?? ""
    }

    /// Waits until the screen shows `text`, polling the pane; fails the test after `attempts` looks.
    @discardableResult
    func waitFor(_ text: String, attempts: Int = 200, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        for _ in 0..<attempts {
            if screen.contains(text) { return true }
            usleep(50_000)
        }
        Issue.record("the terminal never showed \"\(text)\". Screen:\n\(screen)", sourceLocation: sourceLocation)
        return false
    }

    /// Runs tmux with posix_spawn and waitpid: tmux's server daemonizes, and Foundation's `Process`
    /// can miss the exit of the client that started it. Output goes through a file, never a pipe the
    /// server could inherit.
    /// Waits until the screen no longer shows `text` (an alert went away), polling the pane.
    func waitUntilGone(_ text: String, attempts: Int = 200, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<attempts {
            if !screen.contains(text) { return }
            usleep(50_000)
        }
        Issue.record("the terminal kept showing \"\(text)\"", sourceLocation: sourceLocation)
    }

    @discardableResult
    private func tmux(capturing: Bool = true, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "\(socket)-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, capturing ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        // The test runner's threads block and ignore signals; the terminal program needs them as a shell gives them.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard capturing else { return "" }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}

/// The reader's usual way through daily-news, as key presses that wait for what each one brings.
extension TmuxSession {
    /// From the feed to the paywall: the locked article `articleDowns` rows below the highlight (the first locked
    /// one from the top of the feed), then its Subscribe.
    func openPaywall(articleDowns: Int = 1) throws {
        for _ in 0..<articleDowns { try send("Down") }
        try send("Enter")
        waitFor("Subscribe to read the full article.")
        try send("Enter")
        waitFor("Premium Monthly: $4.99 per month")
    }

    /// On to Apple's sheet: the offer `offerDowns` rows below the first (the yearly plan is first, the monthly one
    /// second).
    func openSheet(offerDowns: Int, articleDowns: Int = 1) throws {
        try openPaywall(articleDowns: articleDowns)
        for _ in 0..<offerDowns { try send("Down") }
        try send("Enter")
        waitFor("Apple ID: reader@icloud.test")
    }

    /// Buys that offer and waits for the unlocked article: the sheet opens on Cancel, Subscribe is above it.
    func buy(offerDowns: Int, articleDowns: Int = 1) throws {
        try openSheet(offerDowns: offerDowns, articleDowns: articleDowns)
        try send("Up", "Enter")
        waitFor("fourteen hours, three countries")
    }

    func quit() throws {
        try send("q")
        waitFor("EXIT=0")
    }
}

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
struct TerminalJourneyTests {
    @Test func aReaderSubscribesWithKeyPressesAndReadsTheUnlockedArticle() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast"])
        tmux.waitFor("Weekend market report")
        try tmux.buy(offerDowns: 0)
        let screen = tmux.screen
        #expect(screen.contains("POST /v1/receipts → 200"))
        #expect(!screen.contains("Subscribe to read the full article."))
        try tmux.quit()
    }

    @Test func cancellingOnApplesSheetReturnsToThePaywallWithoutAnError() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast"])
        tmux.waitFor("Weekend market report")
        try tmux.openSheet(offerDowns: 0)
        try tmux.send("Escape")
        tmux.waitFor("payment sheet: cancelled by the reader")
        let screen = tmux.screen
        #expect(screen.contains("Read without limits"))
        #expect(!screen.contains("Purchase failed"))
        #expect(!screen.contains("Something went wrong"))
        try tmux.quit()
    }

    /// Session 26: a second Enter on an offer, pressed as Apple's sheet came up ("Enter Enter" in one burst at no
    /// latency), confirmed the sheet and charged the reader; on "Manage my subscription" it turned auto-renew off. Keys
    /// typed before a sheet appears are dropped, and the sheet opens on what moves no money.
    @Test func aDoubleEnterOnAnOfferOrOnManageChangesNothing() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "none"])
        tmux.waitFor("Weekend market report")
        try tmux.openPaywall()
        try tmux.send("Down")
        try tmux.send("Enter", "Enter")
        // The timeline says the sheet came up. The second Enter was dropped as it was painted (the sheet stays up:
        // Esc cancels it) or, arriving after, pressed Cancel (it is gone): either way nothing is charged.
        tmux.waitFor("payment sheet shown")
        if tmux.screen.contains("Apple ID: reader@icloud.test") { try tmux.send("Escape") }
        tmux.waitFor("payment sheet: cancelled by the reader")
        #expect(!tmux.screen.contains("charged"))
        // Bought deliberately, then "Enter Enter" on Manage: the sheet comes up on Done, auto-renew stays on.
        try tmux.send("Escape", "Escape")
        tmux.waitFor("Independent news, every morning")
        // The feed's highlight is still on the article.
        try tmux.buy(offerDowns: 1, articleDowns: 0)
        try tmux.send("Escape")
        tmux.waitFor("Independent news, every morning")
        try tmux.send("Down", "Down", "Down", "Down", "Enter")
        tmux.waitFor("[ Manage my subscription ]")
        // One Enter opens the sheet, on Done; a stray second one, once it is up, closes it with nothing changed. (Sent
        // in one burst, the second is dropped or lands on Done depending on when the sheet is painted: both are safe,
        // but the screen after it is not one a test can wait for.)
        try tmux.send("Enter")
        tmux.waitFor("Plan: Premium Monthly")
        try tmux.send("Enter")
        tmux.waitUntilGone("Plan: Premium Monthly")
        tmux.waitFor("Premium Monthly: renews on")
        #expect(!tmux.screen.contains("auto-renew off"))
        try tmux.quit()
    }

    @Test func aParentApprovesFromTheControlPaneWhileTheReaderIsBackOnTheFeed() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast"])
        tmux.waitFor("Weekend market report")
        // Tab twice: the control pane, its first control is Ask to Buy.
        try tmux.send("Tab", "Tab")
        tmux.waitFor("↑↓ move · Enter use")
        try tmux.send("Enter")
        tmux.waitFor("control Ask to Buy on")
        try tmux.send("Escape")
        try tmux.openSheet(offerDowns: 0)
        try tmux.send("Up", "Enter")
        tmux.waitFor("Waiting for approval")
        try tmux.send("Enter")
        tmux.waitFor("Read without limits")
        try tmux.send("Escape")
        tmux.waitFor("Subscribe to read the full article.")
        try tmux.send("Escape")
        tmux.waitFor("Independent news, every morning")
        #expect(!tmux.screen.contains("[open]"))
        try tmux.send("c", "Down", "Enter")
        tmux.waitFor("control parent approves")
        tmux.waitFor("The return of the night trains      [open]")
        try tmux.quit()
    }

    @Test func aNewPhoneRestoresTheSubscriptionFromTheProfile() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast"], width: 130, height: 40)
        tmux.waitFor("Weekend market report")
        try tmux.buy(offerDowns: 1)
        // The control pane: G (the last row; tmux's End is not xterm's), then up past Finish and Latency.
        try tmux.send("c", "G", "Up", "Up", "Enter", "Escape")
        tmux.waitFor("new device iphone-2")
        tmux.waitFor("The return of the night trains    [locked]")
        try tmux.send("Down", "Down", "Down", "Down", "Enter")
        tmux.waitFor("Not signed in.")
        try tmux.send("Enter")
        tmux.waitFor("│ Restored")
        try tmux.send("Enter")
        tmux.waitUntilGone("│ Restored")
        try tmux.send("Escape")
        tmux.waitFor("The return of the night trains      [open]")
        try tmux.quit()
    }

    /// A folder reopens on the phone the last run left on screen: it opened on "iphone", so a guest's subscription
    /// bought on a phone made with "New device" was out of reach under keep-with-original-owner (session 26).
    @Test func aReopenedFolderComesBackOnThePhoneLastUsed() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["--state", directory, "--latency", "fast"]
        let first = try TmuxSession(arguments, width: 130, height: 40)
        first.waitFor("Weekend market report")
        try first.send("c", "G", "Up", "Up", "Enter", "Escape")
        first.waitFor("new device iphone-2")
        try first.buy(offerDowns: 1)
        try first.quit()
        try first.closeTerminal()
        let second = try TmuxSession(arguments, width: 130, height: 40)
        second.waitFor("the app reopens on iphone-2")
        second.waitFor("launch on iphone-2")
        second.waitFor("The return of the night trains      [open]")
        try second.quit()
    }

    @Test func signingUpAfterAnAnonymousPurchaseMovesTheSubscriptionToTheAccount() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast"], width: 130, height: 40)
        tmux.waitFor("Weekend market report")
        try tmux.buy(offerDowns: 1)
        try tmux.send("Escape", "Down", "Down", "Down", "Enter")
        tmux.waitFor("Subscribed on this phone")
        try tmux.send("Down", "Down", "Down", "Enter")
        tmux.waitFor("Email:")
        try tmux.type("quinn@example.com")
        try tmux.send("Enter")
        try tmux.type("correct horse")
        // Enter in the password sends the form (a second would send it again: see RELIABILITY, session 37).
        try tmux.send("Enter")
        tmux.waitFor("Move your subscription?")
        try tmux.send("Enter")
        tmux.waitFor("│ All set")
        try tmux.send("Enter")
        tmux.waitUntilGone("│ All set")
        tmux.waitFor("Signed in as quinn@example.com.")
        try tmux.send("Escape", "q")
        tmux.waitFor("EXIT=0")
    }

    @Test func aTinyTerminalShowsWhyAndTheAppComesBackWhenItGrows() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "none"])
        tmux.waitFor("Weekend market report")
        try tmux.resize(width: 50, height: 15)
        tmux.waitFor("Terminal too small")
        try tmux.resize(width: 100, height: 30)
        tmux.waitFor("Weekend market report")
        try tmux.quit()
    }

    @Test func aCrashStillRestoresTheTerminal() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "none"])
        tmux.waitFor("Weekend market report")
        try tmux.signalProgram("SEGV")
        tmux.waitFor("EXIT=139")
        tmux.waitFor("icanon echo")
        #expect(!tmux.screen.contains("Weekend market report"))
    }

    @Test func controlCEndsTheSessionAndRestoresTheTerminal() throws {
        let tmux = try TmuxSession(["--ephemeral", "--latency", "none"])
        tmux.waitFor("Weekend market report")
        try tmux.send("C-c")
        tmux.waitFor("EXIT=130")
        tmux.waitFor("icanon echo")
        #expect(!tmux.screen.contains("Weekend market report"))
    }
}
