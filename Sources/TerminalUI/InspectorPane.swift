import AppFlow
import Simulation
import WhiteLabel

/// Draws the transaction inspector over the panes: the Apple ID's held payments and transactions, one
/// row each, the selected one highlighted and said in full under the table. Its keys are on the key bar.
enum InspectorPane {
    static let title = "Transactions"

    static func draw(into frame: inout Frame, rows: [TransactionRow], selection: Int, theme: Theme) {
        // The whole screen but the key bar.
        let box = Rect(x: 0, y: 0, width: frame.size.columns, height: frame.size.rows - 1)
        frame.fill(box)
        frame.drawBox(box, glyphs: BorderGlyphs(theme.border), role: .accent, title: title)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        let table = InspectorTable(rows: rows, width: inner.width - 2)
        frame.write("  " + table.header, x: inner.x, y: inner.y, role: .muted, style: .bold, limit: inner.maxX)
        guard rows.indices.contains(selection) else {
            frame.write("No transactions yet.", x: inner.x, y: inner.y + 2, role: .text, limit: inner.maxX)
            return
        }
        // The selected row in full at the bottom; at most a third of the pane, so rows stay in view.
        let detail = InspectorTable.detail(rows[selection], width: inner.width).prefix(max(1, inner.height / 3))
        for (offset, text) in detail.enumerated() {
            let y = inner.maxY - detail.count + offset
            frame.write(text, x: inner.x, y: y, role: .text, limit: inner.maxX)
        }
        // Rows scroll so the selected one stays in view above a blank line and the detail.
        let visible = max(1, inner.height - 2 - detail.count)
        let first = max(0, selection - visible + 1)
        for (offset, row) in rows.dropFirst(first).prefix(visible).enumerated() {
            let selected = first + offset == selection
            frame.write(
                (selected ? "> " : "  ") + table.line(row), x: inner.x, y: inner.y + 1 + offset,
                role: selected ? .highlight : .text, style: selected ? .reverse : [], limit: inner.maxX)
        }
    }

    /// A control's words on the key bar: Expire ends the subscription now, as Xcode's does (session 28; it went to the
    /// period's end, said "expire at end", session 27).
    static func hint(for control: TransactionControl) -> String {
        control == .expire ? "expire now" : control.rawValue
    }

    /// The key bar's hints: moves, the controls the selected row takes (none without a row), and the ways out.
    static func keys(_ rows: [TransactionRow], selection: Int) -> [KeyHint] {
        let controls = rows.indices.contains(selection) ? rows[selection].controls : []
        return [KeyHint("↑↓", "move")]
            + controls.map { KeyHint(String(InspectorKey.key(of: $0)), hint(for: $0)) }
            + [KeyHint("t/Esc", "close"), KeyHint("?", "keys"), KeyHint("q", "quit")]
    }
}
