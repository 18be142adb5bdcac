import Scenarios
import Testing
import WhiteLabel

/// The same sign-in sent twice and answered out of order (session 39): the sign-in check (invariant 9) judges a failure
/// told while the server accepted the same one, in either order of the answers and whatever the faults, and only an
/// acceptance the app took counts.
@Suite struct SameSignInTests {
    private let resources = ResourceLocator(root: TestSupport.packageRoot)

    private func play(_ text: String) throws -> ScenarioResult {
        ScenarioRunner(resources: resources).run(try ScenarioParser.parse(text, file: "same.scenario"))
    }

    /// A double "Create account" whose second "email taken" came back before the first's acceptance: the old form,
    /// planted, is caught though the acceptance reached the app after the failure was told. The form of today sends
    /// the sign-up once, which the slow answer signs in.
    @Test func aSignUpSentTwiceWhoseRefusalCameFirstIsCaught() throws {
        let healthy = """
            app daily-news
            seed 2
            latency fast
            launch
            open profile
            open signup
            inject accounts slow:5s times 1
            without waiting signup quinn@example.com correct-horse-9
            signup quinn@example.com correct-horse-9
            expect invariants

            """
        #expect(try play(healthy + "expect identity account quinn@example.com\nexpect no alert\n").passed)
        let broken = healthy.replacingOccurrences(of: "\nlaunch\n", with: "\ndefect form-sends-twice\nlaunch\n")
        let failure = try #require(try play(broken).failure)
        #expect(failure.step == "expect invariants")
        #expect(failure.actual.contains("invariant 9 "), "\(failure.actual)")
        #expect(failure.actual.contains("accepted the same sign-in"), "\(failure.actual)")
    }

    /// The first log-in's acceptance never reached the app as one: lost on its way back, given up at the app's timeout
    /// (20 s), or a malformed 200 standing in for it. The second met a 500: "could not be reached" is what the app
    /// heard of both, and no lie.
    @Test(arguments: ["lost-response", "slow:25s", "malformed"])
    func anAcceptanceTheAppNeverTookIsNoLie(fault: String) throws {
        let text = """
            app daily-news
            seed 1
            latency fast
            account ana@fuzz.test password-ana
            launch
            inject sessions \(fault) times 1
            inject sessions error times 1
            without waiting login ana@fuzz.test password-ana
            login ana@fuzz.test password-ana
            expect alert "The service could not be reached. Please try again."
            expect identity none
            expect invariants

            """
        let result = try play(text)
        #expect(result.passed, "\(result.failure.map { "\($0.step): \($0.actual)" } ?? "")")
    }
}
