import Simulation
import Testing

/// Restore before purchase of the phone's own guest's subscription (fuzz seed 4940, session 695): a reader who bought
/// on this phone without an account, then logged in, is moved their subscription by a transfer whatever the restore
/// policy, and is never told it belongs to someone else.
@Suite struct GuestMoveBeforePayingTests {
    /// The guest buys, the phone stops hearing `GET /v1/me` (so the log-in offers no move), a month passes, the reader
    /// logs in and picks the other plan; `expect` lines after the purchase.
    private static func steps(policy: String, then expectations: [String]) -> String {
        [
            "app podcast-club", "latency fast", "restore-policy \(policy)", "account ana@fuzz.test password-ana",
            "inject me lost-response always", "launch", "open paywall", "select offer listener-monthly",
            "confirm payment", "advance 1mo", "login ana@fuzz.test password-ana", "open paywall",
            "select offer listener-yearly",
        ].joined(separator: "\n") + "\n" + expectations.joined(separator: "\n")
    }

    /// Under every policy: moved to the account, no second charge, nothing told of "someone else", and the monitor's
    /// invariants 9 (told is true) and 12 (moves only as asked: a purchase step may ask a transfer) hold.
    @Test(arguments: ["transfer", "keep-with-original-owner", "transfer-if-owner-inactive"])
    func thePhonesGuestSubscriptionMovesToTheAccount(policy: String) throws {
        let text = Self.steps(
            policy: policy,
            then: [
                "expect alert \"Already subscribed\"", "expect no text \"someone else\"",
                "expect identity account ana@fuzz.test", "expect levels listener", "expect charges 2",
            ])
        #expect(try MonitoredRun.violations(of: .toldIsTrue, text).isEmpty)
        #expect(try MonitoredRun.violations(of: .movesOnlyAsAsked, text).isEmpty)
    }
}
