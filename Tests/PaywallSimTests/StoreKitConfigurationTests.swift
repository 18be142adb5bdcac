import Foundation
import SimKernel
import StoreSim
import Testing
import WhiteLabel

/// The real `.storekit` files other projects ship, copied next to the package; absent on a bare checkout.
private enum StoreKitFixtures {
    static let directory = "\(TestSupport.packageRoot)/../shared/fixtures/storekit"
    static let present = FileManager.default.fileExists(atPath: directory)

    static func load(_ name: String) throws -> StoreKitConfiguration {
        try StoreKitConfiguration.load(path: "\(directory)/\(name)")
    }
}

/// What one product of a fixture must import as.
struct ExpectedStoreKitProduct: Sendable, CustomTestStringConvertible {
    var file: String
    var productId: String
    var type: StoreProductSpec.Kind
    var price: String
    var period: String? = nil
    var group: String? = nil
    var trial: IntroductoryOfferSpec? = nil

    var testDescription: String { "\(productId) in \(file)" }

    static let foodTruck = "apple-food-truck-Products.storekit"
    static let revenueCat = "revenuecat-UnitTestsConfiguration.storekit"
}

@Suite(.enabled(if: StoreKitFixtures.present, "../shared/fixtures is absent"))
struct StoreKitFixtureTests {
    @Test(arguments: [
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.foodTruck, productId: "feature.annualhistory", type: .nonConsumable,
            price: "0.99"),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.foodTruck, productId: "socialfeedplus.monthly", type: .autoRenewable,
            price: "4.99", period: "P1M", group: "20947887",
            trial: IntroductoryOfferSpec(
                paymentMode: .payAsYouGo, period: "P1M", periodCount: 3, prices: ["USA": "2.49"])),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.foodTruck, productId: "socialfeedplus.yearly", type: .autoRenewable,
            price: "49.99", period: "P1Y", group: "20947887",
            trial: IntroductoryOfferSpec(
                paymentMode: .payUpFront, period: "P3M", periodCount: nil, prices: ["USA": "8.99"])),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "com.revenuecat.non_renewable", type: .nonRenewing,
            price: "1.69"),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "lifetime", type: .nonConsumable, price: "199.99"),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "com.revenuecat.consumable", type: .consumable,
            price: "1.49"),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "com.revenuecat.monthly_4.99.1_week_intro",
            type: .autoRenewable, price: "4.99", period: "P1M", group: "7096FF06",
            trial: IntroductoryOfferSpec(paymentMode: .freeTrial, period: "P3M", periodCount: 1, prices: nil)),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "com.revenuecat.annual_39.99.2_week_intro",
            type: .autoRenewable, price: "39.99", period: "P1Y", group: "7096FF06",
            trial: IntroductoryOfferSpec(paymentMode: .freeTrial, period: "P2W", periodCount: 1, prices: nil)),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "com.revenuecat.annual_with_commitment",
            type: .autoRenewable, price: "11.88", period: "P1Y", group: "7096FF06"),
        ExpectedStoreKitProduct(
            file: ExpectedStoreKitProduct.revenueCat, productId: "com.revenuecat.annual_39.99_no_trial",
            type: .autoRenewable, price: "39.99", period: "P1Y", group: "4BB746BD"),
    ])
    func eachProductImportsWithItsPricePeriodAndTrial(_ expected: ExpectedStoreKitProduct) throws {
        let configuration = try StoreKitFixtures.load(expected.file)
        let spec = try #require(configuration.products.first { $0.productId == expected.productId })
        #expect(spec.type == expected.type)
        #expect(spec.prices == ["USA": expected.price])
        #expect(spec.subscriptionPeriod == expected.period)
        #expect(spec.subscriptionGroup == expected.group)
        #expect(spec.introductoryOffer == expected.trial)
        #expect(spec.groupLevel == (expected.type == .autoRenewable ? 1 : nil))
    }

    @Test(arguments: [(ExpectedStoreKitProduct.foodTruck, 3), (ExpectedStoreKitProduct.revenueCat, 7)])
    func everyProductOfTheFileIsImported(file: String, count: Int) throws {
        #expect(try StoreKitFixtures.load(file).products.count == count)
    }

    @Test func theSettingsAreRead() throws {
        let revenueCat = try StoreKitFixtures.load(ExpectedStoreKitProduct.revenueCat).settings
        #expect(revenueCat == StoreKitSettings(storefront: "USA", locale: "en_US"))
        // Food Truck's file has no `_locale`: Xcode's default applies.
        let foodTruck = try StoreKitFixtures.load(ExpectedStoreKitProduct.foodTruck).settings
        #expect(foodTruck.storefront == "USA")
        #expect(foodTruck.locale == "en_US")
        #expect(!foodTruck.billingGracePeriodEnabled)
    }

    @Test func theStoreSellsAnImportedProductLocalizedWithItsIntroductoryOffer() throws {
        let store = try StoreKitFixtures.load(ExpectedStoreKitProduct.foodTruck).storePart()
        let catalog = Catalog(specs: store.products)
        let usa = try #require(Storefront.named("USA"))
        let english = try #require(
            catalog.products(for: ["socialfeedplus.monthly"], storefront: usa, locale: "en_US").products.first)
        #expect(english.localizedTitle == "Social Feed+ Monthly Plan")
        #expect(english.localizedPrice == "$4.99")
        #expect(english.subscriptionPeriod == CalendarPeriod(unit: .month, value: 1))
        #expect(english.introductoryOffer?.paymentMode == .payAsYouGo)
        #expect(english.introductoryOffer?.numberOfPeriods == 3)
        #expect(english.introductoryOffer?.price == Decimal(string: "2.49"))
        let arabic = try #require(
            catalog.products(for: ["socialfeedplus.monthly"], storefront: usa, locale: "ar").products.first)
        #expect(arabic.localizedTitle == "الموجز الاجتماعي + الباقة الشه")
    }
}

