/// The one discrete-event scheduler of a simulated world: a queue keyed by (due time, sequence).
///
/// Everything runs on one thread. Latency is a delay on the virtual clock; an answer from the store
/// or the backend is an event scheduled here. The sequence number breaks ties, so the same inputs
/// always run in the same order.
public final class Scheduler {
    /// A handle to cancel a scheduled event.
    public struct EventID: Hashable, Sendable {
        let sequence: UInt64
    }

    private struct Entry {
        let due: SimInstant
        let sequence: UInt64
        let action: () -> Void

        func runsBefore(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : sequence < other.sequence
        }
    }

    public private(set) var now: SimInstant
    /// Told when the world is found settled: the instant of a foreground event that left none pending, or nil
    /// when a background event runs with none pending (it settled earlier). A recording reads it to write the
    /// idle time between steps, which `play` would not pass (session 27).
    public var onSettled: ((SimInstant?) -> Void)?
    private var heap: [Entry] = []
    private var cancelled: Set<UInt64> = []
    /// Live events that keep `runUntilIdle` going; background ones (a subscription's next renewal)
    /// run when their time comes but never keep the world busy on their own.
    private var foreground: Set<UInt64> = []
    private var nextSequence: UInt64 = 0
    /// Whether the event `popHead` last took was a foreground one.
    private var lastPoppedForeground = false

    public init(start: SimInstant = .worldStart) {
        now = start
    }

    /// Runs `action` once the virtual clock reaches `now + delay`. A `background` event (a renewal a
    /// month away) runs in its turn but does not count as pending work for `runUntilIdle`, which would
    /// otherwise renew forever.
    @discardableResult
    public func schedule(after delay: SimDuration, background: Bool = false, _ action: @escaping () -> Void)
        -> EventID
    {
        let entry = Entry(due: now + max(delay, .zero), sequence: nextSequence, action: action)
        nextSequence += 1
        if !background { foreground.insert(entry.sequence) }
        push(entry)
        return EventID(sequence: entry.sequence)
    }

    /// Drops every pending event. Scheduled closures hold the objects that scheduled them, which hold
    /// the scheduler: a world that goes away calls this so the whole of it can be freed.
    public func removeAll() {
        heap.removeAll()
        cancelled.removeAll()
        foreground.removeAll()
    }

    public func cancel(_ id: EventID) {
        cancelled.insert(id.sequence)
        foreground.remove(id.sequence)
    }

    /// The handle the next scheduled event will get: with `cancelAll(since:)`, what a piece of work set in motion.
    public var nextEventID: EventID { EventID(sequence: nextSequence) }

    /// Cancels every pending event scheduled since `mark` (`nextEventID` read before): work undone takes back
    /// what it set in motion.
    public func cancelAll(since mark: EventID) {
        for entry in heap where entry.sequence >= mark.sequence { cancel(EventID(sequence: entry.sequence)) }
    }

    /// When the next live foreground event is due, or nil when none is pending. Background events
    /// are left out, so a loop that runs "until nothing is due" ends while renewals stay scheduled.
    public var nextDue: SimInstant? {
        guard !foreground.isEmpty else { return nil }
        dropCancelledHead()
        if let head = heap.first, foreground.contains(head.sequence) { return head.due }
        return heap.lazy.filter { self.foreground.contains($0.sequence) }.map(\.due).min()
    }

    /// `nextDue == nil` without its work: a cancelled event leaves `foreground` as it is cancelled, so no live
    /// foreground event is pending exactly when the set is empty. The checks after every step ask it (1 % of a fuzz
    /// step went to dropping cancelled heads, hashing each sequence, to answer it).
    public var isIdle: Bool { foreground.isEmpty }

    /// Runs every event in order, jumping time, until no foreground event is pending (background
    /// events due before the last foreground one run on the way). Returns how many ran.
    @discardableResult
    public func runUntilIdle(maxEvents: Int = 10_000_000) -> Int {
        var count = 0
        while count < maxEvents, !foreground.isEmpty, let entry = popLive() {
            runEntry(entry)
            count += 1
        }
        return count
    }

    /// Runs every event due at or before `instant`, then leaves the clock at `instant`.
    @discardableResult
    public func run(until instant: SimInstant) -> Int {
        var count = 0
        // Background events included: moving the clock runs the renewals that fall due on the way.
        while let head = peekLive(), head.due <= instant, let entry = popLive() {
            runEntry(entry)
            count += 1
        }
        now = max(now, instant)
        return count
    }

    /// Moves the clock forward by `duration`, running what falls due on the way.
    @discardableResult
    public func advance(by duration: SimDuration) -> Int {
        run(until: now + duration)
    }

    /// Runs a popped event, telling `onSettled` when it was the last foreground one pending.
    private func runEntry(_ entry: Entry) {
        now = max(now, entry.due)
        let wasForeground = lastPoppedForeground
        if !wasForeground, foreground.isEmpty, let onSettled { onSettled(nil) }
        entry.action()
        if wasForeground, foreground.isEmpty, let onSettled { onSettled(entry.due) }
    }

    // MARK: - Binary heap

    private func peekLive() -> Entry? {
        dropCancelledHead()
        return heap.first
    }

    private func popLive() -> Entry? {
        dropCancelledHead()
        return heap.isEmpty ? nil : popHead()
    }

    private func dropCancelledHead() {
        // Most of the time nothing is cancelled: no sequence hashed to find that out.
        guard !cancelled.isEmpty else { return }
        while let head = heap.first, cancelled.contains(head.sequence) {
            cancelled.remove(head.sequence)
            _ = popHead()
        }
    }

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].runsBefore(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popHead() -> Entry {
        let head = heap[0]
        lastPoppedForeground = foreground.remove(head.sequence) != nil
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var first = parent
                if left < heap.count && heap[left].runsBefore(heap[first]) { first = left }
                if right < heap.count && heap[right].runsBefore(heap[first]) { first = right }
                if first == parent { break }
                heap.swapAt(parent, first)
                parent = first
            }
        }
        return head
    }
}
