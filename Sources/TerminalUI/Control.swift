import Simulation

/// Who acts on the world: the control pane groups its controls under these headings.
public enum ControlGroup: String, Equatable, Sendable, CaseIterable {
    case parent = "Parent"
    case store = "Store"
    case backend = "Backend"
    case family = "Family"
    case time = "Time"
    case device = "Device"
    case network = "Network"
    case app = "App"
}

/// One row of the control pane: what it is called, its current state where it has one, and the world
/// action Enter does (a control is an action, with a label).
public struct Control: Equatable, Sendable {
    public var group: ControlGroup
    public var label: String
    /// "on", "off", the chosen profile…; nil for a one-shot action.
    public var value: String?
    public var action: WorldAction

    public init(_ group: ControlGroup, _ label: String, value: String? = nil, _ action: WorldAction) {
        self.group = group
        self.label = label
        self.value = value
        self.action = action
    }
}
