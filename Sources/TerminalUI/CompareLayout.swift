/// Where the panes of `compare --live` go: two phones side by side on the left, the timeline and the
/// controls in the column to their right when there is room (the controls under the timeline from 30
/// rows), the key bar at the bottom. On a terminal too narrow for that column (80 columns), the phones
/// share the width, and the timeline or the controls take the second phone's place while focused.
public enum CompareLayout: Equatable, Sendable {
    case panes(Panes)
    case tooSmall(TerminalSize)

    public struct Panes: Equatable, Sendable {
        public var phones: [Rect]
        /// nil when only focus shows it, over the second phone.
        public var timeline: Rect?
        public var controls: Rect?
        public var keyBar: Rect

        /// Where the timeline is drawn with this focus, if anywhere.
        public func timelineRect(focus: Focus) -> Rect? {
            timeline ?? (focus == .timeline ? phones.last : nil)
        }

        /// Where the controls are drawn with this focus, if anywhere: their place, else over the timeline
        /// (or the second phone) while they have the focus.
        public func controlsRect(focus: Focus) -> Rect? {
            controls ?? (focus == .controls ? (timeline ?? phones.last) : nil)
        }

        /// Whether the phone at `index` is covered by the timeline or the controls with this focus.
        public func covers(phone index: Int, focus: Focus) -> Bool {
            index == phones.count - 1 && timeline == nil && (focus == .timeline || focus == .controls)
        }
    }

    /// The narrowest right column worth drawing a timeline in: its text beside the time, not under it.
    public static let minimumColumn = 40
    /// The narrowest phone beside another and that column.
    public static let minimumPhoneWidth = 36

    public init(size: TerminalSize) {
        guard size.columns >= TerminalSize.minimum.columns, size.rows >= TerminalSize.minimum.rows else {
            self = .tooSmall(size)
            return
        }
        let height = size.rows - 1
        // Phones a little narrower than the front's leave the timeline room to line its text up.
        let besideColumn = min(Layout.phoneWidth, (size.columns - Self.minimumColumn) / 2)
        let wide = besideColumn >= Self.minimumPhoneWidth
        let phoneWidth = wide ? besideColumn : size.columns / 2
        let phones = [
            Rect(x: 0, y: 0, width: phoneWidth, height: height),
            Rect(x: phoneWidth, y: 0, width: wide ? phoneWidth : size.columns - phoneWidth, height: height),
        ]
        var timeline: Rect?
        var controls: Rect?
        if wide {
            let column = Rect(x: 2 * phoneWidth, y: 0, width: size.columns - 2 * phoneWidth, height: height)
            timeline = column
            if size.rows >= Layout.rowsForControlPane {
                timeline?.height = column.height * Layout.timelineShare / 100
                controls = Rect(
                    x: column.x, y: column.height * Layout.timelineShare / 100, width: column.width,
                    height: column.height - column.height * Layout.timelineShare / 100)
            }
        }
        self = .panes(
            Panes(
                phones: phones, timeline: timeline, controls: controls,
                keyBar: Rect(x: 0, y: height, width: size.columns, height: 1)))
    }
}
