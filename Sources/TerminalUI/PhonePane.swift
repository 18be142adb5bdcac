import AppFlow
import SimKernel
import WhiteLabel

/// Draws the phone: a themed frame, a status bar with the logo and the virtual clock, and the screen.
enum PhonePane {
    /// The screen's title and rule stay on top while the rows below scroll.
    static let pinnedLines = 2

    static func draw(
        into frame: inout Frame, rect: Rect, content: FrontContent, theme: Theme, focused: Bool
    ) {
        let glyphs = BorderGlyphs(theme.border)
        frame.fill(rect)
        frame.drawBox(
            rect, glyphs: glyphs, role: .border,
            title: content.phoneName.map { "\(content.appName) · \($0)" } ?? content.appName,
            titleRole: focused ? .accent : .border)
        let inner = rect.inner
        guard inner.height >= 2, inner.width >= 12 else { return }

        drawStatusBar(into: &frame, inner: inner, logo: theme.logo, now: content.now)

        let lines = ScreenRenderer.lines(content.screen, width: inner.width, spinnerPhase: content.spinnerPhase)
        let pinned = Array(lines.prefix(pinnedLines))
        let body = Array(lines.dropFirst(pinnedLines))
        let bodyHeight = max(0, inner.height - 1 - pinned.count)
        let offset = scrollOffset(body: body, height: bodyHeight, screen: content.screen)

        var y = inner.y + 1
        for line in pinned + body[offset..<min(body.count, offset + bodyHeight)] {
            draw(line, into: &frame, x: inner.x, y: y, width: inner.width)
            y += 1
        }
        // Arrows on the border say there is more to scroll to.
        if offset > 0 {
            frame.write("▲", x: rect.maxX - 1, y: inner.y + 1 + pinned.count, role: .accent)
        }
        if offset + bodyHeight < body.count {
            frame.write("▼", x: rect.maxX - 1, y: inner.maxY - 1, role: .accent)
        }
    }

    private static func drawStatusBar(into frame: inout Frame, inner: Rect, logo: String, now: SimInstant) {
        let clock = String(timeOfDay(now).prefix(5))
        frame.write(clock, x: inner.maxX - ColumnWidth.of(clock), y: inner.y, role: .muted)
        let logoLimit = inner.maxX - ColumnWidth.of(clock) - 1
        frame.write(
            ColumnWidth.truncate(logo, to: logoLimit - inner.x), x: inner.x, y: inner.y, role: .accent, style: .bold,
            limit: logoLimit)
    }

    static func draw(_ line: StyledLine, into frame: inout Frame, x: Int, y: Int, width: Int) {
        var column = x
        for (index, span) in line.spans.enumerated() {
            let start = column
            column = frame.write(
                span.text, x: column, y: y, role: span.role, style: span.emphasized ? .bold : [], limit: x + width)
            if line.highlighted, line.highlightedSpan == index {
                frame.addStyle(.reverse, y: y, from: start, width: column - start)
            }
        }
        if line.highlighted && line.highlightedSpan == nil {
            frame.addStyle(.reverse, y: y, from: x, width: width)
        }
    }

    /// Stateless scrolling: an alert or a spinner shows the end; otherwise the highlighted row stays in view.
    static func scrollOffset(body: [StyledLine], height: Int, screen: ScreenModel) -> Int {
        let maxOffset = max(0, body.count - height)
        guard maxOffset > 0 else { return 0 }
        if screen.alert != nil || screen.waiting != nil { return maxOffset }
        guard let last = body.lastIndex(where: \.highlighted) else { return 0 }
        let first = body.firstIndex(where: \.highlighted) ?? last
        // Keep the whole highlighted row in view, its first line when it is taller than the pane.
        let offset = max(0, last - height + 1)
        return min(maxOffset, min(offset, first))
    }
}

/// `09:00:01.250`: the time-of-day part of a virtual instant.
func timeOfDay(_ instant: SimInstant) -> String {
    String(instant.description.split(separator: " ").last ?? "")
}
