import Simulation
import WhiteLabel

/// Draws the transaction inspector over the panes: the Apple ID's held payments and transactions, one
/// row each, the selected one highlighted, and the keys of the controls it offers.
enum InspectorPane {
    static let title = "Transactions"

    static func draw(into frame: inout Frame, rows: [TransactionRow], selection: Int, theme: Theme) {
        // The whole screen but the key bar: a table this wide needs every column.
        let box = Rect(x: 0, y: 0, width: frame.size.columns, height: frame.size.rows - 1)
        frame.fill(box)
        frame.drawBox(box, glyphs: BorderGlyphs(theme.border), role: .accent, title: title)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        frame.write(header, x: inner.x, y: inner.y, role: .muted, style: .bold, limit: inner.maxX)
        if rows.isEmpty {
            frame.write("No transactions yet.", x: inner.x, y: inner.y + 2, role: .text, limit: inner.maxX)
        }
        // Rows scroll so the selected one stays in view above the hint line.
        let visible = max(1, inner.height - 3)
        let first = max(0, selection - visible + 1)
        for (offset, row) in rows.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            let selected = index == selection
            frame.write(
                (selected ? "> " : "  ") + line(row), x: inner.x, y: inner.y + 1 + offset,
                role: selected ? .highlight : .text, style: selected ? .reverse : [], limit: inner.maxX)
        }
        let selected = rows.indices.contains(selection) ? rows[selection] : nil
        frame.write(hint(selected), x: inner.x, y: inner.maxY - 1, role: .muted, limit: inner.maxX)
    }

    static let header =
        "  "
        + [
            pad("ID", 18), pad("PRODUCT", 31), pad("STATE", 17), pad("EXPIRES", 11), pad("RENEW", 6), pad("OWNER", 22),
            "DEVICE",
        ].joined()

    static func line(_ row: TransactionRow) -> String {
        let renew = row.autoRenew.map { $0 ? "on" : "off" } ?? "—"
        return [
            pad(row.id, 18), pad(row.product, 31), pad(row.state, 17), pad(row.expires?.dateDescription ?? "—", 11),
            pad(renew, 6), pad(row.owner, 22), row.device,
        ].joined()
    }

    static func hint(_ row: TransactionRow?) -> String {
        let controls = (row?.controls ?? []).map { "\(InspectorKey.key(of: $0)) \($0.rawValue)" }
        return (["↑↓ move"] + controls + ["t/Esc close"]).joined(separator: " · ")
    }

    /// `text` cut or padded to `width` columns, and a space after it.
    private static func pad(_ text: String, _ width: Int) -> String {
        let cut = text.count > width - 1 ? String(text.prefix(width - 2)) + "…" : text
        return cut + String(repeating: " ", count: max(1, width - cut.count))
    }
}
