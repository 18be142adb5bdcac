import CNcurses
import Simulation

/// A key in the transaction inspector (`t`): move between rows, or a Transaction Manager control on the
/// selected row. The controls are capital letters: each moves money or access, so no stray key does one.
public enum InspectorKey: Equatable, Sendable {
    case up
    case down
    case act(TransactionControl)

    static let controlKeys: [(Character, TransactionControl)] = [
        ("R", .refund), ("V", .revoke), ("E", .expire), ("A", .approve), ("D", .decline), ("I", .resolveInterrupted),
    ]

    /// The inspector's reading of `key`, taken before the panes see it; nil for a key it does not use.
    static func action(for key: KeyPress) -> KeyAction? {
        switch key {
        case .function(KEY_UP): return .inspector(.up)
        case .function(KEY_DOWN): return .inspector(.down)
        case .function(KEY_RESIZE): return .resize
        case .function: return nil
        case .character("k"): return .inspector(.up)
        case .character("j"): return .inspector(.down)
        case .character("t"), .character(KeyMap.escape): return .toggleInspector
        case .character("q"): return .quit
        case .character("?"): return .help
        case .character(let character):
            return controlKeys.first { $0.0 == character }.map { .inspector(.act($0.1)) }
        }
    }

    /// The key of `control`, for the pane's hints.
    static func key(of control: TransactionControl) -> Character {
        controlKeys.first { $0.1 == control }?.0 ?? "?"
    }
}

/// The inspector's own state: which row is selected.
public struct InspectorState: Equatable, Sendable {
    public var selection = 0

    /// A key on `rows` (as shown now): the control to apply, or nil after a move or a control the row lacks.
    mutating func apply(_ key: InspectorKey, rows: [TransactionRow]) -> WorldAction? {
        switch key {
        case .up: selection -= 1
        case .down: selection += 1
        case .act(let control):
            guard rows.indices.contains(selection), rows[selection].controls.contains(control) else { return nil }
            return .transaction(control, rows[selection].id)
        }
        selection = min(max(0, selection), max(0, rows.count - 1))
        return nil
    }
}
