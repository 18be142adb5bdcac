import Scenarios
import Simulation
import Testing
import WhiteLabel

/// Issue 12's invariants (9–13), each on a small session that reaches a defect the issue lists.
/// Each test expects its invariant to hold: on the code before the issue's fixes it fails, naming
/// the violation, and once the defect is fixed it is that defect's regression proof.
@Suite struct ReaderOracleTests {
    private func violations(of invariant: Invariant, _ text: String) throws -> [String] {
        try MonitoredRun.violations(of: invariant, text)
    }

    /// Issue 12's invariants on sessions that go right today: nothing to report.
    @Test(arguments: [
        "open paywall\nselect offer premium-monthly\nconfirm payment\nadvance 40d\nrestart app\nopen content night-trains",
        "open paywall\nselect offer premium-monthly\nconfirm payment\nnew device ipad\nopen profile\nrestore",
        "inject payment deferred times 1\nopen paywall\nselect offer premium-monthly\nconfirm payment\nback\nparent approve",
        "inject receipts error times 1\nopen paywall\nselect offer premium-monthly\nconfirm payment\nback\nrestore",
        "open paywall\nselect offer premium-yearly\ncancel payment\nselect offer premium-yearly\nconfirm payment",
        "open paywall\nselect offer premium-monthly\nconfirm payment\nsignup ana@fuzz.test password-ana\naccept transfer",
    ])
    func sessionsThatGoRightBreakNoneOfThem(_ steps: String) throws {
        for invariant in Invariant.allCases where invariant.rawValue >= 9 {
            let found = try violations(of: invariant, "app daily-news\nlatency typical\nlaunch\n" + steps)
            #expect(found.isEmpty, "\(found)")
        }
    }

    /// A session that reaches one of issue 12's defects, and the invariant that must catch it there.
    struct DefectCase: Sendable, CustomTestStringConvertible {
        let name: String
        let invariant: Invariant
        let steps: [String]
        var testDescription: String { name }
    }

    /// A guest on a new phone taps Restore twice before the first answer.
    static let restoreTwice = [
        "app daily-news", "latency typical", "launch", "open paywall", "select offer premium-monthly",
        "confirm payment", "new device ipad", "open profile", "without waiting restore", "restore",
    ]

    static let defectCases: [DefectCase] = [
        // Defect 3: restoring an expired subscription says "Your subscription is back." with no access.
        DefectCase(
            name: "aRestoreThatSaysTheSubscriptionIsBackGivesAccess", invariant: .toldIsTrue,
            steps: [
                "app daily-news",
                "launch",
                "open paywall",
                "select offer premium-monthly",
                "confirm payment",
                "store expire",
                "new device ipad",
                "open profile",
                "restore",
            ]),
        // Defect 5: a guest on a new phone taps the offer; Apple charges nothing ("already subscribed"),
        // yet the reader reads "Your payment went through but could not be confirmed".
        DefectCase(
            name: "paymentWentThroughIsSaidOnlyAfterACharge", invariant: .toldIsTrue,
            steps: [
                "app daily-news",
                "launch",
                "open paywall",
                "select offer premium-monthly",
                "confirm payment",
                "new device ipad",
                "open paywall",
                "select offer premium-monthly",
                "confirm payment",
            ]),
        // Defect 2: after 365 days the anonymous token expires, and a paying reader's articles "could not be loaded".
        DefectCase(
            name: "aPayingReaderStillReadsAfterAYear", invariant: .payingKeepsAccess,
            steps: [
                "app podcast-club",
                "launch",
                "open paywall",
                "select offer listener-monthly",
                "confirm payment",
                "advance 400d",
                "open content ep-103-night-shift",
            ]),
        // Defect 2 again: past a year the reader buys again; back in the foreground the phone's identity owns
        // the paid subscription, and the phone shows none.
        DefectCase(
            name: "backInTheForegroundAfterAYearThePhoneShowsTheLevelsItsIdentityOwns", invariant: .payingKeepsAccess,
            steps: [
                "app daily-news",
                "launch",
                "open paywall",
                "select offer premium-monthly",
                "confirm payment",
                "store refund",
                "foreground",
                "advance 366d",
                "open paywall",
                "select offer premium-monthly",
                "confirm payment",
                "foreground",
            ]),
        // Defect 1: Restore tapped twice on a new phone spends two moves; the phone keeps one identity, the
        // purchase belongs to the other, which no phone holds.
        DefectCase(
            name: "aDoubleTappedRestoreLeavesNoPurchaseWithAnIdentityNoPhoneHolds", invariant: .payingKeepsAccess,
            steps: restoreTwice),
        // Defect 7: Ask to Buy approved, then the server check fails: charged, still locked, no message.
        DefectCase(
            name: "aChargeWithoutAccessEndsInAMessage", invariant: .noSilentCharge,
            steps: [
                "app daily-news",
                "inject payment deferred times 1",
                "launch",
                "open paywall",
                "select offer premium-monthly",
                "confirm payment",
                "back",
                "inject receipts error times 1",
                "parent approve",
            ]),
        // Defect 1: one tap's worth of restore (the second at once is the same wish) moves the purchase twice.
        DefectCase(
            name: "aDoubleTappedRestoreMovesThePurchaseOnce", invariant: .movesOnlyAsAsked,
            steps: restoreTwice),
        // Defect 11: the reader's trial is used; the paywall still says "1 week free", Apple's sheet does not.
        DefectCase(
            name: "theSheetGivesTheTrialThePaywallPromises", invariant: .sheetsTellTheTruth,
            steps: [
                "app daily-news",
                "launch",
                "open paywall",
                "select offer premium-yearly",
                "confirm payment",
                "store expire",
                "foreground",
                "open paywall",
                "select offer premium-yearly",
            ]),
    ]

    /// Each holds on the fixed code; on the code before issue 12's fixes each failed, naming the violation.
    @Test(arguments: defectCases)
    func issue12DefectsStayFixed(_ defect: DefectCase) throws {
        let found = try violations(of: defect.invariant, defect.steps.joined(separator: "\n"))
        #expect(found.isEmpty, "\(found)")
    }

    // Defect 13, the world's half: an interrupted purchase carries on once the reader acts outside the app.
    @Test func anInterruptedPurchaseResolvedOutsideTheAppUnlocks() throws {
        let scenario = try ScenarioParser.parse(
            """
            app daily-news
            inject payment interrupted
            launch
            open paywall
            select offer premium-monthly
            confirm payment
            expect alert "not charged"
            expect charges 0
            back
            store resolve-interrupted
            expect levels premium
            expect charges 1
            expect invariants
            try store resolve-interrupted
            expect timeline "no interrupted purchase waits"
            """, file: "inline.scenario")
        let result = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }
}
