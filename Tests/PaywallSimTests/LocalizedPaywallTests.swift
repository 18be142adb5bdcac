import Foundation
import Scenarios
import SimKernel
import StoreSim
import Testing
import WhiteLabel

/// The paywall in the phone's language: the owner's words per locale, the store's period and trial words,
/// and Apple's sheet, on the bundled Podcast Club (its own `.storekit` file translates en, fr, de, ja).
@Suite struct LocalizedPaywallTests {
    private func run(_ text: String) throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(text, file: "inline.scenario")
        return ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
    }

    @Test func aFrenchReaderReadsTheOwnersFrenchWordsAndTheStoresAndApplesSheetInFrench() throws {
        let result = try run(
            """
            app podcast-club
            storefront FRA
            locale fr_FR
            launch
            open content ep-102-bread
            subscribe
            expect text "Devenez Listener+"
            expect text "Listener+ mensuel : 1 semaine gratuite, puis 4,99"
            expect text "€ par mois"
            expect text "Restaurer l’achat"
            select offer listener-monthly
            expect text "Gratuit pendant 1 semaine, puis 4,99"
            expect text "€ par mois. Renouvellement automatique"
            expect text "S’abonner"
            confirm payment
            expect levels listener
            """)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    /// Apple's price-increase sheet speaks the phone's language too: heading, terms and both buttons.
    @Test func aFrenchReaderAgreesToAPriceIncreaseOnAFrenchSheet() throws {
        let result = try run(
            """
            app podcast-club
            storefront FRA
            locale fr_FR
            launch
            open paywall
            select offer listener-monthly
            confirm payment
            store price-increase com.podcastclub.listener.monthly 5.99
            foreground
            expect screen app-store-sheet
            expect text "Hausse de prix : Listener+ mensuel"
            expect text "Le prix de votre abonnement augmente."
            expect text "Accepter"
            expect text "Plus tard"
            confirm payment
            expect timeline "PRICE_INCREASE/ACCEPTED"
            """)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    @Test func aJapaneseReaderReadsJapanesePeriodsWithNoSpaces() throws {
        let result = try run(
            """
            app podcast-club
            storefront USA
            locale ja_JP
            launch
            open paywall
            expect text "Listener+ に登録"
            expect text "Listener+ 月額：1週間無料、その後毎月$4.99"
            select offer listener-yearly
            expect text "毎年$44.99。"
            expect text "設定でキャンセルするまで自動的に更新され"
            expect text "キャンセル"
            """)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    /// The language changes in Settings while the paywall is open: the owner's words and the store's follow.
    @Test func switchingTheLanguageRewordsTheOpenPaywall() throws {
        let result = try run(
            """
            app podcast-club
            launch
            open paywall
            expect text "Listener+ Monthly: 1 week free, then"
            locale de_DE
            expect text "Werde Listener+"
            expect text "Listener+ monatlich: 1 Woche gratis, dann 4,99"
            expect text "$ pro Monat"
            expect text "Kauf wiederherstellen"
            restore
            """)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    @Test func theStoresWordsForEachLanguageTheDemosUse() {
        let week = CalendarPeriod(unit: .week, value: 1)
        let month = CalendarPeriod(unit: .month, value: 1)
        let quarter = CalendarPeriod(unit: .month, value: 3)
        #expect(StoreWords(locale: "fr_FR").freeTrial(week) == "1 semaine gratuite")
        #expect(StoreWords(locale: "fr_FR").perPeriod(quarter) == "tous les 3 mois")
        // "Semaine" is feminine (session 28).
        #expect(StoreWords(locale: "fr_FR").perPeriod(CalendarPeriod(unit: .week, value: 2)) == "toutes les 2 semaines")
        #expect(StoreWords(locale: "de_DE").perPeriod(month) == "pro Monat")
        #expect(StoreWords(locale: "es_ES").perPeriod(month) == "al mes")
        #expect(StoreWords(locale: "it_IT").freeTrial(week) == "1 settimana gratis")
        #expect(StoreWords(locale: "ja_JP").freeTrial(week) == "1週間無料")
        #expect(StoreWords(locale: "pt_BR").perPeriod(month) == "por mês")
        #expect(StoreWords(locale: "en_US").perPeriod(quarter) == "per 3 months")
        // A one-period introductory price says how long it lasts, as Apple does (session 28).
        let intro = { (locale: String, period: CalendarPeriod) in
            StoreWords(locale: locale).offerTerms(mode: .payAsYouGo, price: "0.99", period: period, count: 1)
        }
        #expect(intro("en_US", month) == "0.99 for the first month, then ")
        #expect(intro("fr_FR", CalendarPeriod(unit: .week, value: 2)) == "0.99 les 2 premières semaines, puis ")
        #expect(intro("de_DE", week) == "0.99 für die erste Woche, dann ")
        // A language without a table reads English rather than nothing.
        #expect(StoreWords(locale: "ar").language == "en")
    }

    @Test func aBadTemplateInALocaleNamesTheFileAndTheField() throws {
        let path = "\(TestSupport.packageRoot)/demo-configs/podcast-club.json"
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var app = try #require(json["app"] as? [String: Any])
        var paywall = try #require(app["paywall"] as? [String: Any])
        paywall["localizations"] = ["fr": ["offer": "{title} : {prix}"], "de": ["title": " "]]
        app["paywall"] = paywall
        json["app"] = app
        let data = try JSONSerialization.data(withJSONObject: json)
        // The config's own folder, so its .storekit file is found.
        #expect(throws: ConfigError.self) { try DemoConfigLoader.decode(data, file: path) }
        do {
            _ = try DemoConfigLoader.decode(data, file: path)
        } catch {
            #expect(error.description == "\(path): app.paywall.localizations.de.title: must not be empty")
        }
        paywall["localizations"] = ["fr": ["offer": "{title} : {prix}"]]
        app["paywall"] = paywall
        json["app"] = app
        let unknown = try JSONSerialization.data(withJSONObject: json)
        do {
            _ = try DemoConfigLoader.decode(unknown, file: path)
            Issue.record("a template with {prix} was accepted")
        } catch {
            #expect(
                error.description.hasPrefix("\(path): app.paywall.localizations.fr.offer: unknown placeholder {prix}"))
        }
    }
}
