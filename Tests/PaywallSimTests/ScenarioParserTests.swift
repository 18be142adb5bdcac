import AppFlow
import Scenarios
import Simulation
import Testing
import WhiteLabel

/// The scenario language: every step kind parses, and a mistake names file:line and what is wrong.
@Suite struct ScenarioParserTests {
    private func kinds(_ text: String) throws -> [StepKind] {
        try ScenarioParser.parse(text, file: "t.scenario").steps.map(\.kind)
    }

    private func error(_ text: String) -> String {
        do {
            _ = try ScenarioParser.parse(text, file: "t.scenario")
            return "parsed"
        } catch {
            return error.description
        }
    }

    @Test func setupStepsAndTheTableTexts() throws {
        let scenario = try ScenarioParser.parse(
            """
            # a comment line
            title A reader subscribes   # trailing comment
            sees "The article opens"
            app kids-stories
            seed 7
            storefront GBR
            locale en_GB
            device ipad
            apple-id child@icloud.test
            account reader@example.test correct-horse
            latency slow
            inject payment error times 2
            launch
            """, file: "t.scenario")
        #expect(scenario.title == "A reader subscribes")
        #expect(scenario.sees == "The article opens")
        #expect(scenario.steps.count == 10)
        #expect(scenario.steps.first?.line == 4)
        guard case .setup(.account(let email, let password)) = scenario.steps[6].kind,
            case .world(.inject(let plan)) = scenario.steps[8].kind, case .launch = scenario.steps[9].kind
        else {
            Issue.record("wrong kinds: \(scenario.steps.map(\.text))")
            return
        }
        #expect(email == "reader@example.test" && password == "correct-horse")
        #expect(plan.rules.map(\.description) == ["payment error times 2"])
    }

    /// A recording writes what the reader typed; any email or password reads back the same (a password with a space
    /// made the recording unplayable, one with `#` was cut as a comment).
    @Test(arguments: [
        ("ann@ex.com", "correct horse"), ("ann@ex.com", "pa ss#wörd"), ("mom \"quote\"@ex.com", "back\\slash \""),
        ("a@b.test", "plain"), ("", ""),
    ])
    func credentialsReadBackAsTyped(_ email: String, _ password: String) throws {
        for action in [ReaderAction.logIn(email: email, password: password), .signUp(email: email, password: password)]
        {
            let line = StepText.reader(action) + "  # a comment"
            #expect(try kinds(line) == [.reader(action)], "\(line)")
        }
        // The account a recording expects at its end reads back the same (one with `#` was cut as a comment, session 25).
        if !email.isEmpty {
            let expectation = StepText.line(.expect(.identity(.account(email))))
            #expect(try kinds(expectation) == [.expect(.identity(.account(email)))], "\(expectation)")
        }
        let setup = StepText.line(.setup(.account(email: email, password: password)))
        // An account the backend would refuse is refused as the file is read, not when the world is built.
        if World.accountProblem(email: email, password: password) == nil {
            #expect(try kinds(setup) == [.setup(.account(email: email, password: password))], "\(setup)")
        } else {
            #expect(throws: (any Error).self) { try kinds(setup) }
        }
    }

    /// A recording of `run --storekit "My Products.storekit"` wrote `app /path/My Products.storekit`, and `play`
    /// refused its own recording at that line (session 33): a path reads back as it was given.
    @Test(arguments: ["/tmp/qa/My Products.storekit", "odd shape.storekit", "/tmp/a#b/x.storekit", "daily-news"])
    func appAndStoreKitPathsReadBackAsGiven(_ path: String) throws {
        for setup in [SetupStep.app(path), .storekit(path)] {
            let line = StepText.line(.setup(setup)) + "  # a comment"
            #expect(try kinds(line) == [.setup(setup)], "\(line)")
        }
    }