@Suite struct StoreKitConfigurationTests {
    static let podcastFile = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"

    @Test func thePodcastFileImports() throws {
        let configuration = try StoreKitConfiguration.load(path: Self.podcastFile)
        #expect(
            configuration.products.map(\.productId) == [
                "com.podcastclub.listener.monthly", "com.podcastclub.listener.yearly", "com.podcastclub.season3",
            ])
        let monthly = configuration.products[0]
        #expect(monthly.subscriptionGroup == "7E4B2D90")
        #expect(monthly.subscriptionPeriod == "P1M")
        #expect(
            monthly.introductoryOffer
                == IntroductoryOfferSpec(paymentMode: .freeTrial, period: "P1W", periodCount: 1, prices: nil))
        #expect(monthly.localizations["fr_FR"]?.title == "Listener+ mensuel")
        #expect(configuration.products[1].introductoryOffer == nil)
        #expect(configuration.products[2].type == .nonConsumable)
        #expect(configuration.settings.billingGracePeriodEnabled)
        #expect(!configuration.settings.askToBuyEnabled)
    }

    /// One edit of the podcast file: the value at `path` replaced by `json`, or removed when `json` is nil.
    struct Malformation: Sendable, CustomTestStringConvertible {
        var path: String
        var json: String?
        var message: String
        var testDescription: String { "\(path) = \(json ?? "(removed)")" }
    }

    @Test(arguments: [
        Malformation(
            path: "subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod", json: "\"P1X\"",
            message: "\"P1X\" is not an ISO 8601 period of at most ten years, such as P1M or P1W"),
        Malformation(
            path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod", json: "\"one week\"",
            message: "\"one week\" is not an ISO 8601 period of at most ten years, such as P1M or P1W"),
        Malformation(
            path: "subscriptionGroups[0].subscriptions[0].displayPrice", json: "4.99", message: "should be a string"),
        Malformation(
            path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode", json: "\"trial\"",
            message: "\"trial\" is not free, payAsYouGo or payUpFront"),
        Malformation(path: "products[0].productID", json: nil, message: "is missing"),
        // A promotional offer, not an introductory one (the message said "introductory" of every offer).
        Malformation(
            path: "subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice", json: nil,
            message: "is missing for an offer that is not free"),
        Malformation(
            path: "products[0].displayPrice", json: "\"14,99\"",
            message: "\"14,99\" is not a decimal price such as 4.99"),
        Malformation(
            path: "products[0].type", json: "\"Subscription\"",
            message: "\"Subscription\" is not Consumable, NonConsumable or NonRenewingSubscription"),
        Malformation(path: "products[0].localizations", json: "[]", message: "must hold at least one locale"),
        Malformation(path: "settings._askToBuyEnabled", json: "\"yes\"", message: "should be true or false"),
        Malformation(path: "subscriptionGroups[0].subscriptions", json: "{}", message: "should be a list"),
        // A group is an access level: one that sells nothing was refused at `app.content[2].requiredLevels`, a field
        // of the generated app, not of the file (session 33).
        Malformation(
            path: "subscriptionGroups[0].subscriptions", json: "[]",
            message:
                "holds no subscription: the group \"Listener+\" would be an access level nothing sells; "
                + "add a subscription to it or remove the group"),
        // A free subscription and a paid offer at nothing were sold "$0.00 per month", and told free (session 34).
        Malformation(
            path: "subscriptionGroups[0].subscriptions[0].displayPrice", json: "\"0\"",
            message:
                "\"0\": a subscription's price must be more than 0; App Store Connect has no free price for one (a "
                + "free period is an introductory offer with paymentMode free)"),
        Malformation(
            path: "subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice", json: "\"0.00\"",
            message: "\"0.00\" is no price for a payAsYouGo offer, which is paid: a free period is paymentMode free"),
        // A subscription naming another group than the one listing it was filed under the listing one in silence.
        Malformation(
            path: "subscriptionGroups[0].subscriptions[1].subscriptionGroupID", json: "\"0000FFFF\"",
            message:
                "\"0000FFFF\" is not the id of the group listing it, \"Listener+\" (\"7E4B2D90\"): the file names two "
                + "groups for one subscription; give it its group's id, or move it to the group it names"),
    ])
    func aMalformedFileNamesTheFileAndTheJSONPath(_ malformation: Malformation) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let edited = try JSONEdit.replacing(malformation.path, with: malformation.json, in: data)
        let error = #expect(throws: ConfigError.self) {
            try StoreKitConfiguration.decode(edited, file: "broken.storekit")
        }
        #expect(error?.description == "broken.storekit: \(malformation.path): \(malformation.message)")
    }

    /// Xcode prices a product once; another storefront sells the number in its own currency's minor units, never
    /// a paid price rounded to nothing (0.49 was shown "¥0" and charged 0.49, session 34).
    @Test(arguments: [
        ("0.49", "JPN", "1"), ("4.99", "JPN", "5"), ("2.50", "JPN", "2"), ("3.5", "JPN", "4"), ("480", "JPN", "480"),
        ("0.004", "USA", "0.01"), ("4.999", "USA", "5.00"), ("4.99", "FRA", "4.99"), ("9.995", "GBR", "10.00"),
        ("0", "JPN", "0"), ("0.00", "JPN", "0"), ("4.99", "XYZ", "4.99"),
    ])
    func aStorefrontSellsTheFilesNumberInItsCurrency(price: String, storefront: String, sold: String) {
        #expect(StorefrontPrice.of(price, in: storefront) == sold)
    }

    @Test func aPaidIntroductoryPriceInTheYenIsNeverFree() throws {
        let file = "\(TestSupport.packageRoot)/scenarios/found-by-hand/cents.storekit"
        let part = try StoreKitConfiguration.load(path: file).storePart(storefronts: ["JPN"])
        let monthly = try #require(part.products.first)
        #expect(monthly.prices == ["USA": "4.99", "JPN": "5"])
        #expect(monthly.introductoryOffer?.prices == ["USA": "0.49", "JPN": "1"])
        let japan = try #require(Storefront.named("JPN"))
        let answer = Catalog(specs: part.products).products(
            for: [monthly.productId], storefront: japan, locale: "ja_JP")
        let product = try #require(answer.products.first)
        #expect(product.localizedPrice == "\u{A5}5")
        #expect(product.introductoryOffer?.price == 1)
        #expect(product.introductoryOffer?.localizedPrice == "\u{A5}1")
    }

    /// The up-front plan at another price than the subscription's, and the monthly plan, were dropped in silence or
    /// said without their terms: what is sold instead is said at the field (session 34).
    @Test func aBillingPlanThatSaysAnotherPriceIsSaidWithWhatIsSold() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let plans = """
            [{"billingPlanType": "BILLED_UPFRONT", "displayPrice": "0.99", "commitmentDisplayPrice": "0.99",
              "isEnabled": true},
             {"billingPlanType": "MONTHLY", "displayPrice": "0.5", "commitmentDisplayPrice": "6.00", "isEnabled": true},
             {"billingPlanType": "MONTHLY", "displayPrice": "0.4", "isEnabled": false}]
            """
        let edited = try JSONEdit.replacing(
            "subscriptionGroups[0].subscriptions[1].billingPlans", with: plans, in: data)
        let warnings = try StoreKitConfiguration.decode(edited, file: "plans.storekit").warnings.map(\.description)
        let sold = "the paywall sells and charges 44.99 every P1Y, billed up front: the subscription's displayPrice"
        #expect(
            warnings.contains(
                "plans.storekit: subscriptionGroups[0].subscriptions[1].billingPlans[0].displayPrice: ignored: "
                    + "0.99, this plan's price billed up front, is not the subscription's displayPrice; " + sold))
        #expect(
            warnings.contains(
                "plans.storekit: subscriptionGroups[0].subscriptions[1].billingPlans[1]: ignored: billing "
                    + "monthly for a 12-month commitment (0.5 a month, 6.00 in all) is not simulated; " + sold))
        #expect(!warnings.contains { $0.contains("billingPlans[2]") })
    }

    /// A file priced in a storefront the simulator does not know is sold in USA: its promotional offer stayed priced
    /// in the unknown one, and was never offered (session 34).
    @Test func anUnknownStorefrontsOffersAreSoldInUSAToo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let path = "\(directory)/elsewhere.storekit"
        try JSONEdit.replacing("settings._storefront", with: "\"XYZ\"", in: data).write(to: URL(fileURLWithPath: path))
        let config = try StoreKitApp.load(path: path, knownStorefronts: Set(StorefrontCodes.known))
        let monthly = try #require(config.store.products.first)
        #expect(monthly.prices["USA"] == "4.99")
        #expect(monthly.promotionalOffers?.first?.prices?["USA"] == "1.99")
    }

    @Test func aFileThatIsNotJSONIsNamedWithTheLine() throws {
        // A missing colon: Foundation's parser forgives trailing commas, not this.
        let text = "{\n  \"products\" : [\n    { \"productID\" \"a\" }\n  ]\n}\n"
        let error = #expect(throws: ConfigError.self) {
            try StoreKitConfiguration.decode(Data(text.utf8), file: "broken.storekit")
        }
        #expect(error?.file == "broken.storekit")
        #expect(error?.location?.hasPrefix("line 3") == true)
        #expect(error?.description.hasPrefix("broken.storekit: line 3") == true)
    }

    /// Two groups of one id were refused at `app.content[4].id`, a field of the generated app (session 33).
    @Test func aGroupIdGivenTwiceIsRefusedAtTheSecondGroup() throws {
        let file = "\(TestSupport.packageRoot)/scenarios/found-by-hand/two-groups.storekit"
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let edited = try JSONEdit.replacing("subscriptionGroups[1].id", with: "\"3A000001\"", in: data)
        let error = #expect(throws: ConfigError.self) {
            try StoreKitConfiguration.decode(edited, file: "twice.storekit")
        }
        #expect(
            error?.description
                == "twice.storekit: subscriptionGroups[1].id: \"3A000001\" is the id of subscriptionGroups[0] too: "
                + "each group needs its own")
    }

    @Test func aProductDefinedTwiceIsRefused() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let edited = try JSONEdit.replacing(
            "products[0].productID", with: "\"com.podcastclub.listener.yearly\"", in: data)
        let error = #expect(throws: ConfigError.self) {
            try StoreKitConfiguration.decode(edited, file: "twice.storekit")
        }
        #expect(error?.location == "products[0].productID")
    }
}

