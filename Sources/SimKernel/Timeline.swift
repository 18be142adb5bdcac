/// Who said something on the timeline.
public enum TimelineSource: String, Codable, Sendable, CaseIterable {
    case app
    case store
    case backend
    case reader
    case control
}

/// One message on the timeline, stamped with virtual time.
public struct TimelineEntry: Hashable, Codable, Sendable, CustomStringConvertible {
    public let time: SimInstant
    public let source: TimelineSource
    public let text: String

    public var description: String { "\(time) \(source.rawValue.padding(7)) \(text)" }
}

/// Every message between the app, the fake App Store and the backend, in the order it happened.
/// Byte-identical for the same seed and inputs: that is what makes recordings replayable.
public final class Timeline {
    public private(set) var entries: [TimelineEntry] = []
    private let clock: () -> SimInstant

    public init(clock: @escaping () -> SimInstant) {
        self.clock = clock
    }

    /// The events recorded with their lines, in order: what checks read instead of the words.
    public private(set) var events: [RecordedEvent] = []

    /// Logs a line; `event` is what it says as data, for the checks.
    public func log(_ source: TimelineSource, _ text: String, event: WorldEvent? = nil) {
        let time = clock()
        if let event { events.append(RecordedEvent(time: time, event: event, entry: entries.count)) }
        entries.append(TimelineEntry(time: time, source: source, text: text))
    }

    /// Records an event that no line of its own says (the line before it, or none, tells the reader enough).
    public func record(_ event: WorldEvent) {
        events.append(RecordedEvent(time: clock(), event: event, entry: max(entries.count - 1, 0)))
    }

    /// Where the timeline ends now: `withdraw(since:)` takes back what was logged after it.
    public struct Mark: Sendable {
        fileprivate let entries: Int
        fileprivate let events: Int
    }

    public var mark: Mark { Mark(entries: entries.count, events: events.count) }

    /// Takes back the lines and events logged since `mark`: what a piece of work said it did, when its writes
    /// were lost (a full disk showed a renewal the store never kept, h3 03).
    public func withdraw(since mark: Mark) {
        if entries.count > mark.entries { entries.removeSubrange(mark.entries...) }
        if events.count > mark.events { events.removeSubrange(mark.events...) }
    }

    /// The whole timeline as text, one entry a line.
    public var text: String { entries.map(\.description).joined(separator: "\n") }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
