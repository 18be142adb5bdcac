import AppFlow
import Simulation

/// What a comparison reads from each world after a step: what the reader sees, the backend's word, the
/// money and the ledger. Two worlds diverge when these differ.
public struct WorldObservation: Equatable, Sendable {
    public let screen: String
    /// The alert's message (what the reader reads; titles are generic), else its title; nil without one.
    public let alert: String?
    public let levels: [String]
    public let charges: Int
    /// Ownership moves in the backend's ledger (a purchase claimed, restored to another identity, transferred).
    public let moves: Int

    public init(screen: String, alert: String?, levels: [String], charges: Int, moves: Int) {
        self.screen = screen
        self.alert = alert
        self.levels = levels
        self.charges = charges
        self.moves = moves
    }

    public init(world: World) {
        let screen = world.screen
        self.init(
            screen: screen.id.rawValue,
            alert: screen.alert.map { $0.message.isEmpty ? $0.title : $0.message },
            levels: world.appState.access.levels.map(\.rawValue).sorted(), charges: world.charges,
            moves: world.ownershipMoves)
    }

    /// The cells a report prints, in order.
    public var cells: [String] {
        [
            "screen \(screen)", alert.map { "alert \"\(Self.clipped($0))\"" } ?? "no alert",
            "levels \(levels.isEmpty ? "none" : levels.joined(separator: ", "))",
            "charges \(charges)", "moves \(moves)",
        ]
    }

    private static func clipped(_ text: String) -> String {
        text.count > 48 ? String(text.prefix(47)) + "…" : text
    }
}
