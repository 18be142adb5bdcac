import SimKernel
import WhiteLabel

/// Renders `compare --live` into a frame: a phone per world, each titled with its world; the first
/// world's timeline with the first line where the worlds' timelines differ marked; the controls, which
/// act on every world (a row the worlds differ in reads "per world"); the key bar. A pure function of content, state and size, as `FrontView` is.
public enum CompareView {
    public static func render(_ content: CompareContent, state: FrontState, theme: Theme, size: TerminalSize) -> Frame {
        var frame = Frame(size: size)
        switch CompareLayout(size: size) {
        case .tooSmall(let size):
            FrontView.drawTooSmall(into: &frame, size: size)
        case .panes(let panes):
            for (index, rect) in panes.phones.enumerated() where index < content.worlds.count {
                guard !panes.covers(phone: index, focus: state.focus) else { continue }
                var phone = content.worlds[index]
                phone.appName = content.labels[index]
                PhonePane.draw(into: &frame, rect: rect, content: phone, theme: theme, focused: state.focus == .phone)
            }
            if let rect = panes.timelineRect(focus: state.focus) {
                let (entries, marked) = timeline(content, filter: state.timelineFilter)
                TimelinePane.draw(
                    into: &frame, rect: rect, entries: entries, filter: state.timelineFilter,
                    scrollBack: state.timelineScrollBack, theme: theme, focused: state.focus == .timeline,
                    marked: marked, title: "Timeline · \(content.labels.first ?? "") · \(state.timelineFilter.name)")
            }
            if let rect = panes.controlsRect(focus: state.focus), !content.worlds.isEmpty {
                ControlPane.draw(
                    into: &frame, rect: rect, controls: ComparedControls.controls(content.worlds.map(\.controls)),
                    selection: state.controlSelection, theme: theme, focused: state.focus == .controls,
                    title: "Controls · both worlds")
            }
            let keys = content.worlds.first?.screen.keys ?? []
            let typing = content.worlds.first?.screen.isTypingLetters ?? false
            KeyBar.draw(
                into: &frame, rect: panes.keyBar,
                hints: KeyBar.hints(screenKeys: keys, focus: state.focus, typing: typing))
            if state.showsHelp {
                let alert = content.worlds.first?.screen.alert != nil
                HelpOverlay.draw(into: &frame, screenKeys: keys, alert: alert, ignored: ignoredKeys, theme: theme)
            }
        }
        return frame
    }

    /// The keys `CompareLoop` does nothing with, which its help leaves out: it records no scenario, has no
    /// transaction inspector, walks no checklist and plays no scenario (its help listed "r start / stop recording" and
    /// "t transactions", and both keys did nothing, session 41).
    static let ignoredKeys: Set<String> = ["r", "t", "w", "Space p"]

    /// The first world's entries through the filter, and where among them the mark goes: above the first
    /// entry shown at or after the first difference.
    static func timeline(_ content: CompareContent, filter: TimelineFilter) -> ([TimelineEntry], Int?) {
        let all = content.worlds.first?.timeline ?? []
        let kept = all.indices.filter { !filter.apply(to: [all[$0]]).isEmpty }
        let marked = content.firstDifference.flatMap { first in kept.firstIndex { $0 >= first } }
        return (kept.map { all[$0] }, marked)
    }

    /// Lines a timeline page scrolls, and how far back it can scroll, at this size and focus.
    public static func timelineScrollMetrics(
        _ content: CompareContent, filter: TimelineFilter, size: TerminalSize, focus: Focus
    ) -> (page: Int, limit: Int) {
        guard case .panes(let panes) = CompareLayout(size: size), let rect = panes.timelineRect(focus: focus) else {
            return (1, 0)
        }
        let inner = rect.inner
        let (entries, marked) = timeline(content, filter: filter)
        let total = TimelinePane.lineCount(entries: entries, width: inner.width) + (marked == nil ? 0 : 1)
        return (max(1, inner.height - 1), max(0, total - inner.height))
    }
}