@Suite struct StoreKitDemoConfigTests {
    static let configFile = "\(TestSupport.packageRoot)/demo-configs/podcast-club.json"

    @Test func thePodcastDemoAppLoadsItsCatalogFromTheStoreKitFile() throws {
        let config = try TestSupport.demoConfig("podcast-club")
        #expect(config.app.subscriptions.map(\.id) == ["listener-yearly", "listener-monthly"])
        #expect(config.store.storefront == "USA")
        #expect(config.store.locale == "en_US")
        #expect(config.store.storekitFile?.hasSuffix("demo-configs/podcast-club.storekit") == true)
        #expect(config.store.storekitSettings?.billingGracePeriodEnabled == true)
        #expect(config.store.products.count == 3)
    }

    @Test(arguments: [("USA", true, "$44.99"), ("GBR", true, "£44.99"), ("FRA", false, nil), ("DEU", false, nil)])
    func theYearlyPlanIsSoldWhereTheConfigSays(storefront code: String, sold: Bool, price: String?) throws {
        let config = try TestSupport.demoConfig("podcast-club")
        let storefront = try #require(Storefront.named(code))
        let yearly = "com.podcastclub.listener.yearly"
        let response = Catalog(specs: config.store.products).products(
            for: [yearly, "com.podcastclub.listener.monthly"], storefront: storefront, locale: "en_US")
        #expect(response.products.contains { $0.productIdentifier == yearly } == sold)
        #expect(response.invalidProductIdentifiers.contains(yearly) == !sold)
        #expect(response.products.first { $0.productIdentifier == yearly }?.localizedPrice == price)
    }

