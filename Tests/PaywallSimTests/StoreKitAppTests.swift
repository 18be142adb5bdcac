import AppFlow
import Foundation
import SimKernel
import StoreSim
import Subscriptions
import Testing
import WhiteLabel

@testable import Simulation

/// A `.storekit` file brought as it is: `--storekit FILE` builds the whole app around it.
private enum BroughtCatalog {
    static let directory = "\(TestSupport.packageRoot)/../shared/fixtures/storekit"
    static let present = FileManager.default.fileExists(atPath: directory)
    static let foodTruck = "\(directory)/apple-food-truck-Products.storekit"
    static let revenueCat = "\(directory)/revenuecat-UnitTestsConfiguration.storekit"
    static let known = Set(Storefront.known.map(\.countryCode))

    /// A fixture with some of its JSON replaced, written under `directory`.
    static func edited(_ file: String, in directory: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        change(&json)
        let path = "\(directory)/edited.storekit"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// What the first offer's line and the first locked article of each fixture are, for a buy by key presses.
struct BroughtFile: Sendable, CustomTestStringConvertible {
    var path: String
    var firstOffer: String
    var firstLocked: String
    var testDescription: String { URL(fileURLWithPath: path).lastPathComponent }

    static let all = [
        BroughtFile(
            path: BroughtCatalog.foodTruck, firstOffer: "Social Feed+ Monthly Plan", firstLocked: "social-feed-1"),
        BroughtFile(
            path: BroughtCatalog.revenueCat, firstOffer: "Monthly Free Trial", firstLocked: "subscription-group-1-1"),
    ]
}

@Suite(.enabled(if: BroughtCatalog.present, "../shared/fixtures is absent"))
struct StoreKitAppTests {
    @Test func everySubscriptionIsAnOfferInGroupOrderAndEachGroupALevel() throws {
        let config = try StoreKitApp.load(path: BroughtCatalog.revenueCat, knownStorefronts: BroughtCatalog.known)
        #expect(
            config.app.subscriptions.map(\.productId) == [
                "com.revenuecat.monthly_4.99.1_week_intro", "com.revenuecat.annual_39.99.2_week_intro",
                "com.revenuecat.annual_with_commitment", "com.revenuecat.annual_39.99_no_trial",
            ])
        #expect(config.backend.productLevels["com.revenuecat.annual_39.99_no_trial"] == ["subscription-group-2"])
        #expect(config.backend.productLevels["com.revenuecat.monthly_4.99.1_week_intro"] == ["subscription-group-1"])
        let free = config.app.content.filter(\.requiredLevels.isEmpty)
        #expect(free.count == 2)
        #expect(Set(config.app.content.flatMap(\.requiredLevels)) == ["subscription-group-1", "subscription-group-2"])
    }

    @Test func checkListsTheOffersAndWhyTheOtherProductsAreNotOnThePaywall() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", BroughtCatalog.revenueCat])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1. com.revenuecat.monthly_4.99.1_week_intro: Monthly Free Trial"))
        #expect(result.stdout.contains("Not on the paywall:"))
        #expect(result.stdout.contains("- com.revenuecat.consumable (Consumable IAP): a consumable is used up"))
        #expect(result.stdout.contains("- lifetime (Lifetime subscription): a non-consumable is bought once"))
        #expect(result.stdout.contains("- com.revenuecat.non_renewable (Non Renewable Subscription): a non-renewing"))
    }

    /// A product the file does not translate is named in English, as the paywall's titles fall back (session 28: the
    /// French check named a non-consumable by its identifier).
    @Test func checkNamesAProductWithoutATranslationInEnglish() throws {
        let result = try TestSupport.runBinary([
            "check", "--paywall", "--storekit", BroughtCatalog.foodTruck, "--locale", "fr_FR",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("- feature.annualhistory (Full year of history): a non-consumable"))
    }

    @Test func anEmptyDisplayNameShowsTheIdentifierAndIsAWarningOnce() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", BroughtCatalog.revenueCat])
        #expect(!result.stdout.contains(": : $11.88"))
        #expect(
            result.stdout.contains(
                "com.revenuecat.annual_with_commitment: com.revenuecat.annual_with_commitment: $11.88 per year"))
        let warning =
            "\(BroughtCatalog.revenueCat): subscriptionGroups[0].subscriptions[2].localizations[0].displayName: warning: is empty"
        #expect(result.stderr.components(separatedBy: warning).count == 2, "\(result.stderr)")
    }

    @Test func whatTheSimulatorIgnoresIsAWarningNamingTheField() throws {
        let food = try TestSupport.runBinary(["check", "--paywall", "--storekit", BroughtCatalog.foodTruck])
        #expect(
            food.stderr.contains(
                "\(BroughtCatalog.foodTruck): subscriptionGroups[0].subscriptions[0].codeOffers[0].isStackable: "
                    + "warning: ignored: stacking an offer code on another offer is not simulated"
            ))
        // Offer codes and promotional offers are imported now: no warning for them.
        #expect(!food.stderr.contains("codeOffers: warning"))
        let revenueCat = try TestSupport.runBinary(["check", "--paywall", "--storekit", BroughtCatalog.revenueCat])
        // Both of the monthly plan's promotional offers are imported; a lapsed reader is offered the first alone, and
        // the second is said once, not dropped in silence (session 27).
        let second =
            "subscriptionGroups[0].subscriptions[0].adHocOffers[1]: warning: ignored: a lapsed reader is offered one "
            + "promotional offer, adHocOffers[0] (\"com.revenuecat.monthly_4.99.1_week_intro.year_discount\"); this one "
            + "(\"com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go\") is never offered"
        #expect(revenueCat.stderr.components(separatedBy: second).count == 2, "\(revenueCat.stderr)")
        #expect(!revenueCat.stderr.contains("adHocOffers[0]:"))
        #expect(revenueCat.stderr.contains("subscriptionGroups[0].subscriptions[2].billingPlans[1]: warning: ignored"))
        // Empty lists (winbackOffers: []) hold nothing to lose: no warning.
        #expect(!revenueCat.stderr.contains("winbackOffers"))
        #expect(revenueCat.stdout.hasPrefix("Paywall of"), "warnings go to stderr only")
    }

    /// The README's "whatever the file holds that the simulator does not use is said once on stderr": a product the
    /// paywall does not sell too, by `run`, `play` and `screens` as by `check` (session 27).
    @Test(arguments: [["screens", "--storekit", BroughtCatalog.foodTruck], ["play", "SCENARIO"]])
    func aProductThePaywallDoesNotSellIsSaidOnceOnStderr(_ command: [String]) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = "\(directory)/one.scenario"
        try "storekit \(BroughtCatalog.foodTruck)\nlaunch\nexpect levels none\n".write(
            toFile: scenario, atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(
            command.map { $0 == "SCENARIO" ? scenario : $0 })
        #expect(result.code == 0, "\(result.stderr)")
        let warning =
            "\(BroughtCatalog.foodTruck): products[0]: warning: not sold: feature.annualhistory is not on the paywall: "
            + "a non-consumable is bought once and kept; it grants no access that renews"
        #expect(result.stderr.components(separatedBy: warning).count == 2, "\(result.stderr)")
    }

    @Test func anOfferKeyAndAnUnknownStorefrontAreWarningsAndTheAppStillSells() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try BroughtCatalog.edited(BroughtCatalog.foodTruck, in: directory) { json in
            var settings = json["settings"] as? [String: Any] ?? [:]
            settings["_storefront"] = "XYZ"
            json["settings"] = settings
            json["subscriptionOffersKeyPair"] = ["id": "KEY1", "privateKey": "abc"]
        }
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", path])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(path): settings._storefront: warning: \"XYZ\" is a storefront"))
        #expect(
            result.stderr.contains(
                "\(path): subscriptionOffersKeyPair.privateKey: warning: ignored: offers are signed with the backend's own key"
            ))
        #expect(result.stdout.contains("storefront USA"))
        #expect(result.stdout.contains("Social Feed+ Monthly Plan"))
    }

    /// A time rate Xcode does not have ran the clock in real time without a word (session 25).
    @Test func aTimeRateXcodeDoesNotHaveIsAWarning() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try BroughtCatalog.edited(BroughtCatalog.foodTruck, in: directory) { json in
            var settings = json["settings"] as? [String: Any] ?? [:]
            settings["_timeRate"] = 99
            json["settings"] = settings
        }
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", path])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "\(path): settings._timeRate: warning: ignored: 99 is not one of Xcode's time rates; the clock runs in "
                    + "real time"), "\(result.stderr)")
    }

    @Test func aLocaleNoProductHasIsAWarningAndTheStoreAnswersInEnglish() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try BroughtCatalog.edited(BroughtCatalog.foodTruck, in: directory) { json in
            json["settings"] = ["_locale": "ja_JP"]
        }
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", path])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(path): settings._locale: warning: no product is translated for \"ja_JP\""))
        #expect(result.stdout.contains("(storefront USA, locale en_US)"))
    }

    @Test func aJapanesePaywallWrapsByColumnsInsideThePhone() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try BroughtCatalog.edited(BroughtCatalog.foodTruck, in: directory) { json in
            json["settings"] = ["_locale": "ja_JP"]
            var groups = json["subscriptionGroups"] as? [[String: Any]] ?? []
            var subscriptions = groups[0]["subscriptions"] as? [[String: Any]] ?? []
            for index in subscriptions.indices {
                var localizations = subscriptions[index]["localizations"] as? [[String: Any]] ?? []
                localizations.append([
                    "locale": "ja_JP", "displayName": "ソーシャルフィードプラス月額プランとても長い名前のプランです",
                    "description": "説明",
                ])
                subscriptions[index]["localizations"] = localizations
            }
            groups[0]["subscriptions"] = subscriptions
            json["subscriptionGroups"] = groups
        }
        let result = try TestSupport.runBinary(["screens", "--storekit", path, "--width", "40"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ソーシャルフィードプラス月額プランとても"))
        // Each phone line is "> " or "  " and at most 40 columns, a wide character counted as two (the key
        // hints, drawn by the terminal's key bar, are not phone lines).
        for line in result.stdout.split(separator: "\n")
        where (line.hasPrefix("  ") || line.hasPrefix("> ")) && !line.contains(" · ") {
            #expect(DisplayWidth.of(line) <= 42, "\(line)")
        }
    }

    /// A `.storekit` file named through a linked folder got a state folder of its own, apart from the one its real
    /// path gets: one file, two sets of purchases (h3, session 29). Its folder is named by the real path; the path as
    /// given, which earlier builds hashed, is the second name, so a folder made through the link is still found.
    @Test func aStorekitFileThroughALinkedFolderKeepsOneStateFolder() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/real", withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit",
            toPath: "\(directory)/real/My.storekit")
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/link", withDestinationPath: "real")
        let known = BroughtCatalog.known
        let real = try StoreKitApp.load(path: "\(directory)/real/My.storekit", knownStorefronts: known)
        let linked = try StoreKitApp.load(path: "\(directory)/link/My.storekit", knownStorefronts: known)
        #expect(StateCheck.folderName(for: linked) == StateCheck.folderName(for: real))
        #expect(StateCheck.folderNames(for: real).count == 1)
        let names = StateCheck.folderNames(for: linked)
        #expect(names.count == 2 && names[1] != names[0] && names[1].hasPrefix("my-"), "\(names)")
    }

    @Test func withAnAppTheOwnersTextAndOrderSellFromTheFile() throws {
        let catalog = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", "podcast-club", "--storekit", catalog])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Paywall of Podcast Club"))
        #expect(result.stdout.contains("1. listener-yearly"))
        #expect(result.stdout.contains("2. listener-monthly"))
    }

    @Test(arguments: [
        ("{\"products\": [", "line 1, column 15: is not valid JSON"),
        (
            "{\"products\": [{\"productID\": \"x\", \"type\": \"Consumable\", \"displayPrice\": \"1.00\", "
                + "\"localizations\": [{\"locale\": \"en_US\", \"displayName\": \"X\", \"description\": \"\"}]}]}",
            "subscriptionGroups: holds no auto-renewable subscription"
        ),
    ])
    func aFileThatCannotMakeAnAppIsExitTwoNamingFileAndField(_ json: String, _ message: String) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/bad.storekit"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(path): \(message)"), "\(result.stderr)")
    }

    @Test func checkLedgerLooksWhereRunStorekitKeepsItsState() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory
        let result = try TestSupport.runBinary(
            ["check", "--ledger", "--storekit", BroughtCatalog.foodTruck], environment: environment)
        #expect(result.code == 2)
        // The folder is named after the file and a short hash of its path (session 27).
        #expect(result.stderr.contains("no ledger at \(directory)/paywall-sim/apple-food-truck-products-"))
        #expect(result.stderr.contains(#/apple-food-truck-products-[0-9a-f]{8}/backend\.sqlite/#))
    }

    @Test func aMissingFileIsExitTwoNamingIt() throws {
        let result = try TestSupport.runBinary(["run", "--storekit", "/nonexistent/x.storekit"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--storekit: no such file: /nonexistent/x.storekit"))
    }

    @Test(arguments: BroughtFile.all)
    func aPurchaseCompletesHeadlessWithTheStorekitSetupStep(_ file: BroughtFile) throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let level = file.firstLocked.dropLast(2)
        let offer = try StoreKitApp.load(path: file.path, knownStorefronts: BroughtCatalog.known).app.subscriptions
            .first
        let scenario = """
            title Buying from \(file.testDescription)
            storekit \(file.path)
            launch
            open content \(file.firstLocked)
            subscribe
            select offer \(try #require(offer).id)
            confirm payment
            expect content \(file.firstLocked) unlocked
            expect levels \(level)
            expect charges 1
            """
        try scenario.write(toFile: "\(directory)/buy.scenario", atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 0 failed"))
    }

    @Test(
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"),
        arguments: BroughtFile.all)
    func eachFileRunsInTheTerminalAndAPurchaseUnlocks(_ file: BroughtFile) throws {
        let tmux = try TmuxSession(["run", "--storekit", file.path, "--ephemeral", "--latency", "fast"])
        tmux.waitFor("How buying works here")
        try tmux.send("Down", "Down", "Enter")
        tmux.waitFor("Subscribe to read the full article.")
        try tmux.send("Enter")
        tmux.waitFor(file.firstOffer)
        try tmux.send("Enter")
        tmux.waitFor("Apple ID: reader@icloud.test")
        // Subscribe, above Cancel, where Apple's sheet opens.
        try tmux.send("Up", "Enter")
        tmux.waitFor("The rest of it,")
        #expect(!tmux.screen.contains("Subscribe to read the full article."))
        #expect(tmux.screen.contains("POST /v1/receipts → 200"))
        try tmux.quit()
    }

    @Test func theFilesAskToBuyAndBillingIssueSettingsAreHonoured() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try BroughtCatalog.edited(BroughtCatalog.foodTruck, in: directory) { json in
            var settings = json["settings"] as? [String: Any] ?? [:]
            settings["_askToBuyEnabled"] = true
            json["settings"] = settings
        }
        let scenario = """
            app \(path)
            launch
            open content social-feed-1
            subscribe
            select offer socialfeedplus.monthly
            confirm payment
            expect pending payment
            expect charges 0
            parent approve
            expect content social-feed-1 unlocked
            """
        try scenario.write(toFile: "\(directory)/ask.scenario", atomically: true, encoding: .utf8)
        let asked = try TestSupport.runBinary(["play", "\(directory)/ask.scenario"])
        #expect(asked.code == 0, "\(asked.stdout)")
        // `_billingIssuesEnabled`: the purchase stops for the reader to fix their payment method.
        let billing = try BroughtCatalog.edited(BroughtCatalog.foodTruck, in: directory) { json in
            json["settings"] = ["_billingIssuesEnabled": true]
        }
        let interrupted = """
            storekit \(billing)
            launch
            open content social-feed-1
            subscribe
            select offer socialfeedplus.monthly
            confirm payment
            expect charges 0
            expect timeline "purchase interrupted"
            """
        try interrupted.write(toFile: "\(directory)/billing.scenario", atomically: true, encoding: .utf8)
        let stopped = try TestSupport.runBinary(["play", "\(directory)/billing.scenario"])
        #expect(stopped.code == 0, "\(stopped.stdout)")
    }

    @Test func theFileGivenToAppIsTheSameAsStorekit() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", BroughtCatalog.foodTruck])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1. socialfeedplus.monthly"))
    }

    @Test func theFuzzerRunsOverTheFilesApp() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary([
            "fuzz", "--storekit", BroughtCatalog.revenueCat, "--runs", "6", "--steps", "30", "--out", directory,
        ])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("6 sessions"))
        #expect(result.stdout.contains("every invariant held"))
    }

    @Test func theFilesTimeRateSpeedsTheClockAsXcodeDoes() {
        #expect(StoreKitSettings(timeRate: 0).virtualSecondsPerSecond == 1)
        // monthlyRenewalEveryThirtySeconds: a 30-day month in 30 seconds.
        #expect(StoreKitSettings(timeRate: 15).virtualSecondsPerSecond == 86_400)
        // oneRenewalEveryTwoSeconds, per month.
        #expect(StoreKitSettings(timeRate: 1005).virtualSecondsPerSecond == 1_296_000)
    }
}

