import AppFlow
import WhiteLabel

/// Draws the `?` help over the panes: every key, then the keys of the phone's current screen.
enum HelpOverlay {
    static let title = "Keys"

    static func draw(into frame: inout Frame, screenKeys: [KeyHint], theme: Theme) {
        var entries = KeyMap.help.map { ($0.key, $0.action) }
        if !screenKeys.isEmpty {
            entries.append(("", ""))
            entries.append(("On this screen:", ""))
            entries += screenKeys.map { ($0.key, $0.action) }
        }
        entries.append(("", ""))
        entries.append(("", "? or Esc closes this help"))

        let keyColumn = (entries.filter { !$0.1.isEmpty }.map { ColumnWidth.of($0.0) }.max() ?? 0) + 2
        let textWidth = entries.map { keyColumn + ColumnWidth.of($0.1) }.max() ?? 0
        let width = min(frame.size.columns - 2, textWidth + 4)
        let height = min(frame.size.rows - 2, entries.count + 2)
        let box = Rect(
            x: (frame.size.columns - width) / 2, y: (frame.size.rows - height) / 2, width: width, height: height)
        frame.fill(box)
        frame.drawBox(box, glyphs: BorderGlyphs(theme.border), role: .accent, title: title)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        for (row, entry) in entries.prefix(inner.height).enumerated() {
            let y = inner.y + row
            frame.write(entry.0, x: inner.x, y: y, role: .accent, style: .bold, limit: inner.maxX)
            frame.write(entry.1, x: inner.x + keyColumn, y: y, role: .text, limit: inner.maxX)
        }
    }
}
