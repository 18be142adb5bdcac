import Foundation
import Fuzzing
import Scenarios
import Simulation
import Subscriptions
import Testing
import WhiteLabel

/// The fuzzer: the app holds every invariant over the default run, a broken app is caught and
/// shrunk to a scenario that fails the same way, and the same seed gives the same sessions.
@Suite struct FuzzerTests {
    private let resources = ResourceLocator(root: TestSupport.packageRoot)

    private func fuzzer(runs: Int, steps: Int = 60, seed: UInt64 = 1, defect: CoordinatorDefect? = nil) -> Fuzzer {
        Fuzzer(
            options: FuzzOptions(apps: resources.appNames(), runs: runs, steps: steps, seed: seed, defect: defect),
            resources: resources)
    }

    /// Plays a shrunk failure as `paywall-sim play` would.
    private func play(_ text: String) throws -> ScenarioResult {
        ScenarioRunner(resources: resources).run(try ScenarioParser.parse(text, file: "fuzz.scenario"))
    }

    @Test func theDefaultRunHoldsEveryInvariantOverEveryDemoApp() {
        let options = FuzzOptions(apps: resources.appNames())
        #expect(options.runs >= 2_000 && options.steps >= 60)
        let result = Fuzzer(options: options, resources: resources).run()
        #expect(result.failure == nil, "\(result.failure.map { "\($0.violation)\n\($0.scenario)" } ?? "")")
        #expect(result.sessions == options.runs)
        #expect(Set(resources.appNames()) == ["daily-news", "fit-track", "kids-stories", "podcast-club"])
    }

    @Test func anAppThatUnlocksOnApplesPurchasedIsCaughtAndShrunkToAHandfulOfSteps() throws {
        let result = fuzzer(runs: 2_000, defect: .unlockOnPurchased).run()
        let failure = try #require(result.failure)
        #expect(failure.violation.invariant == .backendsWord)
        let steps = failure.scenario.split(separator: "\n").filter {
            !$0.hasPrefix("#") && !$0.hasPrefix("title") && !$0.hasPrefix("sees") && !$0.hasPrefix("expect")
        }
        #expect(steps.count <= 10, "\(failure.scenario)")
        #expect(failure.originalSteps > steps.count)

        let replayed = try play(failure.scenario)
        #expect(!replayed.passed)
        #expect(replayed.failure?.step == "expect invariants")
        #expect(replayed.failure?.actual.contains("invariant 1") == true)

        // Without the defect the same steps hold: the scenario fails because of it, not by chance.
        let healthy = failure.scenario.replacingOccurrences(of: "defect unlock-on-purchased\n", with: "")
        #expect(healthy != failure.scenario)
        #expect(try play(healthy).passed)
    }

    @Test func anAppThatLetsASecondPaymentStartIsCaught() throws {
        let result = fuzzer(runs: 2_000, defect: .secondPayment).run()
        let failure = try #require(result.failure)
        #expect(failure.violation.invariant == .onePaymentAtATime)
        #expect(failure.scenario.contains("double-tap offer"))
        #expect(try play(failure.scenario).failure?.actual.contains("invariant 4") == true)
    }

    @Test func theSameSeedGivesTheSameSessionsAndAnotherSeedOthers() throws {
        let first = try #require(fuzzer(runs: 2_000, seed: 7, defect: .unlockOnPurchased).run().failure)
        let again = try #require(fuzzer(runs: 2_000, seed: 7, defect: .unlockOnPurchased).run().failure)
        #expect(first.scenario == again.scenario)
        #expect(first.session == again.session)
        let other = fuzzer(runs: 30, steps: 30, seed: 8).run()
        let same = fuzzer(runs: 30, steps: 30, seed: 8).run()
        let seven = fuzzer(runs: 30, steps: 30, seed: 7).run()
        #expect(other.steps == same.steps && other.virtualTime == same.virtualTime)
        #expect(other.virtualTime != seven.virtualTime)
    }
}
