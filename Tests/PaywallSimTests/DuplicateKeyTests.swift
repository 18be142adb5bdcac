import Foundation
import Testing
import WhiteLabel

/// A key given twice keeps one value and drops the other in silence: `"kids": false` then `"kids": true` ran
/// without the parental gate (session 28). A config, a theme and a `.storekit` file are refused alike.
@Suite struct DuplicateKeyTests {
    @Test func aConfigKeyGivenTwiceIsRefusedWithItsLineAndPath() throws {
        let text = try TestSupport.packageText("demo-configs/daily-news.json")
        let edited = text.replacingOccurrences(of: "\"kids\": false,", with: "\"kids\": false,\n    \"kids\": true,")
        #expect(edited != text)
        let error = #expect(throws: ConfigError.self) {
            try DemoConfigLoader.decode(Data(edited.utf8), file: "kids.json")
        }
        #expect(error?.location == "line 57, column 5")
        #expect(error?.message == "app.kids is given twice (first on line 56); only one value would be read: keep one")
    }

    @Test func aKeyGivenTwiceInADictionaryOrAListIsNamedByItsPath() throws {
        let text = try TestSupport.packageText("themes/newsprint.json")
        let edited = text.replacingOccurrences(
            of: "\"accent\":    { \"c256\": 167,",
            with: "\"accent\":    { \"c256\": 167, \"c\\u0032\\u0035\\u0036\": 1,")
        #expect(edited != text)
        let error = #expect(throws: ConfigError.self) { try ThemeLoader.decode(Data(edited.utf8), file: "t.json") }
        #expect(error?.message.hasPrefix("colors.accent.c256 is given twice") == true, "\(error?.message ?? "")")
    }

    @Test func aStoreKitFileKeyGivenTwiceIsRefused() throws {
        let text = try TestSupport.packageText("demo-configs/podcast-club.storekit")
        let edited = text.replacingOccurrences(
            of: "\"productID\" : \"com.podcastclub.listener.monthly\",",
            with: "\"productID\" : \"com.podcastclub.listener.monthly\", \"productID\" : \"other\",")
        #expect(edited != text)
        let error = #expect(throws: ConfigError.self) {
            try StoreKitConfiguration.decode(Data(edited.utf8), file: "p.storekit")
        }
        #expect(error?.message.hasPrefix("subscriptionGroups[0].subscriptions[0].productID is given twice") == true)
    }

    @Test func theSameKeyInTwoObjectsIsNoDuplicate() throws {
        _ = try DemoConfigLoader.decode(
            Data(try TestSupport.packageText("demo-configs/daily-news.json").utf8), file: "d.json")
    }
}
