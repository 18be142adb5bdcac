import Foundation
import Testing
import WhiteLabel

/// Bad input taken in silence (session 38): an introductory price that is no discount, a translation keyed with what
/// is no locale, an Apple ID that is no email. Each ends in one message naming the file and the field, exit 2.
@Suite struct BadInputRefusalTests {
    static let podcastFile = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"
    static let monthly = "subscriptionGroups[0].subscriptions[0]"
    static let yearly = "subscriptionGroups[0].subscriptions[1]"

    /// podcast-club.storekit with `path` set to `json`, written to a folder of its own; `check --paywall` on it.
    private func checkEdited(_ path: String, _ json: String) throws -> (
        file: String, result: (code: Int32, stdout: String, stderr: String)
    ) {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let edited = try JSONEdit.replacing(path, with: json, in: data)
        let directory = try TestSupport.temporaryDirectory()
        let file = "\(directory)/bad.storekit"
        try edited.write(to: URL(fileURLWithPath: file))
        return (file, try TestSupport.runBinary(["check", "--paywall", "--storekit", file]))
    }

    static func intro(_ mode: String, _ period: String, count: Int, price: String) -> String {
        """
        {"internalID": "0F6B3D52", "numberOfPeriods": \(count), "paymentMode": "\(mode)",
         "subscriptionPeriod": "\(period)", "displayPrice": "\(price)"}
        """
    }