    @Test func theMonthlyPlanInFranceIsPricedInEurosWithItsFrenchTitle() throws {
        let config = try TestSupport.demoConfig("podcast-club")
        let france = try #require(Storefront.named("FRA"))
        let monthly = try #require(
            Catalog(specs: config.store.products).products(
                for: ["com.podcastclub.listener.monthly"], storefront: france, locale: "fr_FR"
            ).products.first)
        #expect(monthly.localizedTitle == "Listener+ mensuel")
        #expect(monthly.currencyCode == "EUR")
        #expect(monthly.price == Decimal(string: "4.99"))
        #expect(monthly.introductoryOffer?.paymentMode == .freeTrial)
    }

    @Test func theConfigOverridesTheFilesStorefrontAndLocale() throws {
        let config = try decodeEdited("store.storefront", "\"FRA\"", then: ("store.locale", "\"fr_FR\""))
        #expect(config.store.storefront == "FRA")
        #expect(config.store.locale == "fr_FR")
    }

    @Test(arguments: [
        ("store.products", "[]", "store", "has both products and storekitFile; give one"),
        ("store.storekitFile", "\"nowhere.storekit\"", "store.storekitFile", "no such file"),
        (
            "store.unavailable", "{\"FRA\": [\"com.podcastclub.unknown\"]}", "store.unavailable.FRA[0]",
            "is not a product"
        ),
        ("store.unavailable", "{\"JPN\": []}", "store.unavailable.JPN", "not a storefront this catalog sells in"),
        ("store.storefronts", "[\"France\"]", "store.storefronts[0]", "is not a storefront code"),
    ])
    func aBadStoreKitReferenceIsNamedInTheConfig(path: String, json: String, location: String, message: String)
        throws
    {
        let error = #expect(throws: ConfigError.self) { try decodeEdited(path, json) }
        #expect(error?.file == Self.configFile)
        #expect(error?.location == location)
        #expect(error?.message.contains(message) == true)
    }

    @Test func aNonRenewingSubscriptionNeedsNoPeriod() throws {
        let dailyNews = try Data(
            contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
        let product = """
            {"productId": "com.dailynews.pass", "type": "non-renewing", "prices": {"USA": "9.99"},
             "localizations": {"en_US": {"title": "Pass", "description": "30 days"}}}
            """
        let edited = try JSONEdit.replacing("store.products[2]", with: product, in: dailyNews)
        let config = try DemoConfigLoader.decode(edited, file: "pass.json")
        #expect(config.store.products.last?.subscriptionPeriod == nil)
    }

    /// The podcast config with edits, decoded as if it were in `demo-configs/`, so its `.storekit` file is found.
    private func decodeEdited(_ path: String, _ json: String, then more: (String, String)? = nil) throws -> DemoConfig {
        var data = try Data(contentsOf: URL(fileURLWithPath: Self.configFile))
        data = try JSONEdit.replacing(path, with: json, in: data)
        if let more { data = try JSONEdit.replacing(more.0, with: more.1, in: data) }
        return try DemoConfigLoader.decode(data, file: Self.configFile)
    }
}

