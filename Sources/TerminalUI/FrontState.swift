import AppFlow
import Simulation

/// What the loop must do after a key, outside the front's own state.
public enum FrontCommand: Equatable, Sendable {
    case send(ReaderInput)
    /// Apply a control's action to the world.
    case control(WorldAction)
    case toggleRecording
    /// Do what the walk asks (build a scenario's world, run a step, save the report).
    case walk(WalkCommand)
    /// Pause or resume the live replay.
    case togglePause
    case quit
}

/// The terminal front's own state (the phone's state lives in the world): focus, help, timeline scroll
/// and filter, the selected control, and the guided walk's or the live replay's state when one runs.
public struct FrontState: Equatable, Sendable {
    public var focus: Focus = .phone
    public var showsHelp = false
    /// Lines scrolled back from the newest timeline entry; 0 follows new entries as they come.
    public var timelineScrollBack = 0
    public var timelineFilter = TimelineFilter.all
    /// Index into `ControlBoard.controls`; the list's length never changes, so the index stays on its row.
    public var controlSelection = 0
    /// A scenario is being recorded: the key bar says "● REC".
    public var isRecording = false
    /// `run --walk`: the checklist.
    public var walk: WalkState?
    /// `play --live`: the replay; the phone and the controls take no keys, the script acts.
    public var live: LiveReplayState?
    /// `t`: the transaction inspector, open over the panes.
    public var inspector: InspectorState?

    var hasChecklist: Bool { walk != nil || live != nil }

    public init() {}

    /// Applies a key's action (Elm's update). `timelinePage` is how many lines a page scrolls,
    /// `timelineLimit` how far back the timeline can scroll, `controls` the control pane's rows as shown now.
    /// `terminalFits` false: the screen only says the terminal is too small, so a key acts only to quit
    /// (a reader pressing keys at what they cannot see must not buy anything).
    public mutating func apply(
        _ action: KeyAction, timelinePage: Int = 10, timelineLimit: Int = .max, controls: [Control] = [],
        transactions: [TransactionRow] = [], terminalFits: Bool = true
    ) -> FrontCommand? {
        guard terminalFits || action == .quit else { return nil }
        if showsHelp {
            // The help covers the panes, so only the keys that close it or leave do something.
            switch action {
            case .help, .reader(.back), .focusPhone: showsHelp = false
            case .quit: return .quit
            default: break
            }
            return nil
        }
        switch action {
        case .reader(let input): return focus == .phone && live == nil ? .send(input) : nil
        case .scrollTimeline(let scroll): scrollTimeline(scroll, page: max(1, timelinePage), limit: timelineLimit)
        case .cycleTimelineFilter:
            timelineFilter = timelineFilter.next
            // The old position means nothing in another selection of entries.
            timelineScrollBack = 0
        case .moveControl(let move): moveControl(move, count: ControlBoard.count)
        case .activateControl:
            guard focus == .controls, live == nil, controls.indices.contains(controlSelection) else { return nil }
            return .control(controls[controlSelection].action)
        case .focusNext: focus = focus.next(checklist: hasChecklist)
        case .focusPhone: focus = .phone
        case .focusControls: focus = .controls
        case .focusChecklist: if hasChecklist { focus = .checklist }
        case .walk(let key):
            guard focus == .checklist else { return nil }
            return walk?.apply(key).map(FrontCommand.walk)
        case .togglePause: return live == nil ? nil : .togglePause
        case .help: showsHelp = true
        case .toggleRecording: return .toggleRecording
        case .toggleInspector: inspector = inspector == nil && live == nil ? InspectorState() : nil
        case .inspector(let key): return inspector?.apply(key, rows: transactions).map(FrontCommand.control)
        case .quit: return .quit
        case .resize: break
        }
        return nil
    }

    private mutating func moveControl(_ move: ControlMove, count: Int) {
        guard count > 0 else { return }
        switch move {
        case .up: controlSelection -= 1
        case .down: controlSelection += 1
        case .first: controlSelection = 0
        case .last: controlSelection = count - 1
        }
        controlSelection = min(max(0, controlSelection), count - 1)
    }

    private mutating func scrollTimeline(_ scroll: TimelineScroll, page: Int, limit: Int) {
        switch scroll {
        case .lineUp: timelineScrollBack += 1
        case .lineDown: timelineScrollBack -= 1
        case .pageUp: timelineScrollBack += page
        case .pageDown: timelineScrollBack -= page
        case .oldest: timelineScrollBack = limit
        case .latest: timelineScrollBack = 0
        }
        timelineScrollBack = min(max(0, timelineScrollBack), max(0, limit))
    }
}