    /// An introductory price at or above the plan's, for as long, was sold as is: "$5.99 per month for 3 months,
    /// then $4.99 per month".
    @Test(arguments: [
        (
            monthly, intro("payAsYouGo", "P1M", count: 3, price: "5.99"),
            "com.podcastclub.listener.monthly: \"5.99\" per month is no introductory price: the subscription itself "
                + "costs \"4.99\" per month"
        ),
        (
            monthly, intro("payAsYouGo", "P1M", count: 2, price: "4.99"),
            "com.podcastclub.listener.monthly: \"4.99\" per month is no introductory price"
        ),
        // Three months up front at three months' price is no discount.
        (
            monthly, intro("payUpFront", "P3M", count: 1, price: "14.97"),
            "com.podcastclub.listener.monthly: \"14.97\" for 3 months is no introductory price"
        ),
        // Half a year of a 44.99 plan is 22.495.
        (
            yearly, intro("payUpFront", "P6M", count: 1, price: "22.50"),
            "com.podcastclub.listener.yearly: \"22.50\" for 6 months is no introductory price: the subscription itself "
                + "costs \"44.99\" per year"
        ),
        // A week of a 4.99 month is at most 4.99 × 7 / 28 = 1.2475.
        (
            monthly, intro("payAsYouGo", "P1W", count: 4, price: "1.25"),
            "com.podcastclub.listener.monthly: \"1.25\" per week is no introductory price"
        ),
    ])
    func anIntroductoryPriceThatIsNoDiscountIsExitTwoNamingFileProductAndField(
        at subscription: String, offer: String, message: String
    ) throws {
        let (file, result) = try checkEdited("\(subscription).introductoryOffer", offer)
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("\(file): \(subscription).introductoryOffer.displayPrice: \(message)"),
            "\(result.stderr)")
    }

    /// A discount, however small, still sells; weeks against a month are weighed in the offer's favour.
    @Test(arguments: [
        (monthly, intro("payAsYouGo", "P1M", count: 3, price: "4.98")),
        (monthly, intro("payUpFront", "P3M", count: 1, price: "14.96")),
        (monthly, intro("payAsYouGo", "P1W", count: 4, price: "1.24")),
        (yearly, intro("payUpFront", "P6M", count: 1, price: "22.49")),
        (yearly, intro("payAsYouGo", "P1M", count: 2, price: "3.74")),
    ])
    func anIntroductoryDiscountLoads(at subscription: String, offer: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let edited = try JSONEdit.replacing("\(subscription).introductoryOffer", with: offer, in: data)
        #expect(throws: Never.self) { try StoreKitConfiguration.decode(edited, file: "good.storekit") }
    }

    /// A translation keyed "english" was sold as one no phone is set to, and a `_locale` of "english" fell back to
    /// en_US with a warning that nothing is translated for it.
    @Test(arguments: ["\(monthly).localizations[0].locale", "settings._locale"])
    func aLocaleThatIsNoLocaleIsExitTwoNamingFileAndField(_ path: String) throws {
        let (file, result) = try checkEdited(path, "\"english\"")
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("\(file): \(path): \"english\" is not a locale such as fr_FR, fr-FR or fr"),
            "\(result.stderr)")
    }

    /// Every `.storekit` file the package holds loads: none has an introductory price that is no discount, or a
    /// locale that is none.
    @Test func thePackagesStoreKitFilesLoad() throws {
        let root = TestSupport.packageRoot
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter {
            $0.hasSuffix(".storekit") && !$0.hasPrefix(".build")
        }
        #expect(files.count >= 8)
        for file in files {
            #expect(throws: Never.self, "\(file)") { try StoreKitConfiguration.load(path: "\(root)/\(file)") }
        }
    }

    /// daily-news.json with its store part edited, written to a folder of its own; `check --paywall` on it.
    private func checkConfig(_ edit: (inout [String: Any]) -> Void) throws -> (
        file: String, result: (code: Int32, stdout: String, stderr: String)
    ) {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var store = try #require(object["store"] as? [String: Any])
        edit(&store)
        object["store"] = store
        let directory = try TestSupport.temporaryDirectory()
        let file = "\(directory)/app.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        return (file, try TestSupport.runBinary(["check", "--paywall", "--app", file]))
    }

    /// daily-news.json with its first product's `field` set to `value`.
    private func checkConfig(productField field: String, _ value: Any) throws -> (
        file: String, result: (code: Int32, stdout: String, stderr: String)
    ) {
        try checkConfig { store in
            var products = store["products"] as! [[String: Any]]
            products[0][field] = value
            store["products"] = products
        }
    }

    /// An owner's config is held to the same rule, storefront by storefront.
    @Test func aConfigsIntroductoryPriceThatIsNoDiscountIsExitTwoNamingFileAndField() throws {
        let offer: [String: Any] = [
            "paymentMode": "pay-as-you-go", "period": "P1M", "periodCount": 3,
            "prices": ["USA": "2.99", "GBR": "3.99"],
        ]
        let (file, result) = try checkConfig(productField: "introductoryOffer", offer)
        #expect(result.code == 2)
        #expect(
            result.stderr.contains(
                "\(file): store.products[0].introductoryOffer.prices.GBR: com.dailynews.premium.monthly: \"3.99\" per "
                    + "month is no introductory price: the subscription itself costs \"3.99\" per month"),
            "\(result.stderr)")
    }

    @Test func aConfigsTranslationKeyedWithNoLocaleIsExitTwoNamingFileAndField() throws {
        let localizations = [
            "en_US": ["title": "Monthly", "description": ""], "english": ["title": "M", "description": ""],
        ]
        let (file, result) = try checkConfig(productField: "localizations", localizations)
        #expect(result.code == 2)
        #expect(
            result.stderr.contains(
                "\(file): store.products[0].localizations.english: \"english\" is not a locale such as fr_FR"),
            "\(result.stderr)")
    }

    /// The store's own locale is held to the same rule, named at its field.
    @Test func aConfigsStoreLocaleThatIsNoLocaleIsExitTwoNamingFileAndField() throws {
        let (file, result) = try checkConfig { store in store["locale"] = "english" }
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("\(file): store.locale: \"english\" is not a locale such as fr_FR"),
            "\(result.stderr)")
    }

    /// `--locale english` was served in English as a language of its own.
    @Test func aLocaleOptionThatIsNoLocaleIsExitTwoNamingTheOption() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", "daily-news", "--locale", "english"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--locale: \"english\" is not a locale such as fr_FR"), "\(result.stderr)")
    }
}
