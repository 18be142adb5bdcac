import SimKernel
import Simulation

/// What one frame of `compare --live` shows, read from the worlds at one instant: each world's phone
/// (its name the world's label), the first world's timeline, and where it first differs from the second's.
public struct CompareContent: Equatable, Sendable {
    public var worlds: [FrontContent]
    public var labels: [String]
    /// The index in the first world's timeline of the first entry that differs from the second world's.
    public var firstDifference: Int?

    public init(worlds: [FrontContent], labels: [String]) {
        self.worlds = worlds
        self.labels = labels
        firstDifference = Self.firstDifference(worlds.first?.timeline ?? [], worlds.dropFirst().first?.timeline ?? [])
    }

    public init(worlds: [World], labels: [String]) {
        self.init(worlds: worlds.map { FrontContent(world: $0) }, labels: labels)
    }

    /// The first entry whose source or text differs, times aside (a slower network is not a different
    /// story) and control lines aside (the settings the worlds were given differ by design; what they do
    /// with them shows in the other lines); nil while the first timeline is the same as the second, or a
    /// start of it.
    static func firstDifference(_ first: [TimelineEntry], _ second: [TimelineEntry]) -> Int? {
        let firstIndices = first.indices.filter { first[$0].source != .control }
        let secondEntries = second.filter { $0.source != .control }
        for (position, index) in firstIndices.enumerated() {
            guard position < secondEntries.count else { return index }
            let other = secondEntries[position]
            if first[index].source != other.source || first[index].text != other.text { return index }
        }
        return nil
    }
}
