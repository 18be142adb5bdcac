/// What a key in the checklist pane asks of the walk.
public enum WalkKey: Equatable, Sendable {
    case up, down
    /// Enter on the list: walk the selected scenario.
    case choose
    /// `n`: do the next step when it is not the reader's (a world step or a setting).
    case nextStep
    /// `s`: write the report.
    case saveReport
    /// `l`: the list of scenarios, or back to the walk.
    case toggleList
}

/// What the loop must do for the walk, outside the walk's own state.
public enum WalkCommand: Equatable, Sendable {
    /// Build the world of `scenarios[index]` and run its setup.
    case choose(Int)
    /// Run `steps[index]` of the scenario being walked on the world.
    case runStep(Int)
    case saveReport
}
