import Foundation
import Testing

/// `paywall-sim play` as CI calls it: exit codes, and each report.
@Suite struct ScenarioCommandTests {
    private let passing = """
        title Buying the monthly plan
        sees The article opens
        launch
        open paywall
        select offer premium-monthly
        confirm payment
        expect levels premium
        """

    private func folder(_ files: [String: String]) throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        for (name, text) in files { try text.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        return directory
    }

    @Test func passingScenariosExitZeroWithTheTable() throws {
        let directory = try folder(["a.scenario": passing])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("scenario"))
        #expect(result.stdout.contains("Buying the monthly plan  passed  5/5"))
        #expect(result.stdout.contains("1 passed, 0 failed"))
    }

    @Test func aFailureExitsOneAndShowsFileLineExpectedActualAndTheScreen() throws {
        let directory = try folder(["a.scenario": passing, "b.scenario": "launch\nexpect screen paywall\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 1)
        #expect(result.stdout.contains("\(directory)/b.scenario:2: expect screen paywall"))
        #expect(result.stdout.contains("expected: screen paywall"))
        #expect(result.stdout.contains("actual:   screen feed"))
        #expect(result.stdout.contains("[feed]"))
        #expect(result.stdout.contains("1 passed, 1 failed"))
    }

    /// After a kill the app shows nothing: its frozen last screen passed `expect screen feed` (session 26).
    @Test func theScreenOfAKilledAppIsNotExpected() throws {
        let directory = try folder(["k.scenario": "launch\nkill\nexpect charges 0\nexpect screen feed\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 1)
        #expect(result.stdout.contains("\(directory)/k.scenario:4: expect screen feed"))
        #expect(result.stdout.contains("actual:   the app is not running (killed)"))
    }

    @Test func aMalformedFileExitsTwoWithFileAndLine() throws {
        let directory = try folder(["a.scenario": passing, "bad.scenario": "launch\n\nopen the door\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)/bad.scenario:3: write open feed, open paywall"))
        #expect(result.stdout.isEmpty)
    }

    /// An `app` or `storekit` line whose app cannot be loaded is a mistake in the file, as a parse error is: exit 2
    /// naming the line, TAP bails out, and no scenario of the folder runs.
    @Test(arguments: [
        ("app nosuchapp", "no demo app named \"nosuchapp\""),
        ("app /nonexistent/x.json", "/nonexistent/x.json: no such file"),
        ("storekit cut.storekit", "cut.storekit: line 2, column 1: is not valid JSON"),
    ])
    func aSetupLineWhoseAppCannotBeLoadedIsBadInputAtThatLine(line: String, reason: String) throws {
        let directory = try folder([
            "a.scenario": passing, "bad.scenario": "# an app that cannot be loaded\n\(line)\nlaunch\n",
            "cut.storekit": "{\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 2, "\(result.stdout)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("\(directory)/bad.scenario:2: "), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stderr.contains("(in \"\(line)\")"), "\(result.stderr)")
        let tap = try TestSupport.runBinary(["play", "\(directory)/bad.scenario", "--tap"])
        #expect(tap.code == 2)
        #expect(tap.stdout.contains("Bail out! \(directory)/bad.scenario:2: "), "\(tap.stdout)")
        #expect(!tap.stdout.contains("not ok"))
    }

    /// `play` over a folder holding a passing scenario and `bad.scenario` (`text`): refused as bad input, exit 2,
    /// nothing on stdout. The folder is gone when this returns: the stderr names it.
    private func playRefused(_ text: String) throws -> (
        directory: String, result: (code: Int32, stdout: String, stderr: String)
    ) {
        let directory = try folder(["a.scenario": passing, "bad.scenario": text])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 2, "\(result.stdout)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        return (directory, result)
    }

    /// A product the app does not sell is a mistake in the file, named with the products it does sell: `store
    /// price-increase com.nope 5.99` was a failed test, "the store refused it", exit 1 (session 26).
    @Test(arguments: ["store price-increase com.nope 5.99", "store upgrade com.nope"])
    func aStepNamingAProductTheAppDoesNotSellIsBadInputAtItsLine(line: String) throws {
        let (directory, result) = try playRefused("app daily-news\nlaunch\n\(line)\n")
        #expect(
            result.stderr.hasPrefix(
                "\(directory)/bad.scenario:3: unknown product \"com.nope\" (products: com.dailynews.premium.monthly, "
                    + "com.dailynews.premium.yearly)"), "\(result.stderr)")
    }

    /// A raised price with more decimals than the currency of the storefront in force has is a mistake in the file at its
    /// line: 1200.5 in the yen was raised, shown ¥1,200 and charged 1200.5 (session 34's note); 5.999 in dollars too.
    @Test(arguments: [
        (
            "storefront JPN\nlaunch\nstore price-increase com.c.monthly 1200.5\n", 4, "1200.5",
            "JPY prices have whole units in JPN"
        ),
        ("launch\nstore price-increase com.c.monthly 5.999\n", 3, "5.999", "USD prices have 2 decimals in USA"),
    ])
    func aRaisedPriceFinerThanTheCurrencyIsBadInputAtItsLine(lines: String, line: Int, price: String, why: String)
        throws
    {
        let storekit = "\(TestSupport.packageRoot)/scenarios/found-by-hand/cents.storekit"
        let (directory, result) = try playRefused("app \(storekit)\n\(lines)")
        #expect(
            result.stderr.hasPrefix("\(directory)/bad.scenario:\(line): \(price) is no price here: \(why)"),
            "\(result.stderr)")
    }

    /// An offer, a piece of content, a level or an offer code the app does not have, named by a step or an expectation,
    /// is a mistake in the file, named at its line with what the app has: `select offer premium-nope` (session 35) and
    /// `redeem code NOPE` (session 36) were failed tests, exit 1.
    @Test(arguments: [
        ("select offer premium-nope", "unknown offer \"premium-nope\" in Daily News (offers: premium-yearly, "),
        ("double-tap offer premium-nope", "unknown offer \"premium-nope\""),
        ("open content nope", "unknown content \"nope\" in Daily News (content: harbour-bridge, "),
        ("switch plan com.nope", "unknown product \"com.nope\""),
        ("expect levels premium, storys", "unknown level \"storys\" in Daily News (levels: premium)"),
        ("expect offers premium-monthly, nope", "unknown offer \"nope\""),
        ("expect content nope unlocked", "unknown content \"nope\""),
        ("redeem code NOPE", "unknown offer code \"NOPE\" in Daily News (offer codes: none)"),
    ])
    func aStepNamingAnIdTheAppDoesNotHaveIsBadInputAtItsLine(line: String, reason: String) throws {
        try expectRefusedAfterLaunch(line, reason)
    }

    /// A locale the store cannot serve is a mistake in the file, said as `check --locale` says it, before or after launch:
    /// `locale zz_ZZ` played in English without a word (session 28).
    @Test(arguments: [("locale sw_KE\nlaunch\n", 2), ("launch\nlocale sw_KE\n", 3)])
    func aLocaleTheStoreCannotServeIsBadInputAtItsLine(lines: String, line: Int) throws {
        let (directory, result) = try playRefused("app daily-news\n\(lines)")
        #expect(
            result.stderr.hasPrefix(
                "\(directory)/bad.scenario:\(line): no product is translated for \"sw_KE\" or its language, and the "
                    + "store has no prices in \"sw\""), "\(result.stderr)")
        #expect(result.stderr.contains("(in \"locale sw_KE\")"), "\(result.stderr)")
    }

    /// What is no locale, or no Apple ID, is a mistake at its line: `locale english` and `family add notanemail` were
    /// played without a word, the second making a family member of a typo on a phone of its own (session 38).
    @Test(arguments: [
        ("locale english", "\"english\" is not a locale such as fr_FR, fr-FR or fr"),
        ("family add notanemail", "family add: \"notanemail\" is not an email address, and an Apple ID is one"),
        ("family remove kid@icloud", "family remove: \"kid@icloud\" is not an email address"),
        ("expect charges 1 kid", "expect charges: \"kid\" is not an email address"),
    ])
    func aLocaleOrAppleIdThatIsNoneIsBadInputAtItsLine(line: String, reason: String) throws {
        try expectRefusedAfterLaunch(line, reason)
    }

    /// `line`, played after Daily News's launch (line 3), is refused at its line for `reason`, quoted as written.
    private func expectRefusedAfterLaunch(_ line: String, _ reason: String) throws {
        let (directory, result) = try playRefused("app daily-news\nlaunch\n\(line)\n")
        #expect(result.stderr.hasPrefix("\(directory)/bad.scenario:3: \(reason)"), "\(result.stderr)")
        #expect(result.stderr.contains("(in \"\(line)\")"), "\(result.stderr)")
    }

    @Test func anAppleIdThatIsNoEmailIsBadInputAtItsLine() throws {
        let (directory, result) = try playRefused("app daily-news\napple-id reader\nlaunch\n")
        #expect(
            result.stderr.hasPrefix("\(directory)/bad.scenario:2: apple-id: \"reader\" is not an email address"),
            "\(result.stderr)")
    }

    @Test func tapMarkdownAndJUnit() throws {
        let directory = try folder(["a.scenario": passing, "b.scenario": "launch\nexpect charges 3\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tap = try TestSupport.runBinary(["play", directory, "--tap"])
        #expect(tap.code == 1)
        #expect(tap.stdout.hasPrefix("TAP version 13\n1..2\nok 1 - Buying the monthly plan\nnot ok 2 - b\n"))
        #expect(tap.stdout.contains("#   expected: 3 charges"))
        let markdown = try TestSupport.runBinary(["play", "--markdown", directory])
        #expect(
            markdown.stdout.hasPrefix(
                "| What happens | What the reader sees | Result |\n| --- | --- | --- |\n"
                    + "| Buying the monthly plan | The article opens | passed |\n| b |  | failed at line 2 |"))
        let xml = "\(directory)/junit.xml"
        let junit = try TestSupport.runBinary(["play", directory, "--junit", xml])
        #expect(junit.code == 1)
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(text.contains("<testsuites tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\""))
        #expect(text.contains("<failure message=\"expected 3 charges, got 0 charges\" type="))
    }

    @Test func jobsRunInChildProcessesAndGiveTheSameResults() throws {
        let directory = try folder([
            "a.scenario": passing, "b.scenario": "launch\nexpect charges 3\n",
            "c.scenario": "launch\nexpect screen feed\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let serial = try TestSupport.runBinary(["play", directory])
        let parallel = try TestSupport.runBinary(["play", directory, "--jobs", "2"])
        #expect(parallel.code == 1)
        #expect(parallel.stdout == serial.stdout)
    }

    @Test func listFaultsPrintsEveryTargetAndFault() throws {
        let result = try TestSupport.runBinary(["play", "--list-faults"])
        #expect(result.code == 0)
        #expect(result.stdout.contains("payment: error, timeout, cancelled, deferred, interrupted"))
        #expect(result.stdout.contains("backend, receipts, restores"))
        #expect(result.stdout.contains("lost-response"))
    }

    @Test func theShippedExamplesPass() throws {
        let result = try TestSupport.runBinary([
            "play", "\(TestSupport.packageRoot)/scenarios/purchase.scenario",
            "\(TestSupport.packageRoot)/scenarios/cancel.scenario",
        ])
        #expect(result.code == 0, "\(result.stdout)")
    }
}