/// Sets or removes the value at a field path such as `groups[0].items[1].name` in a JSON document.
enum JSONEdit {
    static func replacing(_ path: String, with json: String?, in data: Data) throws -> Data {
        let root = try JSONSerialization.jsonObject(with: data)
        let value = try json.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) }
        let edited = set(value, at: components(path)[...], in: root)
        return try JSONSerialization.data(withJSONObject: edited)
    }

    /// `a[0].b` → `["a", 0, "b"]`, a string for a key and an Int for an index.
    private static func components(_ path: String) -> [Any] {
        var result: [Any] = []
        for part in path.split(separator: ".") {
            let pieces = part.split(separator: "[")
            if let key = pieces.first, !part.hasPrefix("[") { result.append(String(key)) }
            for index in pieces.dropFirst() { result.append(Int(index.dropLast())!) }
        }
        return result
    }

    private static func set(_ value: Any?, at path: ArraySlice<Any>, in node: Any) -> Any {
        guard let head = path.first else { return value ?? NSNull() }
        let rest = path.dropFirst()
        if let index = head as? Int, var array = node as? [Any] {
            if index == array.count, let value, rest.isEmpty {
                array.append(value)
            } else if rest.isEmpty && value == nil {
                array.remove(at: index)
            } else {
                array[index] = set(value, at: rest, in: array[index])
            }
            return array
        }
        var object = node as? [String: Any] ?? [:]
        let key = head as! String
        if rest.isEmpty && value == nil {
            object[key] = nil
        } else {
            object[key] = set(value, at: rest, in: object[key] ?? [String: Any]())
        }
        return object
    }
}
