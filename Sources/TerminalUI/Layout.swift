/// Where the panes go for a terminal size: the phone on the left, the timeline on the right (with the
/// control pane under it when there is room), the key bar at the bottom; or a message when the terminal
/// is too small for them. A guided walk or a live replay adds the checklist pane to the right column:
/// on top from 30 rows, else in the timeline's place while the timeline and the controls are not focused.
public enum Layout: Equatable, Sendable {
    case panes(Panes)
    case tooSmall(TerminalSize)

    /// The rectangles of the panes.
    public struct Panes: Equatable, Sendable {
        public var phone: Rect
        public var timeline: Rect
        /// nil when the terminal is too short for both: the controls then cover the timeline while focused.
        public var controls: Rect?
        public var keyBar: Rect
        /// The checklist's own place; nil when there is no checklist or no room for it beside the timeline.
        public var checklist: Rect?
        public var hasChecklist = false

        /// Where the control pane is drawn with this focus, if anywhere.
        public func controlsRect(focus: Focus) -> Rect? {
            controls ?? (focus == .controls ? timeline : nil)
        }

        /// Where the checklist pane is drawn with this focus, if anywhere: on a short terminal it covers
        /// the timeline unless the timeline or the controls have the focus.
        public func checklistRect(focus: Focus) -> Rect? {
            guard hasChecklist else { return nil }
            return checklist ?? (focus == .timeline || focus == .controls ? nil : timeline)
        }
    }

    /// The phone frame's width including its border: a phone-like 42 columns inside.
    public static let phoneWidth = 44
    /// From this many rows the control pane gets its own place under the timeline.
    public static let rowsForControlPane = 30
    /// The timeline's share of the right column's height, in percent, when the controls sit under it.
    public static let timelineShare = 60
    /// The checklist's share of the right column's height, in percent, when it has its own place.
    public static let checklistShare = 40

    public init(size: TerminalSize, checklist: Bool = false) {
        guard size.fitsMinimum else {
            self = .tooSmall(size)
            return
        }
        let paneHeight = size.rows - 1
        let rightWidth = size.columns - Self.phoneWidth
        var timeline = Rect(x: Self.phoneWidth, y: 0, width: rightWidth, height: paneHeight)
        var controls: Rect?
        var checklistRect: Rect?
        if size.rows >= Self.rowsForControlPane {
            if checklist {
                let height = paneHeight * Self.checklistShare / 100
                checklistRect = Rect(x: Self.phoneWidth, y: 0, width: rightWidth, height: height)
                timeline = Rect(x: Self.phoneWidth, y: height, width: rightWidth, height: paneHeight - height)
            }
            let column = timeline
            timeline.height = column.height * Self.timelineShare / 100
            controls = Rect(
                x: Self.phoneWidth, y: timeline.maxY, width: rightWidth, height: column.maxY - timeline.maxY)
        }
        self = .panes(
            Panes(
                phone: Rect(x: 0, y: 0, width: Self.phoneWidth, height: paneHeight),
                timeline: timeline, controls: controls,
                keyBar: Rect(x: 0, y: paneHeight, width: size.columns, height: 1), checklist: checklistRect,
                hasChecklist: checklist))
    }

    /// The message shown instead of the panes.
    public static func tooSmallMessage(_ size: TerminalSize) -> String {
        "Terminal too small: \(size). PaywallSim needs at least \(TerminalSize.minimum). Keys are ignored until it grows; q quits."
    }
}
