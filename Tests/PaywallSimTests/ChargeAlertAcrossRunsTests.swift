import Foundation
import Scenarios
import Testing
import WhiteLabel

@testable import Simulation

/// An alert telling a charge that the reader never dismissed reaches the phone's next launch, even when the whole `run`
/// quits in between: it lived in the quit app alone, and the charge was never told (default fuzz 5454, session 41).
@Suite struct ChargeAlertAcrossRunsTests {
    /// A code redeemed on the App Store while the log-in's "Sorry" is up: its free month's start waits behind it.
    private static let redeemedBehindSorry = """
        app podcast-club
        seed 5
        latency fast
        launch
        login ana@example.com not-her-password
        redeem code LISTEN-FREE
        expect alert "The email or the password is not right."
        """

    /// A month free: Apple charged nothing, so no words of money (session 45).
    private static let told = "Your free trial of Listener+ Monthly has started. Your subscription is active."

    /// `text`'s steps run on the state folder `directory`, then the run quits (`FolderRun`).
    private func run(_ text: String, in directory: String) throws {
        _ = try FolderRun.quitAfter(text, in: directory)
    }

    @Test func aChargeToldBehindAnAlertIsToldByTheNextRunUntilDismissed() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try run(Self.redeemedBehindSorry, in: directory)
        let launch = "app podcast-club\nseed 5\nlatency fast\nlaunch\n"
        try run(launch + "expect alert \"\(Self.told)\"\nexpect levels listener\nexpect invariants", in: directory)
        // Not dismissed in that run either: told again by the one after, which the reader dismisses.
        try run(launch + "expect alert \"\(Self.told)\"\nback\nexpect no alert", in: directory)
        try run(launch + "expect no alert\nexpect levels listener", in: directory)
    }
}
