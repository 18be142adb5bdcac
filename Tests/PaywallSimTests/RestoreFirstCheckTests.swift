import Simulation
import Testing

/// Invariant 17, restore before purchase: a signed-in reader is never sent to Apple's sheet for a group the
/// Apple ID already pays for with a purchase the account holds, nobody holds, or the rules let it take.
@Suite struct RestoreFirstCheckTests {
    /// The violations of 17 the monitor saw while `steps` ran in daily-news, with `defect` planted.
    private func violations(_ steps: [String], defect: String? = nil) throws -> [String] {
        let text = (["app daily-news", "latency fast"] + (defect.map { ["defect \($0)"] } ?? []) + steps)
            .joined(separator: "\n")
        return try MonitoredRun.violations(of: .restoreBeforePurchase, text)
    }

    /// Bought without an account on the iPhone, then signed up on the iPad: the purchase is anonymous and
    /// this device may move it, so the account takes it instead of paying again.
    static let anonymousPurchaseThenSignUp = [
        "launch", "open paywall", "select offer premium-monthly", "confirm payment", "new device ipad",
        "open profile", "signup reader@example.com correct-horse", "open paywall", "select offer premium-yearly",
    ]

    /// The account holding the group already is reached only by a race (a restore answering meanwhile):
    /// scenarios/found-by-fuzzing/restore-before-purchase-beside-a-restore.scenario.
    @Test func aSignedInReaderIsNeverAskedToPayForWhatTheAccountMayTake() throws {
        let steps = Self.anonymousPurchaseThenSignUp
        #expect(try violations(steps).isEmpty)
        let found = try violations(steps, defect: "skip-restore-before-purchase")
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("reader@example.com was sent to Apple's sheet") == true, "\(found)")
    }

    /// A fault that stops the check before paying excuses the sheet: the app could not know. One after the check
    /// answered does not (session 27: the move's answer lost, Apple's sheet for what the account then held); the app
    /// now asks the server instead, and nothing reaches the sheet.
    @Test func onlyAFaultThatStopsTheCheckExcusesTheSheet() throws {
        var steps = Self.anonymousPurchaseThenSignUp
        steps.insert("inject restores error times 1", at: steps.count - 1)
        #expect(try violations(steps).isEmpty)
        var lost = Self.anonymousPurchaseThenSignUp
        lost.insert("inject restores slow:10ms times 1; restores lost-response times 1", at: lost.count - 1)
        #expect(try violations(lost).isEmpty)
    }

    /// A guest is not signed in: their payment goes to Apple, and Apple itself answers "already subscribed".
    @Test func aGuestBuyingAgainIsNotThisInvariants() throws {
        let steps = [
            "launch", "open paywall", "select offer premium-monthly", "confirm payment", "new device ipad",
            "open paywall", "select offer premium-monthly",
        ]
        #expect(try violations(steps, defect: "skip-restore-before-purchase").isEmpty)
    }

    /// A purchase another account holds is asked about, never moved unasked: paying is not judged here.
    @Test func anotherAccountsPurchaseIsNotTheAccountsToTake() throws {
        let steps = [
            "launch", "open profile", "signup first@example.com correct-horse", "open paywall",
            "select offer premium-monthly", "confirm payment", "open profile", "logout", "open profile",
            "signup second@example.com correct-horse", "open paywall", "select offer premium-yearly",
        ]
        #expect(try violations(steps, defect: "skip-restore-before-purchase").isEmpty)
    }
}
