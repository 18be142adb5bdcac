import AppFlow
import CNcurses

/// A key as `get_wch` reports it: a function key code (`KEY_UP`, `KEY_RESIZE`, …) or a character.
public enum KeyPress: Equatable, Sendable {
    case function(Int32)
    case character(Character)
}

/// How the timeline pane scrolls.
public enum TimelineScroll: Equatable, Sendable {
    case lineUp, lineDown, pageUp, pageDown, oldest, latest
}

/// How the control pane's selection moves.
public enum ControlMove: Equatable, Sendable {
    case up, down, first, last
}

/// What a key means to the terminal front.
public enum KeyAction: Equatable, Sendable {
    /// Delivered to the phone's app.
    case reader(ReaderInput)
    case scrollTimeline(TimelineScroll)
    /// `f` on the timeline: the next source filter.
    case cycleTimelineFilter
    case moveControl(ControlMove)
    /// Enter on the control pane: do what the selected control says.
    case activateControl
    case focusNext
    case focusPhone
    /// `c`: straight to the control pane (at 80x24 it then covers the timeline).
    case focusControls
    case help
    /// A key in the walk's checklist pane.
    case walk(WalkKey)
    /// `w`: straight to the walk's checklist pane.
    case focusChecklist
    /// Space or `p` in a live replay: pause or resume.
    case togglePause
    /// `t`: open or close the transaction inspector.
    case toggleInspector
    /// A key in the open transaction inspector.
    case inspector(InspectorKey)
    /// `r`: start or stop recording a scenario.
    case toggleRecording
    case quit
    /// The terminal changed size; ncurses reports it as `KEY_RESIZE`.
    case resize
}

/// Maps keys to actions. Pure, so every binding is unit-tested without a terminal.
public enum KeyMap {
    static let escape: Character = "\u{1B}"
    static let tab: Character = "\t"
    static let backspaces: Set<Character> = ["\u{7F}", "\u{08}"]

    /// The action for `key`, or nil when the key does nothing here.
    /// With a text field focused on the phone, printable characters (also q, k, j, ?) are typed into it; a field of
    /// digits (`digitsOnly`, the parental gate's answer) takes digits, and every other key keeps its meaning.
    /// With the transaction inspector open (`inspecting`), it takes the keys (`InspectorKey`).
    public static func action(
        for key: KeyPress, focus: Focus, textFieldFocused: Bool = false, digitsOnly: Bool = false,
        inspecting: Bool = false
    ) -> KeyAction? {
        if inspecting { return InspectorKey.action(for: key) }
        switch key {
        case .function(let code): return functionAction(code, focus: focus)
        case .character(let character):
            let typed =
                textFieldFocused && focus == .phone && (!digitsOnly || character.isWholeNumber && character.isASCII)
            return characterAction(character, focus: focus, typing: typed)
        }
    }

    private static func functionAction(_ code: Int32, focus: Focus) -> KeyAction? {
        switch (code, focus) {
        case (KEY_RESIZE, _): return .resize
        case (KEY_BTAB, _): return .focusNext
        case (KEY_UP, .phone): return .reader(.up)
        case (KEY_DOWN, .phone): return .reader(.down)
        case (KEY_ENTER, .phone): return .reader(.select)
        case (KEY_BACKSPACE, .phone): return .reader(.deleteBackward)
        case (KEY_UP, .timeline): return .scrollTimeline(.lineUp)
        case (KEY_DOWN, .timeline): return .scrollTimeline(.lineDown)
        case (KEY_PPAGE, .timeline): return .scrollTimeline(.pageUp)
        case (KEY_NPAGE, .timeline): return .scrollTimeline(.pageDown)
        case (KEY_HOME, .timeline): return .scrollTimeline(.oldest)
        case (KEY_END, .timeline): return .scrollTimeline(.latest)
        case (KEY_UP, .controls): return .moveControl(.up)
        case (KEY_DOWN, .controls): return .moveControl(.down)
        case (KEY_HOME, .controls): return .moveControl(.first)
        case (KEY_END, .controls): return .moveControl(.last)
        case (KEY_ENTER, .controls): return .activateControl
        case (KEY_UP, .checklist): return .walk(.up)
        case (KEY_DOWN, .checklist): return .walk(.down)
        case (KEY_ENTER, .checklist): return .walk(.choose)
        default: return nil
        }
    }

