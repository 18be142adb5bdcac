import Foundation
import Simulation
import Testing
import WhiteLabel

/// The bundled config with one change, decoded as `file`; the error it gives.
private func configError(file: String, editing edit: (inout [String: Any]) -> Void) throws -> ConfigError? {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    edit(&object)
    let edited = try JSONSerialization.data(withJSONObject: object)
    do {
        _ = try DemoConfigLoader.decode(edited, file: file)
        return nil
    } catch {
        return error
    }
}

@Suite struct DemoConfigLoaderTests {
    @Test func theBundledDemoAppLoads() throws {
        let config = try TestSupport.demoConfig()
        #expect(config.app.id == "daily-news")
        #expect(config.app.subscriptions.map(\.id) == ["premium-yearly", "premium-monthly", "premium-weekly"])
    }

    private func error(editing edit: (inout [String: Any]) -> Void) throws -> ConfigError? {
        try configError(file: "broken.json", editing: edit)
    }

    private static func app(_ object: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var app = object["app"] as! [String: Any]
        change(&app)
        object["app"] = app
    }

    @Test func aMissingFieldIsNamedWithItsPath() throws {
        let error = try #require(
            try error { object in
                Self.app(&object) { app in
                    var subscriptions = app["subscriptions"] as! [[String: Any]]
                    subscriptions[1]["productId"] = nil
                    app["subscriptions"] = subscriptions
                }
            })
        #expect(error.description == "broken.json: app.subscriptions[1].productId: is missing")
    }

    @Test func aValueOfTheWrongTypeIsNamedWithItsPath() throws {
        let error = try #require(try error { object in Self.app(&object) { $0["kids"] = "yes" } })
        #expect(error.description == "broken.json: app.kids: should be true or false")
    }

    @Test func anUnknownPlaceholderInTheOwnersTextIsRefused() throws {
        let error = try #require(
            try error { object in
                Self.app(&object) { app in
                    var paywall = app["paywall"] as! [String: Any]
                    paywall["offer"] = "{title} for {cost}"
                    app["paywall"] = paywall
                }
            })
        #expect(error.location == "app.paywall.offer")
        #expect(error.message.contains("{cost}"))
    }

    @Test func aSubscriptionThatGrantsNoLevelIsRefused() throws {
        let error = try #require(
            try error { object in
                Self.app(&object) { app in
                    var subscriptions = app["subscriptions"] as! [[String: Any]]
                    subscriptions[0]["productId"] = "com.dailynews.unknown"
                    app["subscriptions"] = subscriptions
                }
            })
        #expect(error.location == "app.subscriptions[0].productId")
    }

    @Test func aBadSubscriptionPeriodIsNamed() throws {
        let error = try #require(
            try error { object in
                var store = object["store"] as! [String: Any]
                var products = store["products"] as! [[String: Any]]
                products[1]["subscriptionPeriod"] = "monthly"
                store["products"] = products
                object["store"] = store
            })
        #expect(error.location == "store.products[1].subscriptionPeriod")
    }

    @Test func aSyntaxErrorNamesTheLine() throws {
        let text = "{\n  \"app\": {\n    \"id\": \"x\",,\n  }\n}\n"
        #expect(throws: ConfigError.self) { try DemoConfigLoader.decode(Data(text.utf8), file: "syntax.json") }
        do {
            _ = try DemoConfigLoader.decode(Data(text.utf8), file: "syntax.json")
        } catch {
            #expect(error.description.hasPrefix("syntax.json: line 3"))
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: ConfigError(file: "/nonexistent/app.json", message: "no such file")) {
            try DemoConfigLoader.load(path: "/nonexistent/app.json")
        }
    }
}

@Suite struct StoreSettingsErrorTests {
    private func config(replacing old: String, with new: String) throws -> Data {
        let text = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        return Data(text.replacingOccurrences(of: old, with: new).utf8)
    }

