import WhiteLabel

/// Maps theme roles to ncurses color pairs and attributes for what the terminal can show.
public struct Palette: Equatable, Sendable {
    /// How many colors the palette may use.
    public enum Depth: Equatable, Sendable {
        /// `NO_COLOR`, or a terminal without colors: attributes only.
        case monochrome
        /// The eight basic colors (`c8`).
        case basic
        /// The 256-color cube (`c256`).
        case extended
    }

    /// One color pair to set up with `init_pair`.
    public struct Pair: Equatable, Sendable {
        public var number: Int16
        public var foreground: Int16
    }

    public let depth: Depth
    public let pairs: [Theme.Role: Pair]

    public init(theme: Theme, depth: Depth) {
        self.depth = depth
        var pairs: [Theme.Role: Pair] = [:]
        if depth != .monochrome {
            for (index, role) in Theme.Role.allCases.enumerated() {
                guard let color = theme.color(role) else { continue }
                let foreground =
                    depth == .extended ? Int16(color.c256) : Int16(Theme.BasicColor.allCases.firstIndex(of: color.c8)!)
                pairs[role] = Pair(number: Int16(index + 1), foreground: foreground)
            }
        }
        self.pairs = pairs
    }

    /// The depth for a terminal with `colors` colors; a non-empty `NO_COLOR` turns colors off (no-color.org).
    public static func depth(colors: Int, hasColors: Bool, noColor: String?) -> Depth {
        if let noColor, !noColor.isEmpty { return .monochrome }
        guard hasColors else { return .monochrome }
        if colors >= 256 { return .extended }
        return colors >= 8 ? .basic : .monochrome
    }

    /// The color pair for `role`; 0 (the terminal's default) without colors.
    public func pairNumber(for role: Theme.Role) -> Int16 {
        pairs[role]?.number ?? 0
    }

    /// Attributes `role` adds; without colors they carry the difference colors would.
    public func style(for role: Theme.Role) -> CellStyle {
        switch (depth, role) {
        case (.monochrome, .accent), (.monochrome, .highlight), (.monochrome, .error), (.monochrome, .success):
            return .bold
        case (.monochrome, .muted): return .dim
        case (.monochrome, .locked): return .underline
        default: return []
        }
    }
}
