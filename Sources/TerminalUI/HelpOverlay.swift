import AppFlow
import WhiteLabel

/// Draws the `?` help over the panes: every key, then the keys of the phone's current screen.
/// Long explanations wrap under their key; on a short terminal the screen's own keys (which the key bar
/// shows anyway) give way first, so every general key and the way out stay readable at 80×24.
enum HelpOverlay {
    static let title = "Keys"
    static let closing = "? or Esc closes this help"

    /// `alert`: an alert is up and takes the keys, so the phone's keys are the alert's, said as its own. `ignored`: the
    /// general keys this front does nothing with, left out.
    static func draw(
        into frame: inout Frame, screenKeys: [KeyHint], alert: Bool = false, ignored: Set<String> = [], theme: Theme
    ) {
        let general = KeyMap.help.filter { !ignored.contains($0.key) }.map { ($0.key, $0.action) }
        let heading = alert ? "On this alert:" : "On this screen:"
        let screen = screenKeys.isEmpty ? [] : [(heading, "")] + screenKeys.map { ($0.key, $0.action) }
        let keyColumn = ((general + screen).filter { !$0.1.isEmpty }.map { ColumnWidth.of($0.0) }.max() ?? 0) + 2
        let widest = (general + screen + [("", closing)]).map { keyColumn + ColumnWidth.of($0.1) }.max() ?? 0
        let width = min(frame.size.columns - 2, widest + 4)
        let innerWidth = max(1, width - 4)
        let available = max(1, frame.size.rows - 4)
        let lines = layout(
            general: general, screen: screen, keyColumn: keyColumn, textWidth: innerWidth - keyColumn,
            height: available)
        let height = min(frame.size.rows - 2, lines.count + 2)
        let box = Rect(
            x: (frame.size.columns - width) / 2, y: (frame.size.rows - height) / 2, width: width, height: height)
        frame.fill(box)
        frame.drawBox(box, glyphs: BorderGlyphs(theme.border), role: .accent, title: title)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        for (row, line) in lines.prefix(inner.height).enumerated() {
            let y = inner.y + row
            frame.write(line.key, x: inner.x, y: y, role: .accent, style: .bold, limit: inner.maxX)
            frame.write(line.text, x: inner.x + keyColumn, y: y, role: .text, limit: inner.maxX)
        }
    }

    /// The overlay's rows, at most `height`: general keys, a blank, the screen's keys, a blank, the way out.
    /// What gives way when rows are short: blanks, then the screen's keys, then the general keys' tail.
    static func layout(
        general: [(String, String)], screen: [(String, String)], keyColumn: Int, textWidth: Int, height: Int
    ) -> [(key: String, text: String)] {
        func wrapped(_ entries: [(String, String)]) -> [(key: String, text: String)] {
            entries.flatMap { entry -> [(key: String, text: String)] in
                // A section heading is wider than the key column: it stands on its own row.
                guard !entry.1.isEmpty, textWidth > 8 else { return [(entry.0, entry.1)] }
                return WordWrap.lines(entry.1, width: textWidth).enumerated().map { ($0 == 0 ? entry.0 : "", $1) }
            }
        }
        let keys = wrapped(general), own = wrapped(screen), end = [(key: "", text: closing)]
        let blank = [(key: "", text: "")]
        let candidates = [
            keys + (own.isEmpty ? [] : blank + own) + blank + end,
            keys + own + end,
            keys + end,
        ]
        if let fits = candidates.first(where: { $0.count <= height }) { return fits }
        return Array(keys.prefix(max(0, height - 1))) + end
    }
}
