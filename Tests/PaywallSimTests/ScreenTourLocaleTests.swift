import Simulation
import Testing
import WhiteLabel

/// `paywall-sim screens` of an app whose store speaks another language than English: Apple's sheets say
/// "Abonnieren" and "OK", and the tour looked for "Subscribe", pressed "Abbrechen" instead, and printed the still
/// locked article under "The server answered: the content is unlocked" (session 41, a German `.storekit` file).
@Suite struct ScreenTourLocaleTests {
    @Test(arguments: ["de_DE", "fr_FR", "ja_JP"])
    func theTourBuysAndShowsTheContentUnlockedInTheStoresLanguage(_ locale: String) throws {
        var config = try DemoConfigLoader.load(path: "\(SnapshotFiles.packageRoot)/demo-configs/daily-news.json")
        config.store.locale = locale
        let stops = try ScreenTour.run(config: config)
        let unlocked = try #require(stops.first { $0.caption == "The server answered: the content is unlocked" })
        #expect(!unlocked.text().contains("Subscribe to read"))
        #expect(stops.contains { $0.caption.hasPrefix("Paid: the app waits for the server") })
        // The manage sheet's "Done" is "Fertig", "OK", "完了": the tour closes it and goes on to the restore.
        #expect(stops.contains { $0.caption.hasPrefix("Manage my subscription") })
        let restore = try #require(stops.last)
        #expect(restore.caption == "An alert: what a restore found, over the profile" && restore.screen.alert != nil)
    }
}
