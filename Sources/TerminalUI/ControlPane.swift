import WhiteLabel

/// Draws the control pane: one control a line, its group's name beside the group's first control,
/// its state on the right; the selected control reversed while the pane has the focus.
enum ControlPane {
    static let title = "Controls"
    /// The widest group name ("Backend", "Network") and a space.
    static let groupColumn = (ControlGroup.allCases.map { ColumnWidth.of($0.rawValue) }.max() ?? 0) + 1
    /// On a wide pane a value at the far right is read against the wrong row; rows stop at this width.
    static let maxRowWidth = 44

    /// `title` replaces the pane's own (`compare --live`: the controls act on both worlds).
    static func draw(
        into frame: inout Frame, rect: Rect, controls: [Control], selection: Int, theme: Theme, focused: Bool,
        title: String? = nil
    ) {
        frame.fill(rect)
        frame.drawBox(
            rect, glyphs: BorderGlyphs(theme.border), role: .border, title: title ?? self.title,
            titleRole: focused ? .accent : .border)
        let inner = rect.inner
        guard inner.height > 0, inner.width > groupColumn else { return }
        let offset = scrollOffset(selection: selection, count: controls.count, height: inner.height)
        for index in offset..<min(controls.count, offset + inner.height) {
            let y = inner.y + index - offset
            let control = controls[index]
            // The group's name stays beside the first line on screen, so a scrolled list still says whose it is.
            if index == offset || controls[index - 1].group != control.group {
                frame.write(control.group.rawValue, x: inner.x, y: y, role: .control, style: .bold)
            }
            let value = control.value ?? ""
            let rowEnd = inner.x + min(inner.width, maxRowWidth)
            let valueX = rowEnd - ColumnWidth.of(value)
            let labelX = inner.x + groupColumn
            let label = ColumnWidth.truncate(control.label, to: max(1, valueX - 1 - labelX))
            frame.write(label, x: labelX, y: y, role: .text, limit: valueX)
            frame.write(value, x: valueX, y: y, role: .accent, style: .bold)
            if focused && index == selection {
                frame.addStyle(.reverse, y: y, from: labelX - 1, width: rowEnd - labelX + 1)
            }
        }
        if offset > 0 {
            frame.write("▲", x: rect.maxX - 2, y: rect.y, role: .accent)
        }
        if offset + inner.height < controls.count {
            frame.write("▼", x: rect.maxX - 2, y: rect.maxY - 1, role: .accent)
        }
    }

    /// Stateless scrolling that keeps the selection in the middle where it can, so the controls
    /// around it stay in view whichever way the selection moves.
    static func scrollOffset(selection: Int, count: Int, height: Int) -> Int {
        let maxOffset = max(0, count - height)
        return min(maxOffset, max(0, selection - height / 2))
    }
}
