import AppFlow
import Foundation
import Fuzzing
import Scenarios
import StoreSim
import Subscriptions
import Testing
import WhiteLabel

@testable import Simulation

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

        // It went everywhere: every screen, every kind of step a scenario can say, faults that fired.
        let coverage = result.coverage
        #expect(coverage.screens == Set(ScreenID.allCases.map(\.rawValue)))
        let kinds = [
            "confirm payment", "cancel payment", "double-tap offer", "answer gate", "restore", "login", "signup",
            "logout", "accept transfer", "decline transfer", "cancel auto-renew", "parent approve", "parent decline",
            "store renew", "store expire", "store refund", "store revoke", "store billing-issue", "store recover",
            "advance", "background", "foreground", "restart app", "new device", "kill", "inject", "storefront",
            "store resolve-interrupted",
        ]
        for kind in kinds { #expect((coverage.steps[kind] ?? 0) >= 10, "\(kind): \(coverage.steps[kind] ?? 0)") }
        #expect(coverage.faultsFired > 1_000)
        // Every target the sessions draw fired, the server's endpoint for Apple's notifications too (session 31).
        for target in BackendFault.targets + StoreFaultTarget.allCases.map(\.rawValue) {
            #expect((coverage.faultsByTarget[target] ?? 0) >= 10, "\(target): \(coverage.faultsByTarget[target] ?? 0)")
        }
        #expect(!coverage.summary.contains("none fired on"))
        #expect(coverage.withoutWaiting > 1_000)
        // Issue 12's places: the same button twice at once, and horizons past a year.
        #expect(coverage.doubleTaps > 500)
        #expect(coverage.pastAYear > 500)
    }

    /// The default seed alone was once lucky: other seeds broke invariants it never met. Two seeds that found
    /// bugs in the eleventh pass, a quarter of the default run each (`docs/RELIABILITY.md` has the whole sweep).
    @Test(arguments: [UInt64(3), 86])
    func otherSeedsHoldEveryInvariantToo(seed: UInt64) {
        let options = FuzzOptions(apps: resources.appNames(), runs: 500, seed: seed)
        let result = Fuzzer(options: options, resources: resources).run()
        #expect(result.failure == nil, "\(result.failure.map { "\($0.violation)\n\($0.scenario)" } ?? "")")
        #expect(result.sessions == 500)
    }

    @Test func sessionsKeptOnDiskHoldEveryInvariantToo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = FuzzOptions(apps: resources.appNames(), runs: 80, steps: 40, stateDirectory: directory)
        let result = Fuzzer(options: options, resources: resources).run()
        #expect(result.failure == nil, "\(result.failure.map { "\($0.violation)\n\($0.scenario)" } ?? "")")
        #expect(result.sessions == 80)
        // Each session's world was on disk: its ledger, the store's, and the phones' folders.
        let sessionFolder = "\(directory)/session-79"
        for file in ["backend.sqlite", "appstore.sqlite", "devices"] {
            #expect(FileManager.default.fileExists(atPath: "\(sessionFolder)/\(file)"), "\(file)")
        }
    }

    @Test func anAppThatUnlocksOnApplesPurchasedIsCaughtAndShrunkToAHandfulOfSteps() throws {
        let result = fuzzer(runs: 2_000, defect: .unlockOnPurchased).run()
        let failure = try #require(result.failure)
        #expect(failure.violation.invariant == .backendsWord)
        // The reader's and the world's actions, without the setup, the table texts and the expectation.
        let setupWords = [
            "#", "title", "sees", "expect", "defect", "app", "seed", "latency", "account", "inject", "launch",
        ]
        let steps = failure.scenario.split(separator: "\n").filter { line in
            !setupWords.contains { line.hasPrefix($0) }
        }
        // 11 since issue 15: the default run now meets the defect through an upgrade's transaction first.
        #expect(steps.count <= 12, "\(failure.scenario)")
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

    @Test(arguments: [
        (CoordinatorDefect.secondPayment, [Invariant.onePaymentAtATime], "double-tap offer"),
        (CoordinatorDefect.keepCache, [Invariant.contentFollowsLevels], "cached"),
        // Issue 12's defects 1, 2, 3 and 7, planted again: the default run finds each by itself. Two restores
        // at once break several promises at once (told, kept, moved); whichever the run meets first is right.
        (
            CoordinatorDefect.restoreTwice, [.toldIsTrue, .payingKeepsAccess, .movesOnlyAsAsked],
            "without waiting restore"
        ),
        // Since issue 15's draws, the run may first meet what the lost identity leads to: the reader, shown the
        // paywall again, buys the yearly plan as a crossgrade at the next renewal and is told it went through.
        // Since session 26 the levels' end too: a phone whose token expired cannot ask again past it, and keeps them.
        (CoordinatorDefect.anonymousTokenExpires, [.payingKeepsAccess, .toldIsTrue, .backendsWord], "advance"),
        (CoordinatorDefect.restoredWithoutAccess, [.toldIsTrue], "restore"),
        // Silent after an interrupted purchase resolved outside the app, it leaves the earlier "you were not charged" up
        // after the charge, which 9 judges first (session 31: the seed's sessions drew notifications faults since).
        (CoordinatorDefect.silentApproval, [.noSilentCharge, .toldIsTrue], "parent approve"),
        (CoordinatorDefect.skipParentalGate, [.parentalGateFirst], "select offer"),
        (CoordinatorDefect.gateAsksOneQuestion, [.parentalGateFirst], "answer gate"),
        (CoordinatorDefect.skipRestoreBeforePurchase, [.restoreBeforePurchase], "select offer"),
        (CoordinatorDefect.refreshPerCaller, [.receiptRefreshOnce], "without waiting"),
        (CoordinatorDefect.payForFirstOffer, [.sheetsTellTheTruth], "select offer"),
        (CoordinatorDefect.notActiveAfterPaying, [.toldIsTrue], "confirm payment"),
        (CoordinatorDefect.skipPriceConsent, [.priceConsentAsked], "price-increase"),
        (CoordinatorDefect.alertOnCancel, [.onePaymentAtATime], "cancel payment"),
        (CoordinatorDefect.skipAccountRequired, [.accountRequired], "app fit-track"),
        (CoordinatorDefect.skipPaymentsCheck, [.paymentsAllowedFirst], "payments restricted"),
        (CoordinatorDefect.closePaywallToFeed, [.subscriberPage], "confirm payment"),
        (CoordinatorDefect.skipTransferOffer, [.transferOffered], "sign in"),
        (CoordinatorDefect.subscriberTapIgnored, [.subscriberPage], "open paywall"),
        // Since session 33's draws (the phone's language), the run first meets the check that then times out: the
        // paywall closed as "purchased" before it, and the charge is left without access and without a word (11).
        (CoordinatorDefect.closeBeforeServerCheck, [.subscriberPage, .noSilentCharge], "confirm payment"),
        (CoordinatorDefect.manageSheetFromAccount, [.sheetsTellTheTruth], "manage subscription"),
        (CoordinatorDefect.transferMovesEnded, [.toldIsTrue], "accept transfer"),
        (CoordinatorDefect.consentFollowsTheSubscription, [.priceConsentAsked], "price-increase"),
        (CoordinatorDefect.sheetOpensOnItsFirstChoice, [.strayKeyMovesNoMoney], "select offer"),
        // Only where the owner keeps the ads for subscribers, which the sessions draw (session 35).
        (CoordinatorDefect.adsHiddenFromEverySubscriber, [.survivesRestartAndAds], "ads-for-subscribers shown"),
        // Only where the owner chose a restore policy other than transfer, which the sessions draw (session 35); what the
        // reader is told of the policy (9) may be met before the move itself (12).
        (CoordinatorDefect.restoreIgnoresPolicy, [.movesOnlyAsAsked, .toldIsTrue], "restore-policy"),
        // Seen only from the backend's side (session 37): the phone keeps the newest answer it heard, so invariant 1's
        // comparison with that answer holds; what the backend grants after the app came back does not.
        (CoordinatorDefect.foregroundKeepsLevels, [.backendsWord, .payingKeepsAccess], "foreground"),
        // Only the plan-name check reads a plan's name (session 38): the profile named it by its identifier.
        (CoordinatorDefect.titleByIdentifier, [.toldIsTrue], "open profile"),
        // Only the check of the renewal words against the storefront reads a plan the storefront does not sell
        // (session 39): the profile said it renews where Apple ends it.
        (CoordinatorDefect.unsoldPlanSaidToRenew, [.toldIsTrue], "storefront"),
        // Only the member's phone sees it (session 39): the server hears Apple's REVOKE, and the app, never told, keeps
        // the share's levels; the member's phone is on screen only after a family member joined.
        (CoordinatorDefect.revocationKeptFromTheApp, [.familySharedFollowsSharing], "family add"),
        // A parent's "no" heard and not told (session 39: a launch after a restart heard only a failed payment).
        (CoordinatorDefect.silentDecline, [.noSilentCharge], "parent decline"),
        // "Found meanwhile" said of a failed payment where nothing was found (session 40): the run's failed payments are
        // mostly injected faults, under which the words are judged too.
        (CoordinatorDefect.foundMeanwhileUnfounded, [.toldIsTrue], "confirm payment"),
        // A request refused as expired after another's refresh trades the replaced token again (session 42): the
        // phone's own token is spent a step or more before the refusal, so only the session the server holds shows it.
        (CoordinatorDefect.replacedRefreshTokenTradedAgain, [.payingKeepsAccess], "without waiting"),
        // A charge told again in its first words needs its alert left up across a restart or a kill, with Apple's
        // refund between: seed 1's 2,000 sessions meet none; seed 5's 497th does (session 42).
        (CoordinatorDefect.chargeToldAgainAsFirstTold, [.toldIsTrue], "restart app"),
        // A refresh the reader cancels is drawn with the refresh's other faults (session 43): seed 1's 38th session
        // cancels the sign-in of a new phone's restore.
        (CoordinatorDefect.refreshCancelToldAsError, [.onePaymentAtATime], "restore"),
        // A charge told while another alert is up, dropped: only the charge's own words tell it (session 43). A charge
        // nobody on screen waited for is told as it lands, over whatever is up.
        (CoordinatorDefect.chargeHiddenBehindAnotherAlert, [.noSilentCharge], "parent approve"),
        // Only the check of the profile's trial words reads a free trial on it (session 44): the profile said "renews
        // on" the day Apple's sheet says the trial ends.
        (CoordinatorDefect.profileTrialToldAsRenewal, [.toldIsTrue], "open profile"),
        // A free trial told in words of money (session 45): a trial whose check fails is "your payment went through",
        // judged whatever the faults, and seed 1's 4th session's fails under one.
        (CoordinatorDefect.trialToldAsCharge, [.toldIsTrue], "confirm payment"),
        // A guest's list kept after its move forgot it: only the check of whose plans the profile lists reads it
        // (session 45), once another account signs in on the phone.
        (CoordinatorDefect.profileKeepsMovedGuestPlans, [.toldIsTrue], "sign in"),
    ])
    func everyDefectIsCaughtByItsInvariant(defect: CoordinatorDefect, invariants: [Invariant], clue: String) throws {
        // A defect only a rare path meets is looked for where the draws meet it: since session 33's (the phone's
        // language), seed 1's 2,000 sessions raise no price the consent-following defect mistakes; seed 3's 119th does.
        let seed: UInt64 =
            switch defect {
            case .consentFollowsTheSubscription: 3
            case .chargeToldAgainAsFirstTold: 5
            default: 1
            }
        let failure = try #require(fuzzer(runs: 2_000, seed: seed, defect: defect).run().failure)
        #expect(invariants.contains(failure.violation.invariant), "\(failure.violation)")
        // Caught by the check from the backend's side, not by an older one that happens to meet it.
        if defect == .foregroundKeepsLevels {
            #expect(failure.violation.detail.contains("grants"), "\(failure.violation)")
        }
        if defect == .titleByIdentifier {
            #expect(failure.violation.detail.contains("names a plan by its identifier"), "\(failure.violation)")
        }
        if defect == .unsoldPlanSaidToRenew {
            #expect(failure.violation.detail.contains("does not sell"), "\(failure.violation)")
        }
        if defect == .foundMeanwhileUnfounded {
            #expect(failure.violation.detail.contains("no subscription the reader holds gives"), "\(failure.violation)")
        }
        if defect == .replacedRefreshTokenTradedAgain {
            #expect(
                failure.violation.detail.contains("spent by a trade of one it had replaced"), "\(failure.violation)")
        }
        if defect == .chargeToldAgainAsFirstTold {
            #expect(failure.violation.detail.contains("told again at its launch"), "\(failure.violation)")
        }
        if defect == .profileTrialToldAsRenewal {
            #expect(failure.violation.detail.contains("a free trial Apple ends then"), "\(failure.violation)")
        }
        if defect == .trialToldAsCharge {
            #expect(failure.violation.detail.contains("cost nothing"), "\(failure.violation)")
        }
        if defect == .profileKeepsMovedGuestPlans {
            #expect(failure.violation.detail.contains("ever held"), "\(failure.violation)")
        }
        if defect == .revocationKeptFromTheApp {
            #expect(failure.violation.detail.contains("Apple took back"), "\(failure.violation)")
        }
        // A double tap is written as one step, or as the same step again without waiting for the first.
        // A parent's approval is also the Transaction Manager's, on one request (`store approve ask-to-buy-N`).
        var clues = clue == "double-tap offer" ? [clue, "without waiting select offer"] : [clue]
        // An offer code redeemed on the App Store, a plan switched in Apple's settings or the Transaction Manager, or an
        // interrupted purchase resolved outside the app, reaches the observer as a purchase nobody waits for too.
        if clue == "parent approve" {
            clues += ["store approve", "redeem code", "switch plan", "store upgrade", "store resolve-interrupted"]
        }
        if clue == "sign in" { clues = ["login ", "signup "] }
        if clue == "parent decline" { clues.append("store decline") }
        if clue == "open paywall" { clues.append("\nsubscribe\n") }
        if clue == "restart app" { clues.append("\nkill\n") }
        #expect(clues.contains { failure.scenario.contains($0) }, "\(failure.scenario)")
        let caught = "invariant \(failure.violation.invariant.rawValue)"
        #expect(try play(failure.scenario).failure?.actual.contains(caught) == true)
        // Without the planted defect the same steps hold: it is the defect that breaks them.
        var healthy = failure.scenario.replacingOccurrences(of: "defect \(defect.rawValue)\n", with: "")
        // A healthy app refuses a phone that cannot pay before its parental gate: the gate a broken one showed
        // is not there to answer.
        if defect == .skipPaymentsCheck {
            healthy = healthy.replacingOccurrences(of: "\nanswer gate", with: "\ntry answer gate")
        }
        #expect(healthy != failure.scenario)
        #expect(try play(healthy).passed, "\(healthy)")
    }

    /// A receipt in flight when the app quits is rare in the default run (a charge that needs no sheet, sent
    /// without waiting, then a restart): the two scenarios that found it stand in for the run, each with the
    /// defect planted, caught by the invariant that judges it, and holding without it.
    @Test(arguments: [
        ("found-by-hand/20-first-purchase-answer-lost-at-restart", Invariant.payingKeepsAccess),
        ("found-by-fuzzing/receipt-answer-lost-at-restart", .survivesRestartAndAds),
    ])
    func aReceiptWhoseAnswerAQuitLostIsSentAgainAtLaunch(scenario: String, invariant: Invariant) throws {
        let healthy = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/scenarios/\(scenario).scenario", encoding: .utf8)
        #expect(try play(healthy).passed)
        let broken = healthy.replacingOccurrences(
            of: "\nlaunch\n", with: "\ndefect forget-unanswered-receipt\nlaunch\n")
        #expect(broken != healthy)
        let failure = try #require(try play(broken).failure)
        #expect(failure.step == "expect invariants")
        #expect(failure.actual.contains("invariant \(invariant.rawValue) "), "\(failure.actual)")
    }

    /// Rare in the default run (a month away, a shared phone with a failed check and a lost notification, a phone
    /// that cannot pay whose Apple ID already pays, a second phone buying another plan of the group, a billing issue recovered (past its grace, or within it with the profile open) with the
    /// app running and no fault since, a double Enter on "Create account" answered in order, the same log-in sent twice whose later one a fault
    /// refused first, a restore answered while its account logs in again), so the scenario that showed each stands in: it holds; with the
    /// old behaviour planted and the words that behaviour changes taken out, its invariants fail on the rule's number.
    /// 481 stands beside the run's own find of its defect (a member leaving the family): sharing turned off is the
    /// other way Apple takes a share back, caught the same way.
    @Test(arguments: [
        (
            "26-signed-out-after-a-month-away", CoordinatorDefect.silentSessionEnd, ["expect alert \"Signed out\"\n"],
            Invariant.payingKeepsAccess, "signed out of ana@example.com"
        ),
        (
            "27-resubscription-reported-by-another-accounts-restore", .restoreIgnoresWhoPaid,
            [
                "expect timeline \"follows who paid\"\n", "expect screen transfer-prompt\n", "decline transfer\n",
                "restore\nexpect levels none\n",
            ], .movesOnlyAsAsked, "was paid by"
        ),
        (
            "29-purchases-off-but-already-paid-for", .skipRestoreBeforePurchase,
            [
                "expect alert \"This Apple ID already had a subscription. It is now on your account; you were not "
                    + "charged.\"\nexpect levels premium\n"
            ], .restoreBeforePurchase, "told purchases are off"
        ),
        (
            "34-resubscription-read-from-apples-status-follows-who-paid", .statusIgnoresWhoPaid,
            ["expect timeline \"follows who paid\"\n"], .movesOnlyAsAsked, "was paid by"
        ),
        (
            "36-payment-only-for-a-product-the-store-returned", .payUnreturnedProduct, [], .paywallOffers,
            "did not return"
        ),
        (
            "41-a-plan-change-kept-for-the-next-renewal-ends-the-purchase", .paymentKnownByProduct,
            [
                "expect alert \"Apple switches it to the plan you chose at its next renewal\"\n",
                "expect no text \"Waiting for the App Store\"\n",
            ], .onePaymentAtATime, "with nothing on its way"
        ),
        (
            "430-a-recovery-past-the-grace-period-reaches-the-running-app", .recoveryKeptFromTheApp,
            [
                "expect levels premium\nexpect content night-trains unlocked\n"
                    + "expect text \"fourteen hours, three countries\"\n"
                    + "# Told as what it is, not as a purchase (session 35, found-by-hand/440).\n"
                    + "expect alert \"Subscription active again\"\n"
            ], .payingKeepsAccess, "while the app ran"
        ),
        (
            "523-a-restore-answered-while-its-account-logs-in-again-is-his", .wentElsewhereToldAtOnce,
            [
                "expect no text \"Log in again to use them\"\nexpect alert \"Restored\"\n"
                    + "expect timeline \"a sign-in is on its way: the restore's outcome waits for who it lands on\"\n"
            ], .toldIsTrue, "the account it went to"
        ),
        (
            "524-a-recovery-in-the-grace-period-reaches-the-open-profile", .recoveryKeptFromTheApp,
            [
                "expect no text \"Apple is retrying\"\nexpect no text \"Update it in the App Store\"\n"
                    + "expect text \"Premium Monthly: renews on 2026-05-02\"\n"
            ], .toldIsTrue, "while the app ran, and holds it active"
        ),
        (
            "481-a-share-taken-back-while-the-member-reads-locks-at-once", .revocationKeptFromTheApp,
            [
                "expect ads shown\nexpect levels none\n"
                    + "expect timeline \"observer ← entitlements revoked: com.dailynews.premium.yearly\"\n",
                "expect content night-trains locked\nexpect text \"Subscribe to read the full article.\"\n",
            ], .familySharedFollowsSharing, "while the app on kid-iphone ran"
        ),
        (
            "472-create-account-pressed-twice-signs-the-reader-in", .formSendsTwice,
            [
                "expect text \"Creating account…\"\n", "expect timeline \"Creating account…\"\n",
                "expect timeline once \"→ POST /v1/accounts\"\n",
                "expect identity account quinn@example.com\nexpect no alert\n",
            ], .toldIsTrue, "accepted the same sign-in"
        ),
        (
            "493-the-same-log-in-refused-first-by-a-fault-signs-the-reader-in", .sameLogInRefusedEarly,
            [
                "expect timeline \"the same log-in is still on its way: this refusal waits for its answer\"\n",
                "expect timeline \"the same log-in was sent again: this one's acceptance answers it\"\n",
                "expect identity account ana@fuzz.test\nexpect no alert\n",
            ], .toldIsTrue, "accepted the same sign-in"
        ),
        (
            // The phone spends its own refresh token a step before the refusal that signs ben out: judged by the
            // session the server holds, not by the token the phone held as the refusal's step began.
            "515-a-refresh-answered-after-newer-news-keeps-the-session", .replacedRefreshTokenTradedAgain,
            ["expect no alert\nexpect identity account ben@news.test\nexpect levels premium\n"], .payingKeepsAccess,
            "ben@news.test ended, but the server still holds it (the phone's refresh token was spent by a trade"
        ),
        (
            "518-a-charge-told-again-after-a-quit-is-not-active-once-refunded", .chargeToldAgainAsFirstTold,
            [
                "expect alert \"Before the app closed, a free trial of a subscription started. It is not "
                    + "active now.\"\nexpect no text \"Your subscription is active\"\n"
            ], .toldIsTrue, "entitles reader@icloud.test to nothing"
        ),
        (
            // A free week a parent approved, told "charged this Apple ID" (session 45): the words of money held to
            // the transaction's price.
            "546-a-free-trial-approved-is-told-as-a-trial-not-a-charge", .trialToldAsCharge,
            [
                "expect alert \"Free trial started\"\nexpect alert \"Your free trial of Listener+ Monthly has started\"\n"
                    + "expect no text \"charged this Apple ID\"\nexpect no text \"Purchase complete\"\n"
            ], .toldIsTrue, "which cost nothing (a free trial of com.podcastclub.listener.monthly)"
        ),
        (
            // A free week whose check failed under an injected fault, told "Your payment went through" (session 45):
            // judged whatever the faults.
            "547-a-free-trials-check-and-first-charge-are-told-as-what-they-cost", .trialToldAsCharge,
            [
                "expect alert \"Your free trial started but could not be confirmed\"\n"
                    + "expect no text \"Your payment went through\"\n"
            ], .toldIsTrue, "went through, but the App Store started a free trial, which cost nothing"
        ),
    ])
    func aRuleFoundByHandIsCaughtByItsInvariant(
        scenario: String, defect: CoordinatorDefect, changedWords: [String], invariant: Invariant, clue: String
    ) throws {
        let path = "\(TestSupport.packageRoot)/scenarios/found-by-hand/\(scenario).scenario"
        let healthy = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try play(healthy).passed)
        var broken = healthy.replacingOccurrences(of: "\nlaunch\n", with: "\ndefect \(defect.rawValue)\nlaunch\n")
        for words in changedWords {
            // A restore step the words followed stays: only the expectation after it goes.
            let kept = words.hasPrefix("restore\n") ? "restore\n" : ""
            #expect(broken.contains(words), "\(words)")
            broken = broken.replacingOccurrences(of: words, with: kept)
        }
        let failure = try #require(try play(broken).failure)
        #expect(failure.step == "expect invariants")
        #expect(failure.actual.contains("invariant \(invariant.rawValue) "), "\(failure.actual)")
        #expect(failure.actual.contains(clue), "\(failure.actual)")
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
