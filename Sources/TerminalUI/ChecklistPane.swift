import Scenarios
import WhiteLabel

/// Draws a checklist pane: a header, a list of lines scrolled to keep one in view, a footer. The walk
/// (`WalkPane`) and live replay (`LiveReplayPane`) fill it with a scenario's steps.
enum ChecklistPane {
    /// One line: a mark (✓, ✗, ▶…) and text, each in its role.
    struct Line: Equatable {
        var mark: String
        var markRole: Theme.Role
        var text: String
        var role: Theme.Role
        var style: CellStyle = []

        init(_ mark: String, _ markRole: Theme.Role, _ text: String, _ role: Theme.Role, style: CellStyle = []) {
            self.mark = mark
            self.markRole = markRole
            self.text = text
            self.role = role
            self.style = style
        }
    }

    /// What the pane shows: `highlight` is reversed while the pane has the focus; `keepInView` is scrolled to.
    struct Content: Equatable {
        var title: String
        var header: [Line] = []
        var lines: [Line]
        var keepInView: Int?
        var highlight: Int?
        var footer: [Line] = []
    }

    static func draw(into frame: inout Frame, rect: Rect, content: Content, theme: Theme, focused: Bool) {
        frame.fill(rect)
        frame.drawBox(
            rect, glyphs: BorderGlyphs(theme.border), role: .border, title: content.title,
            titleRole: focused ? .accent : .border)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 3 else { return }
        var y = inner.y
        let listBottom = inner.maxY - content.footer.count
        for line in content.header where y < listBottom {
            write(line, into: &frame, x: inner.x, y: y, width: inner.width)
            y += 1
        }
        let height = max(0, listBottom - y)
        let offset = ControlPane.scrollOffset(
            selection: content.keepInView ?? 0, count: content.lines.count, height: height)
        for index in offset..<min(content.lines.count, offset + height) {
            write(content.lines[index], into: &frame, x: inner.x, y: y, width: inner.width)
            if focused && index == content.highlight {
                frame.addStyle(.reverse, y: y, from: inner.x, width: inner.width)
            }
            y += 1
        }
        if offset > 0 { frame.write("▲", x: rect.maxX - 2, y: rect.y, role: .accent) }
        if offset + height < content.lines.count { frame.write("▼", x: rect.maxX - 2, y: rect.maxY - 1, role: .accent) }
        for (row, line) in content.footer.enumerated() where listBottom + row >= inner.y {
            write(line, into: &frame, x: inner.x, y: listBottom + row, width: inner.width)
        }
    }

    private static func write(_ line: Line, into frame: inout Frame, x: Int, y: Int, width: Int) {
        let markEnd = line.mark.isEmpty ? x : frame.write(line.mark, x: x, y: y, role: line.markRole, style: .bold) + 1
        let text = ColumnWidth.truncate(line.text, to: max(1, x + width - markEnd))
        frame.write(text, x: markEnd, y: y, role: line.role, style: line.style, limit: x + width)
    }

    /// A scenario's steps as lines, a failure's "got …" under its step; `next` is marked ▶.
    /// Returns the lines and the line of each step.
    static func steps(_ walked: WalkedScenario, next: Int?) -> (lines: [Line], lineOfStep: [Int]) {
        var lines: [Line] = []
        var lineOfStep: [Int] = []
        for (index, (step, outcome)) in zip(walked.scenario.steps, walked.outcomes).enumerated() {
            lineOfStep.append(lines.count)
            if index == next {
                lines.append(Line("▶", .accent, step.text, .text, style: .bold))
                continue
            }
            switch outcome {
            case .pending: lines.append(Line("·", .muted, step.text, .text))
            case .done: lines.append(Line("✓", .muted, step.text, .muted))
            case .waiting: lines.append(Line("…", .accent, step.text, .text))
            case .holds, .passed: lines.append(Line("✓", .success, step.text, .success))
            case .notYet(let failure):
                lines.append(Line("?", .accent, step.text, .text))
                lines.append(Line("", .muted, "  now: \(failure.actual)", .muted))
            case .failed(let failure):
                lines.append(Line("✗", .error, step.text, .error, style: .bold))
                lines.append(Line("", .error, "  got: \(failure.actual)", .error))
            }
        }
        return (lines, lineOfStep)
    }

    /// `text` word-wrapped into at most `limit` lines of `width`, in `role`.
    static func wrapped(_ text: String, width: Int, limit: Int, role: Theme.Role, style: CellStyle = []) -> [Line] {
        WordWrap.lines(text, width: max(1, width)).prefix(limit).map { Line("", role, $0, role, style: style) }
    }
}
