import AppFlow
import WhiteLabel

/// Draws the bottom line: the keys that work now, then the keys that always work.
enum KeyBar {
    static let alwaysKeys = [KeyHint("Tab", "focus"), KeyHint("?", "keys"), KeyHint("q", "quit")]
    static let timelineKeys = [
        KeyHint("↑↓", "scroll"), KeyHint("f", "filter"), KeyHint("PgUp/PgDn", "page"), KeyHint("c", "controls"),
        KeyHint("End", "latest"), KeyHint("Esc", "phone"),
    ]
    static let controlKeys = [KeyHint("↑↓", "move"), KeyHint("Enter", "use"), KeyHint("Esc", "phone")]
    static let walkListKeys = [KeyHint("↑↓", "move"), KeyHint("Enter", "walk"), KeyHint("Esc", "phone")]
    static let walkKeys = [
        KeyHint("n", "next step"), KeyHint("s", "save report"), KeyHint("l", "list"), KeyHint("Esc", "phone"),
    ]
    /// Space's word follows the replay: it resumes a paused one and does nothing once it ended.
    static func liveKeys(paused: Bool, finished: Bool) -> [KeyHint] {
        finished ? [] : [KeyHint("Space", paused ? "resume" : "pause")]
    }

    /// What the front runs besides the phone: nothing, a guided walk (with its list on screen or not),
    /// or a live replay (paused or not, ended or not).
    enum Mode: Equatable {
        case explore
        case walk(showsList: Bool)
        case live(paused: Bool, finished: Bool)
    }

    /// The hints shown for a focus: the phone screen's own keys (minus the ones the bar adds anyway),
    /// the timeline's or the controls'. `typing`: a text field on the phone takes the letters (c, w, ?, q are typed,
    /// `KeyMap`), so the bar offers only what still works there.
    static func hints(screenKeys: [KeyHint], focus: Focus, mode: Mode = .explore, typing: Bool = false) -> [KeyHint] {
        let always = Set(alwaysKeys.map(\.key))
        if typing && focus == .phone {
            return screenKeys.filter { !always.contains($0.key) } + [alwaysKeys[0]]
        }
        var local: [KeyHint]
        switch (focus, mode) {
        case (_, .live(let paused, let finished)) where focus != .timeline:
            local = liveKeys(paused: paused, finished: finished)
        case (.phone, _): local = screenKeys.filter { !always.contains($0.key) } + [KeyHint("c", "controls")]
        case (.timeline, _): local = timelineKeys
        case (.controls, _): local = controlKeys
        case (.checklist, .walk(let showsList)): local = showsList ? walkListKeys : walkKeys
        case (.checklist, _): local = [KeyHint("Esc", "phone")]
        }
        if case .walk = mode, focus == .phone { local.insert(KeyHint("w", "walk"), at: 0) }
        return local + alwaysKeys
    }

    /// Drops the screen's own hints from the end until the bar fits; the always-keys stay.
    static func fitting(_ hints: [KeyHint], width: Int) -> [KeyHint] {
        var hints = hints
        while hints.count > alwaysKeys.count && barWidth(hints) > width {
            hints.remove(at: hints.count - alwaysKeys.count - 1)
        }
        return hints
    }

    static func barWidth(_ hints: [KeyHint]) -> Int {
        1 + hints.reduce(0) { $0 + ColumnWidth.of($1.key) + 1 + ColumnWidth.of($1.action) } + 3 * (hints.count - 1)
    }

    static let recordingMark = "● REC"

    /// With `recording`, the bar starts with "● REC".
    static func draw(into frame: inout Frame, rect: Rect, hints: [KeyHint], recording: Bool = false) {
        frame.fill(rect)
        var x = rect.x + 1
        if recording {
            x = frame.write(recordingMark, x: x, y: rect.y, role: .accent, style: .bold, limit: rect.maxX) + 2
        }
        let hints = fitting(hints, width: rect.maxX - x + 1)
        for (index, hint) in hints.enumerated() {
            if index > 0 { x = frame.write(" · ", x: x, y: rect.y, role: .muted, limit: rect.maxX) }
            x = frame.write(hint.key, x: x, y: rect.y, role: .accent, style: .bold, limit: rect.maxX)
            x = frame.write(" " + hint.action, x: x, y: rect.y, role: .muted, limit: rect.maxX)
        }
    }
}