    @Test func everyReaderAction() throws {
        let text = """
            open feed
            open paywall
            open profile
            open content night-trains
            back
            select offer premium-monthly
            subscribe
            answer gate 56
            answer gate
            answer gate ""
            confirm payment
            cancel payment
            restore
            login a@b.test secret-password
            signup a@b.test secret-password
            logout
            accept transfer
            decline transfer
            manage subscription
            cancel auto-renew
            """
        let actions = try kinds(text).map { kind -> ReaderAction? in
            if case .reader(let action) = kind { action } else { nil }
        }
        #expect(
            actions == [
                .openFeed, .openPaywall, .openProfile, .openContent("night-trains"), .back,
                .selectOffer("premium-monthly"), .subscribe, .answerGate("56"), .answerGate(nil),
                .answerGate(""), .confirmPayment, .cancelPayment,
                .restore, .logIn(email: "a@b.test", password: "secret-password"),
                .signUp(email: "a@b.test", password: "secret-password"), .logOut, .acceptTransfer, .declineTransfer,
                .manageSubscription, .setAutoRenew(false),
            ])
    }

    @Test func everyWorldStep() throws {
        let text = """
            advance 3s
            advance 2d
            advance 1mo
            store renew
            store expire
            store refund
            store revoke
            store billing-issue
            store recover
            parent approve
            parent decline
            background
            foreground
            restart app
            new device ipad
            kill
            store resolve-interrupted
            store price-increase
            ask-to-buy on
            ask-to-buy off
            payments restricted
            payments allowed
            remove receipt
            clear faults payment
            reader-age 12
            reader-age adult
            """
        let steps = try kinds(text).map { kind -> WorldAction? in
            if case .world(let step) = kind { step } else { nil }
        }
        #expect(
            steps == [
                .advance(.fixed(.seconds(3))), .advance(.fixed(.days(2))), .advance(.months(1)), .renew,
                .expire, .refund, .revoke, .billingIssue(true), .billingIssue(false),
                .parentApprove, .parentDecline, .background, .foreground, .restartApp, .newDevice("ipad"), .kill,
                .resolveInterrupted, .priceIncrease, .askToBuy(true), .askToBuy(false),
                .payments(allowed: false), .payments(allowed: true), .removeReceipt, .clearFaults("payment"),
                .readerAge(12), .readerAge(nil),
            ])
        // Printed back, each is the line it was read from: a recording says what a scenario says.
        #expect(steps.compactMap { $0 }.map(\.text) == text.split(separator: "\n").map(String.init))
    }

    @Test func everyExpectation() throws {
        let text = """
            expect screen app-store-sheet
            expect offers premium-yearly, premium-monthly
            expect levels premium, kids
            expect levels none
            expect identity anonymous
            expect identity account a@b.test
            expect identity none
            expect content night-trains unlocked
            expect ads hidden
            expect alert "Purchase failed"
            expect no alert
            expect text "ends on # not a comment"
            expect no text "renews on"
            expect charges 2
            expect charges 1 kid@icloud.test
            expect pending payment
            expect timeline "POST /v1/receipts"
            expect timeline once "storefront DEU refused"
            expect invariants
            expect nothing lost
            """
        let expectations = try kinds(text).map { kind -> ScenarioExpectation? in
            if case .expect(let expectation) = kind { expectation } else { nil }
        }
        #expect(
            expectations == [
                .screen(.appStoreSheet), .offers(["premium-yearly", "premium-monthly"]), .levels(["premium", "kids"]),
                .levels([]), .identity(.anonymous), .identity(.account("a@b.test")), .identity(.none),
                .content(id: "night-trains", unlocked: true), .ads(shown: false), .alert("Purchase failed"), .noAlert,
                .text("ends on # not a comment"), .noText("renews on"), .charges(2, appleId: nil),
                .charges(1, appleId: "kid@icloud.test"), .pendingPayment,
                .timeline("POST /v1/receipts"), .timelineOnce("storefront DEU refused"),
                .invariants, .nothingLost,
            ])
    }

    @Test(arguments: [
        ("launch\nexpect screne feed", "t.scenario:2: unknown expectation \"screne\""),
        ("launch\n\nexpect screen home", "t.scenario:3: unknown screen \"home\" (screens: feed, content"),
        ("fly away", "t.scenario:1: unknown step \"fly\""),
        ("advance soon", "t.scenario:1: \"soon\" is not a duration"),
        ("inject payment explode", "t.scenario:1: payment has no fault \"explode\": use error, timeout"),
        // Apple's notification and the server's notifications differ by one letter: each names the other (session 31).
        (
            "inject notifications dropped",
            "t.scenario:1: \"notifications dropped\": dropped is a fault of Apple's notification target"
        ),
        (
            "inject notification malformed",
            "t.scenario:1: \"notification malformed\": malformed is a fault of the server's notifications target"
        ),
        (
            "inject warp-drive error",
            "t.scenario:1: \"warp-drive error\": unknown target (targets: products-request"
        ),
        ("latency instant", "t.scenario:1: unknown latency profile \"instant\""),
        ("launch\nseed 3", "t.scenario:2: seed builds the world, so it must come before launch"),
        ("launch\nlaunch", "t.scenario:2: launch must come once"),
        // A step before launch is named at its own line, not the launch's (session 32, h13 05).
        (
            "app daily-news\nopen paywall\nlaunch",
            "t.scenario:2: open must come after launch (line 3): only setup goes before it (in \"open paywall\")"
        ),
        ("expect screen feed\nlaunch", "t.scenario:1: expect must come after launch (line 2)"),
        ("refresh-token-lifetime soon", "t.scenario:1: \"soon\" is not a duration of at most ten years, such as 30d"),
        (
            "launch\nrefresh-token-lifetime 30d",
            "t.scenario:2: refresh-token-lifetime builds the world, so it must come"
        ),
        ("app daily-news\napp fit-track\nlaunch", "t.scenario:2: app is given twice: first on line 1"),
        // The owner's choice of ads for subscribers (session 35): a setup line, once, before launch.
        ("ads-for-subscribers maybe", "t.scenario:1: ads-for-subscribers takes shown or hidden, not \"maybe\""),
        ("launch\nads-for-subscribers shown", "t.scenario:2: ads-for-subscribers builds the world, so it must come"),
        (
            "ads-for-subscribers shown\nads-for-subscribers hidden",
            "t.scenario:2: ads-for-subscribers is given twice: first on line 1"
        ),
        ("seed 1\n\nseed 2", "t.scenario:3: seed is given twice: first on line 1"),
        ("expect alert Purchase failed", "t.scenario:1: the text goes in double quotes"),
        ("expect no text hello", "t.scenario:1: the text goes in double quotes: write expect no text \"TEXT\""),
        ("expect no", "t.scenario:1: write expect no alert or expect no text \"TEXT\""),
        ("expect charges many", "t.scenario:1: expect charges takes a whole number"),
        ("select premium", "t.scenario:1: write select offer ID"),
        ("# only a comment", "t.scenario: no steps"),
        ("try", "t.scenario:1: try what? write an action after it"),
        ("try expect no alert", "t.scenario:1: try goes before an action"),
        ("without waiting seed 3", "t.scenario:1: without waiting goes before an action"),
        ("defect sloppy", "t.scenario:1: unknown defect \"sloppy\" (defects: unlock-on-purchased"),
        // Failed as a test at launch or halfway through the run, not as a malformed file (session 24).
        ("storefront XXX", "t.scenario:1: unknown storefront \"XXX\" (storefronts: USA"),
        ("account bob short", "t.scenario:1: account: \"bob\" is not an email address"),
        ("account bob@ex.test short", "t.scenario:1: account: a password needs at least 8 characters"),
        ("launch\nclear faults nowhere", "t.scenario:2: clear faults takes an App Store fault target"),
        // Lengths past ten years crashed with an arithmetic overflow, or ran for minutes.
        ("launch\nadvance 106751991168d", "t.scenario:2: \"106751991168d\" is not a duration of at most ten years"),
        ("launch\nadvance 3661d", "t.scenario:2: \"3661d\" is not a duration of at most ten years"),
        ("launch\nadvance 999999999999mo", "t.scenario:2: \"999999999999mo\" is longer than 120mo"),
        ("inject backend slow:106751991168d", "t.scenario:1: \"backend slow:106751991168d\": slow takes a"),
        ("inject notification delayed:99999999999d", "t.scenario:1: \"99999999999d\" is not a length of at most"),
        // A price the config refuses: "5,99" was read as 5.00, "1e3" as 1000, twenty digits taken (session 26).
        ("launch\nstore price-increase p 5,99", "t.scenario:2: \"5,99\" is not a decimal price above 0 such as 12.99"),
        ("launch\nstore price-increase p 1e3", "t.scenario:2: \"1e3\" is not a decimal price above 0"),
        ("launch\nstore price-increase p 12345678901234567890", "t.scenario:2: \"12345678901234567890\" is not a"),
        ("launch\nstore price-increase p 4.9999", "t.scenario:2: \"4.9999\" is not a decimal price above 0"),
        ("launch\nstore price-increase p 0", "t.scenario:2: \"0\" is not a decimal price above 0"),
        ("launch\nstore price-increase p", "t.scenario:2: write store price-increase PRODUCT PRICE"),
    ])
    func malformedLinesNameTheFileLineAndWhatIsWrong(_ text: String, _ message: String) {
        #expect(error(text).hasPrefix(message), "\(error(text))")
    }

    @Test func faultsAreCheckedAsTheStoreAndBackendDefineThem() throws {
        #expect(try kinds("inject payment deferred; receipts error times 2").count == 1)
        #expect(error("inject payment error sometimes").contains("after the fault write times N, always or chance P"))
    }

    @Test func tryAndWithoutWaitingComeBeforeAnAction() throws {
        let steps = try ScenarioParser.parse(
            """
            defect keep-cache
            launch
            try restore
            without waiting confirm payment
            try without waiting restart app
            open feed
            """, file: "t.scenario"
        ).steps
        #expect(steps.map(\.mayFail) == [false, false, true, false, true, false])
        #expect(steps.map(\.waits) == [true, true, true, false, false, true])
        #expect(steps[4].kind.isAction)
        guard case .setup(.defect(.keepCache)) = steps[0].kind else {
            Issue.record("defect keep-cache: \(steps[0].kind)")
            return
        }
    }

    @Test func aStepsCommentIsItsCaptionOnItsOwnLineOrJustAbove() throws {
        let steps = try ScenarioParser.parse(
            """
            # The file's heading, above the title: no step's caption.
            title Captions
            launch
            # The reader opens the article:
            # it is locked.
            open content night-trains
            subscribe   # to the paywall
            # This comment is cut off by the blank line below.

            expect screen paywall
            # Above, but the step's own comment wins.
            expect text "Subscribe #1"   # the quoted # is text
            """, file: "t.scenario"
        ).steps
        #expect(
            steps.map(\.caption) == [
                nil, "The reader opens the article: it is locked.", "to the paywall", nil, "the quoted # is text",
            ])
        #expect(steps[4].text == "expect text \"Subscribe #1\"")
    }
}