    /// `--locale`'s rule (session 28: es_ES was refused in a config and taken from the command line): a locale no
    /// product is translated for is served in English titles when the store has its language's prices, refused when
    /// it has not, as the store is made.
    @Test func aLocaleNoProductIsTranslatedForIsRefusedUnlessTheStoreHasItsPrices() throws {
        _ = try World(
            config: DemoConfigLoader.decode(
                try config(replacing: #""locale": "en_US""#, with: #""locale": "ja_JP""#), file: "app.json"),
            options: WorldOptions())
        let dutch = try DemoConfigLoader.decode(
            try config(replacing: #""locale": "en_US""#, with: #""locale": "nl_NL""#), file: "app.json")
        let error = #expect(throws: WorldSetupError.self) { try World(config: dutch, options: WorldOptions()) }
        #expect(error?.description.hasPrefix("app.json: store.locale: no product is translated for \"nl_NL\"") == true)
        #expect(error?.description.contains("translated: en_US, fr_FR") == true)
    }

    @Test func anUnknownStorefrontIsAClearErrorWhenTheWorldIsBuilt() throws {
        let data = try config(replacing: #""storefront": "USA""#, with: #""storefront": "XYZ""#)
        let config = try DemoConfigLoader.decode(data, file: "app.json")
        #expect(throws: WorldSetupError.self) { try World(config: config, options: WorldOptions()) }
    }
}

/// Input that loaded and did silent damage: a price read as another, an id that moves the state folder.
@Suite struct HostileConfigTests {
    @Test(arguments: ["4,99", "-4.99", "4.99.1", " 4.99", "1e3", ""])
    func aPriceThatIsNotPlainDigitsIsRefusedWithItsField(price: String) throws {
        let error = try #require(
            try TestSupport.configError(replacing: #""USA": "4.99""#, with: #""USA": "\#(price)""#))
        #expect(error.description.hasPrefix("app.json: store.products[0].prices.USA: "), "\(error)")
    }

    @Test(arguments: ["../../..", "a/b", ".hidden", "..", "news app"])
    func anAppIdThatIsNotAPlainNameIsRefused(id: String) throws {
        let error = try #require(
            try TestSupport.configError(replacing: #""id": "daily-news""#, with: #""id": "\#(id)""#))
        #expect(error.location == "app.id")
    }

    /// A theme is a name in themes/: "../x" read any .json on disk as one (session 28).
    @Test(arguments: ["../../tmp/x", "a/b", ".hidden", "..", "", "/etc/theme"])
    func aThemeThatIsNotAPlainNameIsRefused(theme: String) throws {
        let error = try #require(
            try TestSupport.configError(replacing: #""theme": "newsprint""#, with: #""theme": "\#(theme)""#))
        #expect(error.location == "app.theme")
    }
}

/// Input that crashed the tool or sold nonsense in silence (found in session 24): refused, naming the field.
@Suite struct AmbiguousConfigTests {
    private func error(editing edit: (inout [String: Any]) -> Void) throws -> ConfigError? {
        try configError(file: "app.json", editing: edit)
    }

    private static func edit(_ object: inout [String: Any], _ part: String, _ change: (inout [String: Any]) -> Void) {
        var value = object[part] as! [String: Any]
        change(&value)
        object[part] = value
    }

    private static func products(_ object: inout [String: Any], _ change: (inout [[String: Any]]) -> Void) {
        edit(&object, "store") { store in
            var products = store["products"] as! [[String: Any]]
            change(&products)
            store["products"] = products
        }
    }

    private static func subscriptions(_ object: inout [String: Any], _ change: (inout [[String: Any]]) -> Void) {
        edit(&object, "app") { app in
            var subscriptions = app["subscriptions"] as! [[String: Any]]
            change(&subscriptions)
            app["subscriptions"] = subscriptions
        }
    }

    /// Two products with one id crashed every command that built the world ("Duplicate values for key").
    @Test func aProductListedTwiceIsRefused() throws {
        let error = try #require(try error { Self.products(&$0) { $0.append($0[0]) } })
        #expect(error.location?.hasSuffix("].productId") == true, "\(error)")
        #expect(error.message.contains("listed twice (first as store.products[0])"))
    }

    @Test func oneProductUnderTwoPaywallOffersIsRefused() throws {
        let error = try #require(
            try error {
                Self.subscriptions(&$0) { subscriptions in
                    var copy = subscriptions[1]
                    copy["id"] = "premium-monthly-again"
                    subscriptions.append(copy)
                }
            })
        #expect(error.location == "app.subscriptions[3].productId")
        #expect(error.message.contains("already offered by app.subscriptions[1]"))
    }

    @Test func aConsumableOnThePaywallIsRefused() throws {
        let error = try #require(try error { Self.products(&$0) { $0[0]["type"] = "consumable" } })
        #expect(error.message.contains("is a consumable product, not a subscription"), "\(error)")
    }

    @Test func aProductMappedToNoLevelIsRefused() throws {
        let error = try #require(
            try error {
                Self.edit(&$0, "backend") { backend in
                    var levels = backend["productLevels"] as! [String: Any]
                    levels["com.dailynews.premium.monthly"] = [String]()
                    backend["productLevels"] = levels
                }
            })
        #expect(error.location == "backend.productLevels.com.dailynews.premium.monthly")
    }

    @Test func emptyNamesAreRefused() throws {
        #expect(try error { Self.edit(&$0, "app") { $0["name"] = " " } }?.location == "app.name")
        #expect(try error { Self.edit(&$0, "app") { $0["bundleId"] = "" } }?.location == "app.bundleId")
        #expect(try error { Self.edit(&$0, "store") { $0["locale"] = "" } }?.location == "store.locale")
        #expect(try error { Self.subscriptions(&$0) { $0[0]["id"] = "" } }?.location == "app.subscriptions[0].id")
        #expect(try error { Self.products(&$0) { $0[0]["productId"] = "" } }?.location == "store.products[0].productId")
    }

    @Test func aPromotionalOfferListedTwiceIsRefused() throws {
        let error = try #require(
            try error {
                Self.products(&$0) { products in
                    let index = products.firstIndex { ($0["promotionalOffers"] as? [Any])?.isEmpty == false }!
                    var offers = products[index]["promotionalOffers"] as! [Any]
                    offers.append(offers[0])
                    products[index]["promotionalOffers"] = offers
                }
            })
        #expect(error.location?.contains(".promotionalOffers[") == true, "\(error)")
        #expect(error.message.contains("is listed twice"))
    }

    /// Names a reader would see empty (": $4.99 per month"), or one the backend would grant as a level.
    @Test func emptyTitlesLevelsAndContentIdsAreRefused() throws {
        let title = try error {
            Self.products(&$0) { products in
                var localizations = products[0]["localizations"] as! [String: [String: Any]]
                localizations["en_US"]?["title"] = "  "
                products[0]["localizations"] = localizations
            }
        }
        #expect(title?.location == "store.products[0].localizations.en_US.title")
        let level = try error {
            Self.edit(&$0, "backend") { backend in
                var levels = backend["productLevels"] as! [String: Any]
                levels["com.dailynews.premium.monthly"] = ["premium", ""]
                backend["productLevels"] = levels
            }
        }
        #expect(level?.location == "backend.productLevels.com.dailynews.premium.monthly")
        let content = try error {
            Self.edit(&$0, "app") { app in
                var content = app["content"] as! [[String: Any]]
                content[0]["id"] = ""
                app["content"] = content
            }
        }
        #expect(content?.location == "app.content[0].id")
    }

    /// A storefront code the App Store does not have sells nothing anywhere: refused as the world is built.
    @Test func aPriceInAnUnknownStorefrontIsRefused() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(
            of: #""USA": "4.99""#, with: #""USA": "4.99", "QQQ": "4.99""#)
        let config = try DemoConfigLoader.decode(Data(text.utf8), file: "app.json")
        #expect(throws: WorldSetupError.self) { try World(config: config, options: WorldOptions()) }
    }
}

/// A field the config's model never reads is bad input, named with its path: `introductoryOfer` dropped the yearly
/// plan's free trial, `acount` the account rule, and `check` said nothing (session 26, the tester's 07).
@Suite struct UnknownFieldTests {
    @Test func theTestersThreeTyposAreNamedWithWhatTheyMeant() throws {
        let error = try #require(
            try configError(file: "typos.json") { object in
                var app = object["app"] as! [String: Any]
                app["acount"] = ["mode": "required-after-subscribing"]
                object["app"] = app
                var store = object["store"] as! [String: Any]
                var products = store["products"] as! [[String: Any]]
                products[0]["promotionalOffer"] = products[0]["promotionalOffers"]
                products[0]["promotionalOffers"] = nil
                products[1]["introductoryOfer"] = products[1]["introductoryOffer"]
                products[1]["introductoryOffer"] = nil
                store["products"] = products
                object["store"] = store
            })
        #expect(error.location == "app.acount")
        #expect(
            error.message
                == "unknown field, which paywall-sim does not read; did you mean \"account\"?; also unknown: "
                + "store.products[0].promotionalOffer, store.products[1].introductoryOfer")
    }

    @Test func aMissingFieldSaysWhichFieldLooksLikeIt() throws {
        let error = try #require(
            try configError(file: "app.json") { object in
                var app = object["app"] as! [String: Any]
                app["bundleID"] = app["bundleId"]
                app["bundleId"] = nil
                object["app"] = app
            })
        #expect(error.description == "app.json: app.bundleId: is missing (the file has \"bundleID\" there: a typo?)")
    }

    @Test func aFieldLikeNoneIsNamedWithTheFieldsThere() throws {
        let error = try #require(try configError(file: "app.json") { $0["comment"] = "made by hand" })
        #expect(error.location == "comment")
        #expect(error.message.hasSuffix("(fields here: app, backend, store)"))
    }

    @Test func aFieldInAnotherCaseIsNamed() throws {
        let error = try #require(
            try configError(file: "app.json") { object in
                var backend = object["backend"] as! [String: Any]
                backend["RestorePolicy"] = "transfer"
                object["backend"] = backend
            })
        #expect(error.description.hasPrefix("app.json: backend.RestorePolicy: unknown field"))
        #expect(error.message.hasSuffix("did you mean \"restorePolicy\"?"))
    }

    /// Storefront codes, locales, product ids and content ids are the owner's keys, not the model's fields.
    @Test func theOwnersOwnKeysAreNotFields() throws {
        for name in ["daily-news", "fit-track", "kids-stories", "podcast-club"] {
            _ = try TestSupport.demoConfig(name)
        }
    }

    @Test func aThemesUnknownFieldOrRoleIsNamed() throws {
        let path = "\(TestSupport.packageRoot)/themes/newsprint.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (old, new, location, says) in [
            (
                "\"border\": \"double\",", "\"border\": \"double\", \"bordr\": \"single\",", "bordr",
                "did you mean \"border\"?"
            ),
            ("\"accent\"", "\"acent\"", "colors.acent", "not a color role; did you mean \"accent\"?"),
        ] {
            let edited = text.replacingOccurrences(of: old, with: new)
            #expect(edited != text)
            #expect(throws: ConfigError.self) { try ThemeLoader.decode(Data(edited.utf8), file: "t.json") }
            do {
                _ = try ThemeLoader.decode(Data(edited.utf8), file: "t.json")
            } catch {
                #expect(error.location == location)
                #expect(error.message.contains(says), "\(error.message)")
            }
        }
    }
}
