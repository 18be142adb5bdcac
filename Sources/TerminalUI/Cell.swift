import WhiteLabel

/// Text attributes of a cell, independent of ncurses so frames can be compared and read in tests.
public struct CellStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = CellStyle(rawValue: 1 << 0)
    public static let dim = CellStyle(rawValue: 1 << 1)
    public static let reverse = CellStyle(rawValue: 1 << 2)
    public static let underline = CellStyle(rawValue: 1 << 3)
}

/// One character cell of a frame: what it shows and in which theme role.
public struct Cell: Equatable, Hashable, Sendable {
    /// One character, or "" when this cell is the right half of a wide character to its left.
    public var text: String
    public var role: Theme.Role
    public var style: CellStyle

    public init(_ text: String = " ", role: Theme.Role = .text, style: CellStyle = []) {
        self.text = text
        self.role = role
        self.style = style
    }

    public static let blank = Cell()

    /// The right half of a wide character: takes a column, prints nothing.
    public var isContinuation: Bool { text.isEmpty }
}
