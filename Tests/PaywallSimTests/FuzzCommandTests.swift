import Foundation
import Testing

/// `paywall-sim fuzz` as a person runs it: what it prints, what it writes, its exit codes.
@Suite struct FuzzCommandTests {
    @Test func sessionsThatHoldExitZeroAndSaySo() throws {
        let result = try TestSupport.runBinary(["fuzz", "--runs", "8", "--steps", "20", "--app", "daily-news"])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("8 sessions"))
        #expect(result.stdout.contains("over daily-news: every invariant held"))
    }

    @Test func invariantsChoosesWhatEndsASessionAndSaysOnlyThoseHeld() throws {
        let result = try TestSupport.runBinary([
            "fuzz", "--runs", "4", "--steps", "15", "--app", "daily-news", "--invariants", "1,4",
        ])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("invariants 1, 4 held (the others were not watched)"))
        let bad = try TestSupport.runBinary(["fuzz", "--invariants", "9,25"])
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("--invariants takes numbers from 1 to 24"))
    }

    @Test func aBrokenAppExitsOneWithAScenarioThatPlayFailsTheSameWay() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = "\(directory)/found"
        let result = try TestSupport.runBinary(["fuzz", "--defect", "unlock-on-purchased", "--out", out])
        #expect(result.code == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("broke invariant 1 (nothing unlocks without the backend's word)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.count == 1)
        let path = "\(out)/\(try #require(files.first))"
        #expect(result.stdout.contains("replay it: paywall-sim play \(path)"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("defect unlock-on-purchased"))
        #expect(text.contains("expect invariants\n\n# paywall-sim seal "))

        let replay = try TestSupport.runBinary(["play", path])
        #expect(replay.code == 1)
        #expect(replay.stdout.contains("expected: the invariants to hold"))
        #expect(replay.stdout.contains("invariant 1 (nothing unlocks without the backend's word)"))
    }

    @Test(arguments: [
        (
            ["fuzz", "--defect", "sloppy"],
            "--defect: unknown defect \"sloppy\" (defects: unlock-on-purchased, second-payment, keep-cache, restore-twice, anonymous-token-expires, restored-without-access, silent-approval, skip-parental-gate, skip-restore-before-purchase, refresh-per-caller, pay-for-first-offer, not-active-after-paying, skip-price-consent, alert-on-cancel, forget-unanswered-receipt, skip-account-required, skip-payments-check, close-paywall-to-feed, skip-transfer-offer, subscriber-tap-ignored, close-before-server-check, manage-sheet-from-account, silent-session-end, restore-ignores-who-paid, status-ignores-who-paid, pay-unreturned-product, payment-known-by-product, transfer-moves-ended, consent-follows-the-subscription, sheet-opens-on-its-first-choice, gate-asks-one-question, recovery-kept-from-the-app, revocation-kept-from-the-app, foreground-keeps-levels, ads-hidden-from-every-subscriber, restore-ignores-policy, guess-unchecked-restore, form-sends-twice, title-by-identifier, unsold-plan-said-to-renew, silent-decline, same-log-in-refused-early, found-meanwhile-unfounded, replaced-refresh-token-traded-again, charge-told-again-as-first-told, went-elsewhere-told-at-once, refresh-cancel-told-as-error, charge-hidden-behind-another-alert, profile-trial-told-as-renewal, trial-told-as-charge, profile-keeps-moved-guest-plans)"
        ),
        (["fuzz", "--runs", "0"], "--runs takes a whole number from 1"),
        (["fuzz", "--seed", "x"], "--seed takes a whole number, not \"x\""),
        (["fuzz", "--app", "nope"], "no demo app named \"nope\""),
        (["fuzz", "--turbo"], "unknown option \"--turbo\""),
        // An empty list watched nothing and still said the invariants held (session 24).
        (["fuzz", "--invariants", ""], "--invariants takes numbers from 1 to 24 separated by commas, not \"\""),
        (["fuzz", "--runs", "3", "--session", "3"], "--session takes a whole number from 0 to 2, not \"3\""),
    ])
    func badUsageExitsTwoWithOneMessage(arguments: [String], message: String) throws {
        let result = try TestSupport.runBinary(arguments)
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
