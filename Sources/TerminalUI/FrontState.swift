import AppFlow

/// What the loop must do after a key, outside the front's own state.
public enum FrontCommand: Equatable, Sendable {
    case send(ReaderInput)
    case quit
}

/// The terminal front's own state (the phone's state lives in the world): focus, help, timeline scroll.
public struct FrontState: Equatable, Sendable {
    public var focus: Focus = .phone
    public var showsHelp = false
    /// Lines scrolled back from the newest timeline entry; 0 follows new entries as they come.
    public var timelineScrollBack = 0

    public init() {}

    /// Applies a key's action (Elm's update). `timelinePage` is how many lines a page scrolls,
    /// `timelineLimit` how far back the timeline can scroll.
    public mutating func apply(_ action: KeyAction, timelinePage: Int = 10, timelineLimit: Int = .max)
        -> FrontCommand?
    {
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
        case .reader(let input): return focus == .phone ? .send(input) : nil
        case .scrollTimeline(let scroll): scrollTimeline(scroll, page: max(1, timelinePage), limit: timelineLimit)
        case .focusNext: focus = focus.next
        case .focusPhone: focus = .phone
        case .help: showsHelp = true
        case .quit: return .quit
        case .resize: break
        }
        return nil
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