/// Paid introductory offers on the paywall, in the words of Apple's sheet.
@Suite(.enabled(if: BroughtCatalog.present, "../shared/fixtures is absent"))
struct IntroductoryOfferPaywallTests {
    @Test func payAsYouGoAndPayUpFrontAreOnThePaywall() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--storekit", BroughtCatalog.foodTruck])
        #expect(
            result.stdout.contains(
                "1. socialfeedplus.monthly: Social Feed+ Monthly Plan: $2.49 per month for 3 months, then $4.99 per month"
            ))
        #expect(
            result.stdout.contains(
                "2. socialfeedplus.yearly: Social Feed+ Yearly Plan: $8.99 for 3 months, then $49.99 per year"))
    }

    /// Every offer of both files: the paywall line's terms are exactly what Apple's sheet says before "Renews".
    @Test(arguments: [BroughtCatalog.foodTruck, BroughtCatalog.revenueCat])
    func thePaywallAndApplesSheetNameTheSamePricePeriodAndIntro(_ file: String) throws {
        let config = try StoreKitApp.load(path: file, knownStorefronts: BroughtCatalog.known)
        let world = try World(config: config, options: WorldOptions(latency: .none))
        world.launchAndSettle()
        let locked = try #require(config.app.content.first { !$0.requiredLevels.isEmpty })
        world.choose(locked.title)
        world.choose("Subscribe")
        #expect(world.offerCatalog.offers.count == config.app.subscriptions.count)
        for offer in world.offerCatalog.offers {
            let line = OfferText.line(for: offer, paywall: config.app.paywall)
            world.choose(line)
            #expect(world.screen.id == .appStoreSheet)
            let sheet = world.screen.rows.map(\.text).joined(separator: " ")
            // "Title: TERMS" on the paywall; "TERMS. Renews automatically…" on the sheet, a free trial too ("Free for
            // 3 months, then", in the phone's language: session 27's "3 Monate gratis, then").
            let terms = String(line.dropFirst(offer.product.localizedTitle.count + 2))
            #expect(sheet.contains(terms + ". Renews automatically"), "\(line) vs \(sheet)")
            if let trial = offer.product.freeTrialPeriod {
                #expect(terms.hasPrefix("Free for \(trial.lengthDescription), then "), "\(line)")
            }
            world.send(.back)
            world.scheduler.runUntilIdle()
        }
    }

    @Test func anOwnerTemplateMayPlaceTheIntroItself() throws {
        let product = StoreProduct(
            productIdentifier: "p", localizedTitle: "Pro", localizedDescription: "", localizedPrice: "$19.99",
            subscriptionPeriod: CalendarPeriod(iso8601: "P1M"), freeTrialPeriod: nil)
        var paid = product
        paid.paidIntroductoryOffer = PaidIntroductoryOffer(
            mode: .payAsYouGo, localizedPrice: "$1.99", period: try #require(CalendarPeriod(iso8601: "P1M")),
            numberOfPeriods: 3)
        let owner = PaywallText(title: "", body: "", offer: "{title} — {intro}{price}/{period}", offerWithTrial: nil)
        #expect(
            OfferText.line(for: Offer(id: "pro", product: paid), paywall: owner)
                == "Pro — $1.99 per month for 3 months, then $19.99/month")
        #expect(OfferText.line(for: Offer(id: "pro", product: product), paywall: owner) == "Pro — $19.99/month")
        // A template without {intro} still shows it, before the price.
        let plain = PaywallText(title: "", body: "", offer: "{title}: {price} per {period}", offerWithTrial: nil)
        #expect(
            OfferText.line(for: Offer(id: "pro", product: paid), paywall: plain)
                == "Pro: $1.99 per month for 3 months, then $19.99 per month")
        // A period that leads the price (Japanese order) is the renewal's: the terms, which carry their own, go
        // before it, so the line reads as Apple's sheet and no period is said twice (session 23's tester).
        let led = PaywallText(title: "", body: "", offer: "{title}：{perPeriod}{price}", offerWithTrial: nil)
        #expect(
            OfferText.line(for: Offer(id: "pro", product: paid), paywall: led)
                == "Pro：$1.99 per month for 3 months, then per month$19.99")
    }
}

