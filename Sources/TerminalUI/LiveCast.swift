import FoundationEssentials
import Simulation
import WhiteLabel

/// `play --live FILE --cast OUT.cast`: the live replay written as an asciicast v2 recording instead of
/// shown. The pace is virtual: step N's frame is at N × pace seconds whatever the machine's speed, so the
/// same scenario gives the same file, byte for byte.
public enum LiveCast {
    public static let size = TerminalSize(columns: 120, rows: 36)

    /// Plays every step (the world comes launched from `replay.prepare()`) and returns the recording.
    public static func record(_ replay: LiveReplay, world: World, theme: Theme, size: TerminalSize = size) -> String {
        var state = FrontState()
        state.live = replay.initialState
        var wall: Int64 = 0
        var lines = [header(title: replay.scenario.name, size: size)]
        var shown: Frame?
        func capture() {
            let frame = FrontView.render(FrontContent(world: world), state: state, theme: theme, size: size)
            guard frame != shown else { return }
            shown = frame
            lines.append(event(seconds: Double(wall) / 1e9, data: ansi(frame)))
        }
        capture()
        while var live = state.live {
            let wait = replay.tick(atWall: wall, state: &live)
            state.live = live
            capture()
            guard let wait else { break }
            wall += Int64(wait) * 1_000_000
        }
        if let live = state.live { replay.ended(live) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first line: asciicast v2's header, with no timestamp so the file does not depend on the day.
    static func header(title: String, size: TerminalSize) -> String {
        "{\"version\": 2, \"width\": \(size.columns), \"height\": \(size.rows), \"title\": \(json(title)), "
            + "\"env\": {\"TERM\": \"xterm-256color\"}}"
    }

    static func event(seconds: Double, data: String) -> String {
        "[\(String(printf: "%.6f", seconds)), \"o\", \(json(data))]"
    }

    /// The whole screen redrawn from the top left, with bold, dim, reverse and underline as SGR codes.
    static func ansi(_ frame: Frame) -> String {
        var out = "\u{1B}[H\u{1B}[2J"
        for y in 0..<frame.size.rows {
            var style: CellStyle = []
            for x in 0..<frame.size.columns {
                let cell = frame[x: x, y: y]
                if cell.style != style {
                    out += sgr(cell.style)
                    style = cell.style
                }
                out += cell.text
            }
            if !style.isEmpty { out += "\u{1B}[0m" }
            if y < frame.size.rows - 1 { out += "\r\n" }
        }
        return out
    }

    private static func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        if style.contains(.bold) { codes.append("1") }
        if style.contains(.dim) { codes.append("2") }
        if style.contains(.underline) { codes.append("4") }
        if style.contains(.reverse) { codes.append("7") }
        return "\u{1B}[\(codes.joined(separator: ";"))m"
    }

    private static func json(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
