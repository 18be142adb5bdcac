import Foundation
import Testing

/// `check --paywall --storefront CODE --locale ID`: the paywall a reader elsewhere would see.
@Suite struct PaywallCheckPlaceTests {
    @Test func anotherStorefrontShowsItsCurrencyAndWhatItDoesNotSell() throws {
        let britain = try TestSupport.runBinary(["check", "--paywall", "--app", "daily-news", "--storefront", "GBR"])
        #expect(britain.code == 0, "\(britain.stderr)")
        #expect(britain.stdout.contains("(storefront GBR, locale en_US)"))
        #expect(britain.stdout.contains("premium-monthly: Premium Monthly: £3.99 per month"))
        let france = try TestSupport.runBinary(["check", "--paywall", "--app", "podcast-club", "--storefront", "FRA"])
        #expect(france.stdout.contains("listener-yearly (com.podcastclub.listener.yearly): not sold in storefront FRA"))
    }

    @Test func anotherLocaleShowsTheStoresTranslation() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", "daily-news", "--locale", "fr_FR"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(storefront USA, locale fr_FR)"))
        // The owner's French words (French spacing before the colon) and the store's French period.
        #expect(result.stdout.contains("premium-monthly: Premium mensuel : "))
        #expect(result.stdout.contains(" par mois"))
    }

    /// A phone's locale the store serves but the catalog does not translate reads English titles with that locale's
    /// prices and words, as `run` and `play` sell there (it was refused, session 24).
    @Test func aLocaleWithoutTranslationsReadsEnglishTitlesInItsOwnFormat() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", "podcast-club", "--locale", "es_ES"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("listener-monthly: Listener+ Monthly: 1 semana gratis, then 4,99"))
        #expect(result.stdout.contains(" al mes"))
    }

    /// A locale of a language the store serves is served whatever its country: es_US was refused while es_ES was
    /// served, neither translated (session 27).
    @Test func aLocaleIsServedByItsLanguage() throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", "daily-news", "--locale", "es_US"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(storefront USA, locale es_US)"))
        #expect(result.stdout.contains(" al mes"))
    }

    @Test(arguments: [
        (["--storefront", "XYZ"], "--storefront: unknown storefront \"XYZ\" (storefronts: USA"),
        (
            ["--locale", "sw_KE"],
            "--locale: no product is translated for \"sw_KE\" or its language, and the store has no prices in \"sw\" "
                + "(translated: en_US, fr_FR; the store's languages: de, en, es, fr, it, ja, pt)"
        ),
    ])
    func anUnknownPlaceIsExitTwoNamingTheOption(_ extra: [String], _ message: String) throws {
        let result = try TestSupport.runBinary(["check", "--paywall", "--app", "daily-news"] + extra)
        #expect(result.code == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func storefrontWithoutPaywallIsAUsageError() throws {
        let result = try TestSupport.runBinary(["check", "--ledger", "--storefront", "GBR"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--storefront goes with --paywall"))
    }
}