/// A reader who already had the introductory offer is not shown it again: the paywall and the sheet agree.
@Suite struct IntroductoryOfferEligibilityTests {
    @Test func aReturningSubscriberSeesNoTrialOnThePaywallNorOnTheSheet() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = """
            app podcast-club
            launch
            open content ep-102-bread
            subscribe
            expect text "Listener+ Monthly: 1 week free, then $4.99 per month"
            select offer listener-monthly
            confirm payment
            open profile
            manage subscription
            cancel auto-renew
            advance 2mo
            restart app
            open content ep-103-night-shift
            subscribe
            expect text "Welcome back! Listener+ Monthly: $1.99 per month for 3 months, then $4.99 per month"
            select offer listener-monthly
            expect text "$1.99 per month for 3 months, then $4.99 per month. Renews automatically"
            """
        try scenario.write(toFile: "\(directory)/returning.scenario", atomically: true, encoding: .utf8)
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 0, "\(result.stdout)")
    }

    /// Two `Products.storekit` in different folders shared the default state folder `products`: each run took the
    /// other's purchases as its own (session 27). The folder's name carries a short hash of the file's path; a demo
    /// app's stays its name.
    @Test func sameNamedStoreKitFilesKeepTheirStateApart() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = TestSupport.packageRoot + "/scenarios/found-by-hand/tiers.storekit"
        var folders: [String] = []
        for side in ["A", "B"] {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(side)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: "\(directory)/\(side)/Products.storekit")
            let result = try TestSupport.runBinary([
                "check", "--ledger", "--storekit", "\(directory)/\(side)/Products.storekit",
            ])
            #expect(result.code == 2)
            let folder = result.stderr.split(separator: "no ledger at ").last.map(String.init) ?? ""
            #expect(folder.contains("/paywall-sim/products-"), "\(result.stderr)")
            folders.append(folder)
        }
        #expect(folders[0] != folders[1])
        let demo = try TestSupport.runBinary(["check", "--ledger", "--app", "daily-news"])
        #expect(demo.stderr.contains("/paywall-sim/daily-news/"), "\(demo.stderr)")
    }
}
