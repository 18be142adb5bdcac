import Database
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes to the terminal per key press, and the peak memory of `run`, measured on this binary as a person
/// runs it: `run` on a fresh state folder in a pseudo-terminal of 130x40, the walk of
/// bench/terminal-bytes.sh (a monthly subscription bought and its full article read, then moves and focus
/// changes), each key's bytes what the app wrote until it fell quiet. Wall time decides "quiet": this is a
/// benchmark, not a test.
enum TerminalBenchmark {
    struct Key {
        let name: String
        let bytes: [UInt8]
        var isMove: Bool { name == "Down" || name == "Up" }
    }

    // ncurses turns on the keypad's application mode, in which a terminal sends ESC O for the arrows.
    static let down = Key(name: "Down", bytes: [0x1B, 0x4F, 0x42])
    static let up = Key(name: "Up", bytes: [0x1B, 0x4F, 0x41])
    static let enter = Key(name: "Enter", bytes: [0x0D])
    static let escape = Key(name: "Escape", bytes: [0x1B])
    static let tab = Key(name: "Tab", bytes: [0x09])
    /// The article, the paywall, Premium Monthly, Subscribe on Apple's sheet (up from Cancel, where it opens);
    /// back, a move, focus changes.
    static let walk = [down, enter, enter, down, enter, up, enter, escape, down, up, tab, tab, tab]

    /// Quiet this long after a key, the frame is whole (the app's Escape delay is 25 ms).
    static let quiet: Int32 = 300

    static func run(_ options: BenchCommand.BenchOptions) throws {
        let binary = try ownPath()
        // A fresh folder this run makes (inside --state when given): the only one it removes.
        let scratch = try StateFolder.scratch(
            in: options.state ?? FileManager.default.temporaryDirectory.path + "/", prefix: "terminal-bench")
        defer { scratch.remove() }
        let folder = scratch.path
        let environment =
            ProcessInfo.processInfo.environment.filter { !["TERM", "LANG", "LC_ALL"].contains($0.key) }
            .map { "\($0.key)=\($0.value)" } + ["TERM=xterm-256color", "LANG=C.UTF-8"]
        let child = try PseudoTerminalChild.spawn(
            binary, ["run", "--state", folder, "--latency", "none"], environment: environment, rows: 40, columns: 130)
        let first = child.readUntilQuiet(quiet: 1_000)
        let firstFrame = first.count
        let started = highWaterKilobytes(child.pid)
        // ncurses sets the scrolling region to the whole screen first: rows 1 to 40 if it saw the size asked.
        guard contains(first, Array("\u{1B}[1;40r".utf8)) else {
            child.end()
            throw UsageError(
                message: "terminal: `run` did not draw a screen of 40 rows (first frame \(firstFrame) B)")
        }
        var bytes: [(Key, Int)] = []
        for key in walk {
            child.type(key.bytes)
            bytes.append((key, child.readUntilQuiet(quiet: quiet).count))
        }
        // The child's own high-water mark: wait4's figure would include this process's pages, which a
        // spawned child counts as its own until its exec.
        let peak = highWaterKilobytes(child.pid)
        child.type(Array("q".utf8))
        guard let status = child.finish() else {
            child.end()
            throw UsageError(message: "terminal: `run` did not quit on q within 5 s; killed")
        }
        guard status == 0 else {
            throw UsageError(message: "terminal: `run` exited with status \(status) (first frame \(firstFrame) B)")
        }
        // Figures of a walk that went astray (the screens changed under its keys) would be of other frames.
        guard try purchases(in: folder) > 0 else {
            throw UsageError(message: "terminal: the walk bought nothing: its keys no longer reach Apple's sheet")
        }

        let total = bytes.reduce(0) { $0 + $1.1 }
        let average = total / walk.count
        let moves = bytes.filter { $0.0.isMove }.map(\.1)
        let moveRange = "\(moves.min() ?? 0)–\(moves.max() ?? 0) B"
        print(
            "terminal: `run` in a pseudo-terminal of 130x40, \(walk.count) key presses ("
                + bytes.map { "\($0.0.name) \($0.1)" }.joined(separator: ", ") + " B): "
                + "\(average) B a key on average, a move \(moveRange); the first frame \(firstFrame) B")
        print(
            "terminal: peak RSS of `run` \(megabytes(peak)) (\(peak) kB; the walk bought a subscription and read "
                + "its full article); at its first frame \(megabytes(started))")
        BenchTable.shared.add(
            "bytes to the terminal per key press (`bench terminal`)", "\(average) B average, a move \(moveRange)",
            floor: "the first frame, every cell: \(firstFrame) B", goal: "< 1 KB average, a move < 200 B")
        BenchTable.shared.add(
            "peak RSS of `run` (`bench terminal`: a purchase, its article)", megabytes(peak),
            floor: "`run` at its first frame \(megabytes(started))", goal: "< 30 MB")
    }

    private static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        bytes.count >= part.count
            && (0...bytes.count - part.count).contains { bytes[$0..<$0 + part.count].elementsEqual(part) }
    }

    /// This executable, to run it as a person would.
    private static func ownPath() throws(UsageError) -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw UsageError(message: "terminal: cannot find this program's own file") }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// How many purchases the walk left in the folder's ledger.
    private static func purchases(in folder: String) throws -> Int {
        let ledger = try Database(path: folder + "/backend.sqlite", readOnly: true)
        return Int(try ledger.query("SELECT COUNT(*) FROM purchases").first?.first?.int ?? 0)
    }

    /// VmHWM of a running process: the most memory it has had resident, in kilobytes (0 if unreadable).
    private static func highWaterKilobytes(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.dropFirst(6).filter(\.isNumber)) } ?? 0
    }

    private static func megabytes(_ kilobytes: Int) -> String {
        kilobytes > 0 ? String(printf: "%.1f MB", Double(kilobytes) / 1_000) : "unknown (no /proc/PID/status)"
    }
}
