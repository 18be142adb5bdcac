import Simulation

/// The inspector's columns, sized to the rows shown and to the width there is (session 26: at 80 columns, the
/// minimum, EXPIRES was cut to "2026-04-" and RENEW, OWNER and DEVICE were off the screen). ID, STATE, EXPIRES and
/// RENEW always fit; the product gives up its leading name parts ("…premium.monthly") before DEVICE, then OWNER,
/// are left to the selected row's detail lines, which say every field in full.
struct InspectorTable {
    enum Column: CaseIterable {
        case id, product, state, expires, renew, owner, device

        var title: String {
            switch self {
            case .id: "ID"
            case .product: "PRODUCT"
            case .state: "STATE"
            case .expires: "EXPIRES"
            case .renew: "RENEW"
            case .owner: "OWNER"
            case .device: "DEVICE"
            }
        }

        func text(_ row: TransactionRow) -> String {
            switch self {
            case .id: row.id
            case .product: row.product
            case .state: row.state
            case .expires: row.expires?.dateDescription ?? "—"
            case .renew: row.autoRenew.map { $0 ? "on" : "off" } ?? "—"
            case .owner: row.owner
            case .device: row.device
            }
        }
    }

    static let gap = 2
    /// The product column is never narrower than this while the owner or device columns are shown.
    static let productMinimum = 16

    /// Each shown column and its width, left to right.
    let columns: [(column: Column, width: Int)]

    init(rows: [TransactionRow], width: Int) {
        func widest(_ column: Column) -> Int {
            rows.map { ColumnWidth.of(column.text($0)) }.reduce(ColumnWidth.of(column.title), max)
        }
        var shown = Column.allCases
        func total(_ product: Int) -> Int {
            shown.reduce(0) { $0 + ($1 == .product ? product : widest($1)) } + Self.gap * (shown.count - 1)
        }
        let product = widest(.product)
        // Leave DEVICE, then OWNER, to the detail lines while even a shortened product would not fit beside them.
        while total(min(product, Self.productMinimum)) > width, [.device, .owner].contains(shown.last) {
            shown.removeLast()
        }
        // The product takes the room left, or less when its shortened names are narrower.
        let room = max(1, width - total(0))
        let shortened = rows.map { ColumnWidth.of(Self.short($0.product, room)) }.reduce(ColumnWidth.of("PRODUCT"), max)
        columns = shown.map { ($0, $0 == .product ? min(shortened, room) : widest($0)) }
    }

    var header: String { line { $0.title } }

    func line(_ row: TransactionRow) -> String { line { $0.text(row) } }

    private func line(_ text: (Column) -> String) -> String {
        columns.enumerated().map { index, entry in
            let cell = entry.column == .product ? Self.short(text(entry.column), entry.width) : text(entry.column)
            let fitted = ColumnWidth.truncate(cell, to: entry.width)
            let last = index == columns.count - 1
            let padding = entry.width - ColumnWidth.of(fitted) + Self.gap
            return last ? fitted : fitted + String(repeating: " ", count: padding)
        }.joined()
    }

    /// A product identifier in `width` columns: its leading parts dropped first, as its end tells plans apart.
    static func short(_ product: String, _ width: Int) -> String {
        guard ColumnWidth.of(product) > width else { return product }
        var parts = product.split(separator: ".", omittingEmptySubsequences: false)
        while parts.count > 1 && 1 + ColumnWidth.of(parts.joined(separator: ".")) > width { parts.removeFirst() }
        return "…" + parts.joined(separator: ".")
    }

    /// Every field of `row` in full, for the lines under the table: fields joined by " · ", a line broken only
    /// between two of them (a field wider than the line wraps on its own).
    static func detail(_ row: TransactionRow, width: Int) -> [String] {
        var fields = [row.id, row.product, row.state]
        if let expires = row.expires { fields.append("expires \(expires)") }
        if let renew = row.autoRenew { fields.append("auto-renew \(renew ? "on" : "off")") }
        fields += ["owner \(row.owner)", "\(row.isRequest ? "asked" : "bought") on \(row.device)"]
        var lines: [String] = []
        for field in fields {
            if let last = lines.last, ColumnWidth.of(last) + 3 + ColumnWidth.of(field) <= width {
                lines[lines.count - 1] = last + " · " + field
            } else {
                lines += WordWrap.lines(field, width: width)
            }
        }
        return lines
    }
}
