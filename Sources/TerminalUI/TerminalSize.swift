/// The terminal's size in character cells.
public struct TerminalSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// Below this the panes do not fit; the screen says so instead of drawing a broken frame.
    public static let minimum = TerminalSize(columns: 80, rows: 24)

    public var description: String { "\(columns)x\(rows)" }

    /// The panes fit; below the minimum the screen shows only why.
    public var fitsMinimum: Bool { columns >= Self.minimum.columns && rows >= Self.minimum.rows }
}

/// A rectangle of cells: `x`, `y` is the top-left corner.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle inside a one-cell border.
    public var inner: Rect { Rect(x: x + 1, y: y + 1, width: max(0, width - 2), height: max(0, height - 2)) }
}