/// The lines `compare` reads: `vary`, `expect diverge`, `when`, and the settings it varies.
@Suite struct CompareLinesParserTests {
    @Test func varyExpectDivergeAndWhenAreRead() throws {
        let scenario = try ScenarioParser.parse(
            """
            vary restore-policy=transfer,keep-with-original-owner
            finish after
            launch
            when restore-policy=transfer expect levels none
            expect diverge at restore
            """, file: "t.scenario")
        #expect(scenario.variation?.labels == ["restore-policy=transfer", "restore-policy=keep-with-original-owner"])
        #expect(scenario.divergence?.line == 5)
        #expect(scenario.divergence?.step == "restore")
        #expect(scenario.steps[0].kind == .world(.finish(.afterServerCheck)))
        #expect(scenario.steps[2].condition == "restore-policy=transfer")
        #expect(scenario.steps[2].text == "expect levels none")
        #expect(scenario.needsComparison)
    }

    @Test func aQuotedWhenNamesAWorldWhoseValueHasSpaces() throws {
        let scenario = try ScenarioParser.parse(
            """
            vary inject=receipts error times 1,
            launch
            when "inject=receipts error times 1" back
            when inject=(none) expect no alert
            """, file: "t.scenario")
        #expect(scenario.steps[1].condition == "inject=receipts error times 1")
        #expect(scenario.steps[1].text == "back")
        #expect(scenario.steps[2].condition == "inject=(none)")
        #expect(scenario.variation?.labels == ["inject=receipts error times 1", "inject=(none)"])
    }

    @Test func mistakesNameTheLine() {
        let cases = [
            ("launch\nvary colour=red,blue\n", "t.scenario:2", "unknown key \"colour\""),
            ("vary finish=before,after\nvary latency=fast,slow\n", "t.scenario:2", "one vary line per scenario"),
            ("restore-policy share\n", "t.scenario:1", "unknown restore policy \"share\""),
            ("launch\nwhen restore\n", "t.scenario:2", "write when KEY=VALUE STEP"),
            ("launch\nrestore-policy transfer\n", "t.scenario:2", "builds the world"),
            // The value of `--vary "inject=receipts error times 1,"` has spaces: its `when` read `error` as the step,
            // and nothing said how to write it (session 33).
            (
                "launch\nwhen inject=receipts error times 1 back\n", "t.scenario:2",
                "a world whose value has spaces is quoted: when \"inject=receipts error times 1\" STEP"
            ),
        ]
        for (text, file, message) in cases {
            #expect {
                try ScenarioParser.parse(text, file: "t.scenario")
            } throws: { error in
                guard let error = error as? ConfigError else { return false }
                return error.file == file && error.message.contains(message)
            }
        }
    }
}