    private static func characterAction(_ character: Character, focus: Focus, typing: Bool) -> KeyAction? {
        switch character {
        case tab: return .focusNext
        case "\n", "\r":
            switch focus {
            case .phone: return .reader(.select)
            case .controls: return .activateControl
            case .checklist: return .walk(.choose)
            case .timeline: return nil
            }
        case escape: return focus == .phone ? .reader(.back) : .focusPhone
        case _ where backspaces.contains(character): return focus == .phone ? .reader(.deleteBackward) : nil
        case _ where typing: return character.isPrintable ? .reader(.character(character)) : nil
        case "q": return .quit
        case "?": return .help
        case "r": return .toggleRecording
        case "t": return .toggleInspector
        case "c": return focus == .controls ? .focusPhone : .focusControls
        case "w": return focus == .checklist ? .focusPhone : .focusChecklist
        case " ", "p": return .togglePause
        // From any pane, as `c` is: the README lists it with the keys that always work.
        case "f": return .cycleTimelineFilter
        default: return movementAction(character, focus: focus)
        }
    }

    /// The vi-style letters, which move in whichever pane has the focus.
    private static func movementAction(_ character: Character, focus: Focus) -> KeyAction? {
        switch (character, focus) {
        case ("k", .phone): return .reader(.up)
        case ("j", .phone): return .reader(.down)
        case ("k", .timeline): return .scrollTimeline(.lineUp)
        case ("j", .timeline): return .scrollTimeline(.lineDown)
        case ("g", .timeline): return .scrollTimeline(.oldest)
        case ("G", .timeline): return .scrollTimeline(.latest)
        case ("k", .controls): return .moveControl(.up)
        case ("j", .controls): return .moveControl(.down)
        case ("g", .controls): return .moveControl(.first)
        case ("G", .controls): return .moveControl(.last)
        case ("k", .checklist): return .walk(.up)
        case ("j", .checklist): return .walk(.down)
        case ("n", .checklist): return .walk(.nextStep)
        case ("s", .checklist): return .walk(.saveReport)
        case ("l", .checklist): return .walk(.toggleList)
        default: return nil
        }
    }

    /// Every key, for the `?` help: the same table the mapping above implements.
    public static let help: [KeyHint] = [
        KeyHint("↑ ↓  k j", "move on the phone or the controls / scroll the timeline"),
        KeyHint("Enter", "select on the phone / use the control"),
        KeyHint("Esc", "go back (timeline, controls: back to the phone)"),
        KeyHint("Tab", "move focus: phone → timeline → controls"),
        KeyHint("c", "controls (on a small terminal they cover the timeline); Phone: each phone in turn"),
        KeyHint("PgUp PgDn", "scroll the timeline a page"),
        KeyHint("Home End g G", "oldest / latest timeline entry, first / last control"),
        KeyHint("f", "timeline filter, from any pane: all, app, store, backend, reader, control"),
        KeyHint("r", "start / stop recording a scenario (written to recording-N.scenario)"),
        KeyHint("w", "run --walk: the checklist; there ↑↓ Enter choose, n next step, s report, l list"),
        KeyHint("Space p", "play --live: pause / resume"),
        KeyHint("t", "transactions: refund R, revoke V, expire E, approve A, decline D, resolve I on a row"),
        KeyHint("?", "show or hide this help"),
        KeyHint("q", "quit and restore the terminal"),
    ]
}

extension Character {
    /// Not a control character: something a reader could type.
    var isPrintable: Bool {
        guard let scalar = unicodeScalars.first else { return false }
        return scalar.value >= 0x20 && scalar.value != 0x7F
    }
}
