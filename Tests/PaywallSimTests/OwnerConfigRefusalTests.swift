import Foundation
import Testing
import WhiteLabel

/// An owner's config that loaded and sold something else than it said (session 28): refused, exit 2, naming the field.
@Suite struct OwnerConfigRefusalTests {
    /// daily-news.json with one change; the error decoding it gives.
    private func error(editing edit: (inout [String: Any]) -> Void) throws -> ConfigError? {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        let edited = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try DemoConfigLoader.decode(edited, file: "app.json")
            return nil
        } catch {
            return error
        }
    }

    private static func edit(_ object: inout [String: Any], _ part: String, _ change: (inout [String: Any]) -> Void) {
        var value = object[part] as! [String: Any]
        change(&value)
        object[part] = value
    }

    /// A "gold" level that only com.dailynews.gold, a product off the paywall, grants; school-meals requiring `levels`.
    private func goldError(schoolMealsRequires levels: [String]) throws -> ConfigError? {
        try error { object in
            Self.edit(&object, "backend") { backend in
                var granted = backend["productLevels"] as! [String: Any]
                granted["com.dailynews.gold"] = ["gold"]
                backend["productLevels"] = granted
            }
            Self.edit(&object, "app") { app in
                var content = app["content"] as! [[String: Any]]
                content[2]["requiredLevels"] = levels
                app["content"] = content
            }
        }
    }

    @Test func contentOfALevelOnlyAProductOffPaywallGrantsIsRefused() throws {
        let error = try #require(try goldError(schoolMealsRequires: ["gold"]))
        #expect(error.location == "app.content[2].requiredLevels")
        #expect(
            error.message
                == "level \"gold\" is granted only by products app.subscriptions does not offer (com.dailynews.gold): "
                + "no reader can buy \"school-meals\"")
    }

    @Test func contentWithOneLevelThePaywallSellsLoads() throws {
        #expect(try goldError(schoolMealsRequires: ["gold", "premium"]) == nil)
    }

    /// podcast-club.json's store part replaced by `store`, beside `storekit` (the file's text) in a folder of its own.
    private func storeError(_ store: String, storekit: String) throws -> ConfigError? {
        let folder = try TestSupport.temporaryDirectory()
        try Data(storekit.utf8).write(to: URL(fileURLWithPath: "\(folder)/shop.storekit"))
        let config = try Data(
            contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/podcast-club.json"))
        let edited = try JSONEdit.replacing("store", with: store, in: config)
        do {
            _ = try DemoConfigLoader.decode(edited, file: "\(folder)/app.json")
            return nil
        } catch {
            return error
        }
    }

    private static let podcastFile = "\(TestSupport.packageRoot)/demo-configs/podcast-club.storekit"

    @Test func aStorefrontTheSimulatorDoesNotKnowIsNamedWhereTheConfigListsIt() throws {
        let error = try #require(
            try storeError(
                #"{"storekitFile": "shop.storekit", "storefronts": ["USA", "GBR", "FRA", "BEL"]}"#,
                storekit: String(contentsOfFile: Self.podcastFile, encoding: .utf8)))
        #expect(error.location == "store.storefronts[3]")
        #expect(error.message.hasPrefix("\"BEL\" is not a storefront the simulator knows (storefronts: USA, CAN,"))
    }

    /// `--storekit` refused such a file; `store.storekitFile` sold nothing from it, exit 0 (session 28).
    @Test(arguments: ["{}", #"{"app": {"id": "x"}}"#])
    func aStoreKitFileWithNoSubscriptionIsRefusedAsWithStorekit(text: String) throws {
        let error = try #require(try storeError(#"{"storekitFile": "shop.storekit"}"#, storekit: text))
        #expect(error.file.hasSuffix("/shop.storekit"))
        #expect(error.location == "subscriptionGroups")
        #expect(error.message.hasPrefix("holds no auto-renewable subscription"))
    }

    /// Without `storefronts`, the file's products sell everywhere, as `--storekit` sells them (session 28).
    @Test func withoutStorefrontsTheFileSellsInEveryStorefront() throws {
        let folder = try TestSupport.temporaryDirectory()
        try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile)).write(
            to: URL(fileURLWithPath: "\(folder)/shop.storekit"))
        let config = try Data(
            contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/podcast-club.json"))
        let edited = try JSONEdit.replacing("store", with: #"{"storekitFile": "shop.storekit"}"#, in: config)
        let loaded = try DemoConfigLoader.decode(edited, file: "\(folder)/app.json")
        let yearly = try #require(loaded.store.products.first { $0.productId == "com.podcastclub.listener.yearly" })
        #expect(yearly.prices.keys.sorted() == StorefrontCodes.known.sorted())
    }

    private func localizationError(_ keys: [String]) throws -> ConfigError? {
        try error { object in
            Self.edit(&object, "app") { app in
                var paywall = app["paywall"] as! [String: Any]
                paywall["localizations"] = Dictionary(uniqueKeysWithValues: keys.map { ($0, ["title": "T"]) })
                app["paywall"] = paywall
            }
        }
    }

    /// Not a locale: a region alone, a language ISO 639-1 has not, a region in lower case.
    @Test(arguments: ["FR", "xx_YY", "fr_fr", "fr_YY", "fr-FR_x", ""])
    func anOwnersTextKeyedWithWhatIsNotALocaleIsRefused(key: String) throws {
        let error = try #require(try localizationError([key]))
        #expect(error.location == "app.paywall.localizations.\(key)")
        #expect(error.message.hasPrefix("\"\(key)\" is not a locale such as fr_FR, fr-FR or fr"))
    }

    @Test func twoKeysForOneLocaleAreRefused() throws {
        let error = try #require(try localizationError(["fr-FR", "fr_FR"]))
        #expect(error.location == "app.paywall.localizations.fr_FR")
        #expect(error.message == "names the same locale as \"fr-FR\" (fr_FR): keep one")
    }

    @Test func bcp47KeysAreReadAsPosixLocales() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        Self.edit(&object, "app") { app in
            var paywall = app["paywall"] as! [String: Any]
            paywall["localizations"] = [
                "fr-FR": ["title": "Français"], "es-419": ["title": "Español"], "de": ["title": "Deutsch"],
                "zh-Hant-TW": ["title": "中文"],
            ]
            app["paywall"] = paywall
        }
        let config = try DemoConfigLoader.decode(try JSONSerialization.data(withJSONObject: object), file: "a.json")
        let paywall = config.app.paywall
        #expect(paywall.localized(for: "fr_FR").title == "Français")
        #expect(paywall.localized(for: "fr-FR").title == "Français")
        #expect(paywall.localized(for: "es_419").title == "Español")
        #expect(paywall.localized(for: "de_AT").title == "Deutsch")
        #expect(paywall.localized(for: "zh_Hant_TW").title == "中文")
        #expect(paywall.localized(for: "fr_CA").title == paywall.title)
    }

    /// Every field an enumeration fills lists what it takes, as other messages do (session 28).
    @Test func aValueAFieldDoesNotTakeIsNamedWithTheValuesItTakes() throws {
        let mode = try #require(
            try TestSupport.configError(replacing: #""mode": "optional""#, with: #""mode": "sometimes""#))
        #expect(mode.location == "app.account.mode")
        #expect(
            mode.message
                == "\"sometimes\" is not one of the values this field takes: optional, required-after-subscribing")
        let policy = try #require(
            try error { object in
                Self.edit(&object, "backend") { $0["restorePolicy"] = "keep" }
            })
        #expect(policy.message.hasSuffix("takes: transfer, keep-with-original-owner, transfer-if-owner-inactive"))
    }

    @Test func aThemeColourNamesTheEightColours() throws {
        let text = try String(contentsOfFile: "\(TestSupport.packageRoot)/themes/newsprint.json", encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""c8": "red""#, with: #""c8": "purple""#)
        let error = #expect(throws: ConfigError.self) { try ThemeLoader.decode(Data(edited.utf8), file: "t.json") }
        #expect(error?.message.hasSuffix("takes: black, red, green, yellow, blue, magenta, cyan, white") == true)
    }

    /// A stray "}" was shown as typed; an unclosed "{" was already refused.
    @Test(arguments: ["{title}}: {price}", "}{title}", "{title}: {price} }"])
    func aStrayClosingBraceIsRefused(offer: String) throws {
        let error = try #require(
            try TestSupport.configError(
                replacing: #""offer": "{title}: {price} {perPeriod}","#, with: "\"offer\": \"\(offer)\","))
        #expect(error.location == "app.paywall.offer")
        #expect(error.message == "has a \"}\" that no \"{\" opens")
    }

    @Test(arguments: [("USA", "4.999", "USD has (2)"), ("GBR", "3.991", "GBP has (2)")])
    func aPriceWithMoreDecimalsThanItsCurrencyIsRefused(storefront: String, price: String, says: String) throws {
        let error = try #require(
            try error { object in
                Self.edit(&object, "store") { store in
                    var products = store["products"] as! [[String: Any]]
                    var prices = products[0]["prices"] as! [String: Any]
                    prices[storefront] = price
                    products[0]["prices"] = prices
                    store["products"] = products
                }
            })
        #expect(error.location == "store.products[0].prices.\(storefront)")
        #expect(error.message.contains(says), "\(error.message)")
    }

    @Test(arguments: ["0", "0.00"])
    func aSubscriptionPricedAtNothingIsRefused(price: String) throws {
        let error = try #require(
            try TestSupport.configError(replacing: #""USA": "4.99""#, with: "\"USA\": \"\(price)\""))
        #expect(error.location == "store.products[0].prices.USA")
        #expect(error.message.hasPrefix("a subscription's price must be more than 0"))
    }

    /// `--storekit` and `store.storekitFile` name the file's own field, not a config's.
    @Test func anEmptyProductIdentifierInAStoreKitFileNamesTheFilesField() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.podcastFile))
        let edited = try JSONEdit.replacing(
            "subscriptionGroups[0].subscriptions[1].productID", with: "\"\"", in: data)
        let error = #expect(throws: ConfigError.self) { try StoreKitConfiguration.decode(edited, file: "p.storekit") }
        #expect(error?.description == "p.storekit: subscriptionGroups[0].subscriptions[1].productID: must not be empty")
    }
}
