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

    @Test func contentOfALevelOnlyAProductOffPaywallGrantsIsRefused() throws {
        let error = try #require(
            try error { object in
                Self.edit(&object, "backend") { backend in
                    var levels = backend["productLevels"] as! [String: Any]
                    levels["com.dailynews.gold"] = ["gold"]
                    backend["productLevels"] = levels
                }
                Self.edit(&object, "app") { app in
                    var content = app["content"] as! [[String: Any]]
                    content[2]["requiredLevels"] = ["gold"]
                    app["content"] = content
                }
            })
        #expect(error.location == "app.content[2].requiredLevels")
        #expect(
            error.message
                == "level \"gold\" is granted only by products app.subscriptions does not offer (com.dailynews.gold): "
                + "no reader can buy \"school-meals\"")
    }

    @Test func contentWithOneLevelThePaywallSellsLoads() throws {
        let error = try error { object in
            Self.edit(&object, "backend") { backend in
                var levels = backend["productLevels"] as! [String: Any]
                levels["com.dailynews.gold"] = ["gold"]
                backend["productLevels"] = levels
            }
            Self.edit(&object, "app") { app in
                var content = app["content"] as! [[String: Any]]
                content[2]["requiredLevels"] = ["gold", "premium"]
                app["content"] = content
            }
        }
        #expect(error == nil)
    }
}
