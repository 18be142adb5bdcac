import Simulation
import StoreSim

/// Runs the Transaction Manager's steps that name what they act on (issue 15); each fails with what
/// the world held instead.
enum WorldStepControls {
    static func changePlan(_ change: PlanChange, to product: String, on world: World) throws(StepFailure) {
        let expected = "a running plan to \(change.rawValue) to \(product)"
        guard let actual = world.planChange(to: product) else {
            throw StepFailure(expected: expected, actual: "no other running plan in its group")
        }
        guard actual == change else {
            throw StepFailure(
                expected: expected, actual: "Apple classes it as \(actual == .upgrade ? "an" : "a") \(actual.rawValue)")
        }
        guard world.changePlan(to: product) != nil else {
            throw StepFailure(expected: expected, actual: "the store refused it")
        }
    }

    static func transaction(_ control: TransactionControl, _ id: String, on world: World) throws(StepFailure) {
        let done = world.perform(control, on: id)
        guard done else {
            // The ids that would have worked, since held payments are numbered by the store.
            let held = world.pendingPayments.map(\.identifier)
            let waiting = held.isEmpty ? "" : " (waiting: \(held.joined(separator: ", ")))"
            throw StepFailure(
                expected: "\(id) to \(control.rawValue)", actual: "nothing of the reader's by that id\(waiting)")
        }
    }
}
