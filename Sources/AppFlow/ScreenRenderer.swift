import WhiteLabel

/// Lays a `ScreenModel` out as the lines of a phone screen `width` columns wide.
/// The terminal paints these lines in color; `plainText` prints them for tests and `screens`.
public enum ScreenRenderer {
    static let spinnerFrames = ["|", "/", "-", "\\"]

    /// The screen's lines: title bar, rows (wrapped), then the spinner or the alert.
    /// `spinnerPhase` turns the spinner; pass 0 for stable snapshots.
    public static func lines(_ screen: ScreenModel, width: Int, spinnerPhase: Int = 0) -> [StyledLine] {
        let width = max(width, 12)
        var lines: [StyledLine] = [
            StyledLine([StyledSpan(center(screen.title, width), .accent, emphasized: true)]),
            StyledLine([StyledSpan(String(repeating: "─", count: width), .border)]),
        ]
        // Under an alert nothing of the screen is highlighted: the alert's OK is, as it alone takes Enter.
        let selection = screen.alert == nil ? screen.selection : nil
        for (index, row) in screen.rows.enumerated() {
            lines += rowLines(row, width: width, highlighted: index == selection)
        }
        if let waiting = screen.waiting {
            let frame = spinnerFrames[abs(spinnerPhase) % spinnerFrames.count]
            lines.append(StyledLine([]))
            for text in wrap("\(frame) \(waiting)…", width: width) {
                lines.append(StyledLine([StyledSpan(text, .accent)]))
            }
        }
        if let alert = screen.alert {
            lines += alertLines(alert, width: width)
        }
        return lines
    }

    /// The screen as plain text, headed by its identifier: what `paywall-sim screens` prints.
    public static func plainText(_ screen: ScreenModel, width: Int = 40) -> String {
        var text = ["[\(screen.visibleID.rawValue)]"]
        text += lines(screen, width: width).map { line in
            let content = line.text
            // No trailing spaces, not even on a blank line: editors strip them from snapshot files.
            return ((line.highlighted ? "> " : "  ") + content).trimmingTrailingSpaces()
        }
        if !screen.keys.isEmpty {
            text.append("  " + screen.keys.map { "\($0.key) \($0.action)" }.joined(separator: " · "))
        }
        return text.joined(separator: "\n")
    }

    private static func rowLines(_ row: Row, width: Int, highlighted: Bool) -> [StyledLine] {
        switch row.kind {
        case .spacer:
            return [StyledLine([])]
        case .heading:
            return wrap(row.text, width: width).map { StyledLine([StyledSpan($0, .accent, emphasized: true)]) }
        case .text:
            return wrap(row.text, width: width).map { StyledLine([StyledSpan($0, .text)]) }
        case .muted:
            return wrap(row.text, width: width).map { StyledLine([StyledSpan($0, .muted)]) }
        case .ad:
            return wrap("AD · " + row.text, width: width).map { StyledLine([StyledSpan($0, .muted)]) }
        case .banner:
            return wrap("! " + row.text, width: width).map { StyledLine([StyledSpan($0, .error, emphasized: true)]) }
        case .field(let masked):
            let shown = masked ? String(repeating: "•", count: row.value.count) : row.value
            let cursor = highlighted ? "_" : ""
            let room = max(0, width - row.text.count - 2)
            let visible = String((shown + cursor).suffix(room))
            return [
                StyledLine(
                    [StyledSpan(row.text + ": ", .muted), StyledSpan(visible, .text, emphasized: true)],
                    highlighted: highlighted)
            ]
        case .button:
            return [StyledLine([StyledSpan("[ \(row.text) ]", .highlight, emphasized: true)], highlighted: highlighted)]
        case .choice:
            let badgeWidth = row.badge.map { DisplayWidth.of($0.text) + 1 } ?? 0
            var wrapped = wrap(row.text, width: width - badgeWidth)
            if wrapped.isEmpty { wrapped = [""] }
            return wrapped.enumerated().map { index, text in
                var spans = [StyledSpan(text, .text)]
                if index == 0, let badge = row.badge {
                    let gap = max(1, width - DisplayWidth.of(text) - DisplayWidth.of(badge.text))
                    spans.append(StyledSpan(String(repeating: " ", count: gap), .text))
                    spans.append(StyledSpan(badge.text, badge.role))
                }
                return StyledLine(spans, highlighted: highlighted)
            }
        }
    }

    private static func alertLines(_ alert: Alert, width: Int) -> [StyledLine] {
        let inner = width - 4
        var lines = [StyledLine([StyledSpan("┌" + String(repeating: "─", count: width - 2) + "┐", .error)])]
        for text in [alert.title] + wrap(alert.message, width: inner) {
            let padded = text + String(repeating: " ", count: max(0, inner - DisplayWidth.of(text)))
            lines.append(
                StyledLine([
                    StyledSpan("│ ", .error),
                    StyledSpan(padded, text == alert.title ? .error : .text, emphasized: text == alert.title),
                    StyledSpan(" │", .error),
                ]))
        }
        // OK, the button Enter presses, highlighted as a screen's button is (only the button, not the box's sides).
        let button = "[ OK ]"
        lines.append(
            StyledLine(
                [
                    StyledSpan("│ ", .error), StyledSpan(button, .highlight, emphasized: true),
                    StyledSpan(String(repeating: " ", count: max(0, inner - DisplayWidth.of(button))) + " │", .error),
                ], highlighted: true, highlightedSpan: 1))
        lines.append(StyledLine([StyledSpan("└" + String(repeating: "─", count: width - 2) + "┘", .error)]))
        return lines
    }

    /// Greedy word wrap by terminal columns (a wide character takes two); words longer than the width are cut. A tab
    /// parts words as a space does: the terminal draws no control character, and "Line two\tTabbed" read "Line
    /// twoTabbed" (session 28).
    /// A word wider than a line is cut, never before a closing mark, and a mark set apart ("Bon retour !") goes
    /// down with the word before it.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                var word = String(word)
                while DisplayWidth.of(word) > width {
                    if !current.isEmpty {
                        lines.append(current)
                        current = ""
                    }
                    let (head, rest) = DisplayWidth.wrapSplit(word, at: width)
                    lines.append(head)
                    word = rest
                }
                if current.isEmpty {
                    current = word
                } else if DisplayWidth.of(current) + 1 + DisplayWidth.of(word) <= width {
                    current += " " + word
                } else if DisplayWidth.closesLine(word), let space = current.lastIndex(of: " "),
                    DisplayWidth.of(current[current.index(after: space)...]) + 1 + DisplayWidth.of(word) <= width
                {
                    lines.append(String(current[..<space]))
                    current = current[current.index(after: space)...] + " " + word
                } else {
                    lines.append(current)
                    current = word
                }
            }
            lines.append(current)
        }
        return lines
    }

    static func center(_ text: String, _ width: Int) -> String {
        let text = DisplayWidth.split(text, at: width).head
        let used = DisplayWidth.of(text)
        let left = max(0, (width - used) / 2)
        return String(repeating: " ", count: left) + text + String(repeating: " ", count: max(0, width - left - used))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
