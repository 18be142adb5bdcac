import Foundation
import Simulation
import Testing
import WhiteLabel

@Suite struct DemoConfigLoaderTests {
    @Test func theBundledDemoAppLoads() throws {
        let config = try TestSupport.demoConfig()
        #expect(config.app.id == "daily-news")
        #expect(config.app.subscriptions.map(\.id) == ["premium-yearly", "premium-monthly", "premium-weekly"])
    }

    /// The bundled config with one change, decoded; the error it gives.
    private func error(editing edit: (inout [String: Any]) -> Void) throws -> ConfigError? {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(TestSupport.packageRoot)/demo-configs/daily-news.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        let edited = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try DemoConfigLoader.decode(edited, file: "broken.json")
            return nil
        } catch {
            return error
        }
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

    @Test func aLocaleNoProductIsTranslatedForIsRefused() throws {
        let data = try config(replacing: #""locale": "en_US""#, with: #""locale": "ja_JP""#)
        #expect(throws: ConfigError.self) { try DemoConfigLoader.decode(data, file: "app.json") }
        do {
            _ = try DemoConfigLoader.decode(data, file: "app.json")
        } catch {
            #expect(error.location == "store.locale")
            #expect(error.message.contains("en_US, fr_FR"))
        }
    }

    @Test func anUnknownStorefrontIsAClearErrorWhenTheWorldIsBuilt() throws {
        let data = try config(replacing: #""storefront": "USA""#, with: #""storefront": "XYZ""#)
        let config = try DemoConfigLoader.decode(data, file: "app.json")
        #expect(throws: WorldSetupError.self) { try World(config: config, options: WorldOptions()) }
    }
}

/// Input that loaded and did silent damage: a price read as another, an id that moves the state folder.
@Suite struct HostileConfigTests {
    private func error(replacing old: String, with new: String) throws -> ConfigError? {
        let text = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        #expect(text.contains(old))
        do {
            _ = try DemoConfigLoader.decode(Data(text.replacingOccurrences(of: old, with: new).utf8), file: "app.json")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["4,99", "-4.99", "4.99.1", " 4.99", "1e3", ""])
    func aPriceThatIsNotPlainDigitsIsRefusedWithItsField(price: String) throws {
        let error = try #require(try error(replacing: #""USA": "4.99""#, with: #""USA": "\#(price)""#))
        #expect(error.description.hasPrefix("app.json: store.products[0].prices.USA: "), "\(error)")
    }

    @Test(arguments: ["../../..", "a/b", ".hidden", "..", "news app"])
    func anAppIdThatIsNotAPlainNameIsRefused(id: String) throws {
        let error = try #require(try error(replacing: #""id": "daily-news""#, with: #""id": "\#(id)""#))
        #expect(error.location == "app.id")
    }
}
