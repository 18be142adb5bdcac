import WhiteLabel

/// Renders the whole terminal front into a frame (Elm's view): a pure function of content, state and size.
public enum FrontView {
    public static func render(_ content: FrontContent, state: FrontState, theme: Theme, size: TerminalSize) -> Frame {
        var frame = Frame(size: size)
        switch Layout(size: size, checklist: state.hasChecklist) {
        case .tooSmall(let size):
            drawTooSmall(into: &frame, size: size)
        case .panes(let panes):
            PhonePane.draw(
                into: &frame, rect: panes.phone, content: content, theme: theme, focused: state.focus == .phone)
            TimelinePane.draw(
                into: &frame, rect: panes.timeline, entries: state.timelineFilter.apply(to: content.timeline),
                filter: state.timelineFilter, scrollBack: state.timelineScrollBack, theme: theme,
                focused: state.focus == .timeline)
            if let rect = panes.checklistRect(focus: state.focus) {
                let width = rect.inner.width
                let checklist =
                    state.live.map { LiveReplayPane.content($0, width: width) }
                    ?? state.walk.map { WalkPane.content($0, width: width) }
                if let checklist {
                    ChecklistPane.draw(
                        into: &frame, rect: rect, content: checklist, theme: theme, focused: state.focus == .checklist)
                }
            }
            if let rect = panes.controlsRect(focus: state.focus) {
                ControlPane.draw(
                    into: &frame, rect: rect, controls: ControlBoard.controls(content.controls),
                    selection: state.controlSelection, theme: theme, focused: state.focus == .controls)
            }
            KeyBar.draw(
                into: &frame, rect: panes.keyBar,
                hints: state.inspector.map { InspectorPane.keys(content.transactions ?? [], selection: $0.selection) }
                    ?? KeyBar.hints(
                        screenKeys: content.screen.keys, focus: state.focus, mode: keyBarMode(state),
                        typing: content.screen.isTypingLetters),
                recording: state.isRecording)
            if let inspector = state.inspector, let rows = content.transactions {
                InspectorPane.draw(into: &frame, rows: rows, selection: inspector.selection, theme: theme)
            }
            if state.showsHelp {
                HelpOverlay.draw(
                    into: &frame, screenKeys: content.screen.keys, alert: content.screen.alert != nil, theme: theme)
            }
        }
        return frame
    }

    /// Lines a timeline page scrolls, and how far back it can scroll, at this size and with this filter.
    public static func timelineScrollMetrics(
        _ content: FrontContent, filter: TimelineFilter = .all, size: TerminalSize, checklist: Bool = false
    ) -> (page: Int, limit: Int) {
        guard case .panes(let panes) = Layout(size: size, checklist: checklist) else { return (1, 0) }
        let inner = panes.timeline.inner
        let total = TimelinePane.lineCount(entries: filter.apply(to: content.timeline), width: inner.width)
        return (max(1, inner.height - 1), max(0, total - inner.height))
    }

    private static func keyBarMode(_ state: FrontState) -> KeyBar.Mode {
        if let live = state.live { return .live(paused: live.isPaused, finished: live.isFinished) }
        return state.walk.map { .walk(showsList: $0.showsList) } ?? .explore
    }

    static func drawTooSmall(into frame: inout Frame, size: TerminalSize) {
        let message = Layout.tooSmallMessage(size)
        let width = max(1, size.columns - 2)
        // Too narrow for one line: one sentence a line reads better than a break mid-sentence.
        let sentences = ColumnWidth.of(message) <= width ? [message] : message.sentences
        let lines = sentences.flatMap { WordWrap.lines($0, width: width) }
        let top = max(0, (size.rows - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            let x = max(0, (size.columns - ColumnWidth.of(line)) / 2)
            frame.write(line, x: x, y: top + index, role: .error, style: .bold)
        }
    }
}

extension String {
    /// Split after each ". ", keeping the periods.
    var sentences: [String] {
        var result: [String] = []
        var current = ""
        for character in self {
            if character == " " && current.hasSuffix(".") {
                result.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
