import SimKernel

/// Which entries the timeline pane shows: all of them, or one source's, so a long story can be read thread by thread.
public enum TimelineFilter: Equatable, Sendable, CaseIterable {
    case all
    case source(TimelineSource)

    public static let allCases: [TimelineFilter] = [.all] + TimelineSource.allCases.map { .source($0) }

    /// The next filter in the cycle `f` walks: all, app, store, backend, reader, control, all…
    public var next: TimelineFilter {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }

    /// The name shown in the pane's title.
    public var name: String {
        switch self {
        case .all: "all"
        case .source(let source): source.rawValue
        }
    }

    public func apply(to entries: [TimelineEntry]) -> [TimelineEntry] {
        switch self {
        case .all: entries
        case .source(let source): entries.filter { $0.source == source }
        }
    }
}
