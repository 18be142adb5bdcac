/// Where the panes go for a terminal size: the phone on the left, the timeline on the right,
/// the key bar at the bottom; or a message when the terminal is too small for them.
public enum Layout: Equatable, Sendable {
    case panes(Panes)
    case tooSmall(TerminalSize)

    /// The rectangles of the three panes.
    public struct Panes: Equatable, Sendable {
        public var phone: Rect
        public var timeline: Rect
        public var keyBar: Rect
    }

    /// The phone frame's width including its border: a phone-like 42 columns inside.
    public static let phoneWidth = 44

    public init(size: TerminalSize) {
        guard size.columns >= TerminalSize.minimum.columns, size.rows >= TerminalSize.minimum.rows else {
            self = .tooSmall(size)
            return
        }
        let paneHeight = size.rows - 1
        self = .panes(
            Panes(
                phone: Rect(x: 0, y: 0, width: Self.phoneWidth, height: paneHeight),
                timeline: Rect(x: Self.phoneWidth, y: 0, width: size.columns - Self.phoneWidth, height: paneHeight),
                keyBar: Rect(x: 0, y: paneHeight, width: size.columns, height: 1)))
    }

    /// The message shown instead of the panes.
    public static func tooSmallMessage(_ size: TerminalSize) -> String {
        "Terminal too small: \(size). PaywallSim needs at least \(TerminalSize.minimum)."
    }
}
