import WhiteLabel

/// The line characters of a theme's border style; all are one column wide.
public struct BorderGlyphs: Equatable, Sendable {
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    public var horizontal: String
    public var vertical: String

    public init(_ style: Theme.BorderStyle) {
        let corners: [String]
        switch style {
        case .single: corners = ["┌", "┐", "└", "┘", "─", "│"]
        case .rounded: corners = ["╭", "╮", "╰", "╯", "─", "│"]
        case .double: corners = ["╔", "╗", "╚", "╝", "═", "║"]
        case .ascii: corners = ["+", "+", "+", "+", "-", "|"]
        }
        topLeft = corners[0]
        topRight = corners[1]
        bottomLeft = corners[2]
        bottomRight = corners[3]
        horizontal = corners[4]
        vertical = corners[5]
    }
}
