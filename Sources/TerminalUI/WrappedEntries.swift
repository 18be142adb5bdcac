import AppFlow
import SimKernel
import Synchronization

/// Timeline entries already laid out, for the whole process: an entry's lines are a pure function of the
/// entry and the pane's width, and wrapping them by terminal columns (grapheme by grapheme) was a fifth of
/// every frame, for the same twenty entries frame after frame. Scrolling counts every entry's lines, so a
/// long timeline is laid out once, not on every scroll key.
final class WrappedEntries: Sendable {
    static let shared = WrappedEntries()

    private struct Key: Hashable {
        let entry: TimelineEntry
        let width: Int
    }

    private let kept = Mutex<[Key: [StyledLine]]>([:])

    /// `entry`'s lines at `width`: `make`'s answer, made once while kept.
    func lines(_ entry: TimelineEntry, width: Int, make: () -> [StyledLine]) -> [StyledLine] {
        let key = Key(entry: entry, width: width)
        if let lines = kept.withLock({ $0[key] }) { return lines }
        let lines = make()
        kept.withLock { kept in
            if kept.count >= 16_384 { kept.removeAll() }  // bounded, whatever a long run logs
            kept[key] = lines
        }
        return lines
    }
}
