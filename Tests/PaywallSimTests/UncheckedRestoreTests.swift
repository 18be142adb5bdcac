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
        try Self.expectGuessCaught(runner, parse, clue: "invariant 9")
    }

    /// Session 45 (found-by-hand/548): a failed check of a purchase Apple charged nothing new for, the server's word on a
    /// restore here lost, is told as not checked too; the guess is caught after the faults, the restore then refused.
    @Test func aGuessOfAnUnchargedFailedCheckIsCaught() throws {
        let runner = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot))
        let steps = [
            "app podcast-club", "latency fast", "restore-policy keep-with-original-owner",
            "account ana@fuzz.test password-ana", "launch", "login ana@fuzz.test password-ana", "open paywall",
            "select offer listener-yearly", "confirm payment", "new device phone-2",
            "signup ben@fuzz.test password-ben", "open paywall", "inject restores lost-response times 2",
            "inject receipts error times 1", "select offer listener-yearly", "confirm payment", "expect invariants",
        ]
        let parse = { (defect: CoordinatorDefect?) in
            try ScenarioParser.parse(
                ((defect.map { ["defect \($0.rawValue)"] } ?? []) + steps).joined(separator: "\n"),
                file: "inline.scenario")
        }
        try Self.expectGuessCaught(runner, parse, clue: "notConfirmed")
    }

    /// The scenario holds without the defect; with `guess-unchecked-restore` invariant 9 fails it at its end, naming
    /// `clue` and the restore the guess promised.
    private static func expectGuessCaught(
        _ runner: ScenarioRunner, _ parse: (CoordinatorDefect?) throws -> Scenario, clue: String
    ) throws {
        let held = runner.run(try parse(nil))
        #expect(held.passed, "\(held.failure?.report ?? "")")
        let guessed = runner.run(try parse(.guessUncheckedRestore))
        #expect(guessed.failure?.step == "expect invariants")
        #expect(guessed.failure?.actual.contains(clue) == true, "\(guessed.failure?.report ?? "")")
        #expect(guessed.failure?.actual.contains("\"use Restore purchase\", but a restore here is refused") == true)
    }
}
