import Scenarios
import Subscriptions
import Testing
import WhiteLabel

@testable import Simulation

/// Session 37: a subscription the server said is held elsewhere, whose answer on a restore here went unheard, is told
/// as not checked. The app that guessed "use Restore purchase" instead is caught by invariant 9 after the fault too,
/// under both policies that refuse the restore, given up at the timeout (found-by-hand/467) or failed (468).
@Suite struct UncheckedRestoreTests {
    private static func scenario(policy: String, fault: String, offer: String, defect: CoordinatorDefect?) -> String {
        let steps = [
            "app fit-track", "seed 37", "restore-policy \(policy)", "launch", "open content strength-plan",
            "subscribe", "select offer workouts-monthly", "confirm payment", "new device phone-2",
            "open content strength-plan", "subscribe", "inject restores \(fault) times 1", "select offer \(offer)",
            "confirm payment", "expect invariants",
        ]
        return ((defect.map { ["defect \($0.rawValue)"] } ?? []) + steps).joined(separator: "\n")
    }

    @Test(arguments: [
        ("transfer-if-owner-inactive", "slow:30s", "workouts-monthly"),
        ("keep-with-original-owner", "error", "coach-yearly"),
    ])
    func aGuessAfterAnUnheardCheckIsCaught(policy: String, fault: String, offer: String) throws {
        let runner = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot))
        let parse = { (defect: CoordinatorDefect?) in
            try ScenarioParser.parse(
                Self.scenario(policy: policy, fault: fault, offer: offer, defect: defect), file: "inline.scenario")
        }
        let held = runner.run(try parse(nil))
        #expect(held.passed, "\(held.failure?.report ?? "")")
        let guessed = runner.run(try parse(.guessUncheckedRestore))
        #expect(guessed.failure?.step == "expect invariants")
        #expect(guessed.failure?.actual.contains("invariant 9") == true, "\(guessed.failure?.report ?? "")")
        #expect(guessed.failure?.actual.contains("\"use Restore purchase\", but a restore here is refused") == true)
    }
}
