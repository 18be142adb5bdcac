import AppFlow
import SimKernel
import WhiteLabel

/// Draws the timeline: newest entries at the bottom, `HH:MM:SS.mmm source text`, colored by source.
enum TimelinePane {
    static let title = "Timeline"
    /// The line above the first entry where two worlds' timelines differ.
    static let differenceMark = "≠ the worlds differ from here"

    /// The title names the filter, so a pane showing one source never passes for the whole story.
    static func title(_ filter: TimelineFilter) -> String { "\(title) · \(filter.name)" }
    /// `09:00:00.000 backend ` is 21 columns; wrapped text lines up after it.
    static let textColumn = 21
    /// A longer entry is cut with `…`, so one chatty message cannot fill the pane: past 4 lines of a pane as wide
    /// as a 120-column terminal's (53 columns of text), or as many narrower lines as hold as much. A fixed 4 lines
    /// cut the store's everyday lines in an 80-column terminal, where text goes under the time (session 27).
    static let maxColumnsPerEntry = 4 * 53

    /// The lines an entry may take when its text lines are `textWidth` columns wide, after `leading` lines of its own.
    static func maxLines(textWidth: Int, leading: Int) -> Int {
        max(4, leading + (maxColumnsPerEntry + max(1, textWidth) - 1) / max(1, textWidth))
    }

    /// `marked`: the index of the entry a line "≠ the worlds differ from here" goes above (`compare --live`);
    /// `title` replaces the pane's own.
    static func draw(
        into frame: inout Frame, rect: Rect, entries: [TimelineEntry], filter: TimelineFilter = .all, scrollBack: Int,
        theme: Theme, focused: Bool, marked: Int? = nil, title: String? = nil
    ) {
        frame.fill(rect)
        frame.drawBox(
            rect, glyphs: BorderGlyphs(theme.border), role: .border, title: title ?? self.title(filter),
            titleRole: focused ? .accent : .border)
        let inner = rect.inner
        guard inner.height > 0, inner.width > 0 else { return }
        let (visible, hiddenAbove, hiddenBelow) = window(
            entries: entries, width: inner.width, height: inner.height, scrollBack: scrollBack, marked: marked)
        var y = inner.maxY - visible.count
        for line in visible {
            PhonePane.draw(line, into: &frame, x: inner.x, y: y, width: inner.width)
            y += 1
        }
        if entries.isEmpty {
            let note = filter == .all ? "Nothing yet." : "Nothing from \(filter.name) yet. f: next filter."
            frame.write(note, x: inner.x, y: inner.y, role: .muted, limit: inner.maxX)
        }
        if hiddenAbove {
            frame.write("▲", x: rect.maxX - 2, y: rect.y, role: .accent)
        }
        if hiddenBelow > 0 {
            let note = " ▼ \(hiddenBelow) newer "
            frame.write(note, x: rect.maxX - 2 - ColumnWidth.of(note), y: rect.maxY - 1, role: .accent)
        }
    }

    /// The lines in view, whether older lines are hidden above, and how many newer lines are hidden below.
    /// Wraps only the entries it needs, newest first, so a long timeline costs no more than a short one.
    static func window(entries: [TimelineEntry], width: Int, height: Int, scrollBack: Int, marked: Int? = nil)
        -> (lines: [StyledLine], hiddenAbove: Bool, hiddenBelow: Int)
    {
        var reversed: [StyledLine] = []
        var index = entries.count - 1
        let needed = height + max(0, scrollBack)
        while index >= 0 && reversed.count < needed + 1 {
            reversed += lines(for: entries, at: index, width: width, marked: marked).reversed()
            index -= 1
        }
        let skip = min(max(0, scrollBack), max(0, reversed.count - height))
        let shown = Array(reversed.dropFirst(skip).prefix(height).reversed())
        return (shown, index >= 0 || reversed.count > skip + height, skip)
    }

    /// How many lines the whole timeline takes: the scroll limit is this minus the pane's height.
    static func lineCount(entries: [TimelineEntry], width: Int) -> Int {
        entries.indices.reduce(0) { $0 + lines(for: entries, at: $1, width: width).count }
    }

    /// The lines of one entry, after a date line when the day changed (time travel makes days pass).
    static func lines(for entries: [TimelineEntry], at index: Int, width: Int, marked: Int? = nil) -> [StyledLine] {
        let entry = entries[index]
        var result: [StyledLine] = []
        if index == 0 || day(of: entries[index - 1].time) != day(of: entry.time) {
            result.append(StyledLine([StyledSpan("── \(entry.time.dateDescription) ──", .muted)]))
        }
        if index == marked {
            result.append(
                StyledLine([StyledSpan(ColumnWidth.truncate(differenceMark, to: width), .error, emphasized: true)]))
        }
        return result + WrappedEntries.shared.lines(entry, width: width) { body(of: entry, width: width) }
    }

    /// The day an instant falls on, as `dateDescription` names it: two entries share a date line when equal.
    private static func day(of instant: SimInstant) -> Int64 {
        Int64((Double(instant.milliseconds) / 86_400_000).rounded(.down))
    }

    /// An entry's own lines: its time and source, then its text wrapped after them, at most `maxLines`.
    static func body(of entry: TimelineEntry, width: Int) -> [StyledLine] {
        let role = Theme.Role(rawValue: entry.source.rawValue) ?? .text
        let time = StyledSpan(timeOfDay(entry.time) + " ", .muted)
        let source = StyledSpan(entry.source.rawValue.padding(toColumns: 7) + " ", role, emphasized: true)
        let textWidth = width - textColumn
        var body: [StyledLine]
        let most: Int
        // Under 24 columns after the time, text lined up there reads a dozen characters a line and cut product ids at
        // 80 columns (session 24): it goes under the time, the pane's whole width.
        if textWidth >= 24 {
            let wrapped = WordWrap.lines(entry.text, width: textWidth)
            let indent = String(repeating: " ", count: textColumn)
            most = maxLines(textWidth: textWidth, leading: 0)
            body = wrapped.enumerated().map { offset, text in
                offset == 0
                    ? StyledLine([time, source, StyledSpan(text, role)])
                    : StyledLine([StyledSpan(indent + text, role)])
            }
        } else {
            // Too narrow to line text up after the time: put it under, indented.
            body = [StyledLine([time, source])]
            most = maxLines(textWidth: width - 2, leading: 1)
            body += WordWrap.lines(entry.text, width: max(1, width - 2)).map {
                StyledLine([StyledSpan("  " + $0, role)])
            }
        }
        if body.count > most {
            body = Array(body.prefix(most))
            var last = body[most - 1]
            let cut = last.spans.count - 1
            let available = width - ColumnWidth.of(last.text) + ColumnWidth.of(last.spans[cut].text)
            last.spans[cut].text = ColumnWidth.truncate(last.spans[cut].text + "…", to: available)
            body[most - 1] = last
        }
        return body
    }
}

extension String {
    func padding(toColumns columns: Int) -> String {
        let width = ColumnWidth.of(self)
        return width >= columns ? self : self + String(repeating: " ", count: columns - width)
    }
}
