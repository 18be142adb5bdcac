import Simulation

/// Runs the steps that act on the world from outside the app: each is a `WorldAction`, and a refusal
/// is the step's failure in the same words.
enum WorldStepRunner {
    static func run(_ action: WorldAction, on world: World) throws(StepFailure) {
        do {
            try action.apply(to: world)
        } catch {
            throw StepFailure(expected: error.expected, actual: error.actual)
        }
    }
}
