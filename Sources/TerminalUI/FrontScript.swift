import Simulation

/// Something that drives the front by itself, a step at a time (a live replay of a scenario).
public protocol FrontScript: AnyObject {
    /// Called on every turn of the loop: the caption to show, or the exit code once the script is done.
    func tick(world: World, wallNanoseconds: Int64) -> FrontScriptStatus
}

/// Where a script is.
public enum FrontScriptStatus: Equatable, Sendable {
    case running(caption: String?)
    case finished(Int32)
}
