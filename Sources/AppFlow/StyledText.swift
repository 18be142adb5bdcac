import WhiteLabel

/// A run of text in one theme role.
public struct StyledSpan: Equatable, Sendable {
    public var text: String
    public var role: Theme.Role
    public var emphasized: Bool

    public init(_ text: String, _ role: Theme.Role, emphasized: Bool = false) {
        self.text = text
        self.role = role
        self.emphasized = emphasized
    }
}

/// One line of the phone's screen as styled spans; its plain text is what tests read.
public struct StyledLine: Equatable, Sendable {
    public var spans: [StyledSpan]
    /// Drawn reversed: the highlighted row.
    public var highlighted: Bool
    /// The one span drawn reversed when only part of the line is highlighted (an alert's OK inside its box).
    public var highlightedSpan: Int?

    public init(_ spans: [StyledSpan], highlighted: Bool = false, highlightedSpan: Int? = nil) {
        self.spans = spans
        self.highlighted = highlighted
        self.highlightedSpan = highlightedSpan
    }

    public var text: String { spans.map(\.text).joined() }
}
