import AppFlow
import SimKernel
import Subscriptions
import Testing
import WhiteLabel

@Suite struct OfferCatalogTests {
    private func product(_ id: String, trial: CalendarPeriod? = nil) -> StoreProduct {
        StoreProduct(
            productIdentifier: id, localizedTitle: "Title of \(id)", localizedDescription: "", localizedPrice: "$1.00",
            subscriptionPeriod: CalendarPeriod(unit: .month, value: 1), freeTrialPeriod: trial)
    }

    @Test func theOwnersOrderIsKeptWhateverOrderTheStoreAnswersIn() {
        let configured = [
            ConfiguredOffer(id: "c", productId: "p.c"), ConfiguredOffer(id: "a", productId: "p.a"),
            ConfiguredOffer(id: "b", productId: "p.b"),
        ]
        let catalog = OfferCatalog.reconcile(
            configured: configured, returned: [product("p.a"), product("p.b"), product("p.c")], invalid: [])
        #expect(catalog.offers.map(\.id) == ["c", "a", "b"])
    }

    @Test func aConfiguredProductTheStoreDidNotReturnIsLeftOutWithItsReason() {
        let configured = [ConfiguredOffer(id: "a", productId: "p.a"), ConfiguredOffer(id: "gone", productId: "p.gone")]
        let catalog = OfferCatalog.reconcile(configured: configured, returned: [product("p.a")], invalid: ["p.gone"])
        #expect(catalog.offers.map(\.id) == ["a"])
        #expect(catalog.leftOut.map(\.id) == ["gone"])
        #expect(catalog.leftOut.first?.reason.contains("does not sell it") == true)
    }

    /// Only what the store named as not sold here is known not sold (the profile then says a subscription renewing as
    /// it ends, session 39): a product its answer left out without naming it, or a catalog no answer made (a failed
    /// request after the storefront changed), says nothing of it.
    @Test func onlyAProductTheStoreNamedIsKnownNotSoldHere() {
        let configured = [
            ConfiguredOffer(id: "a", productId: "p.a"), ConfiguredOffer(id: "gone", productId: "p.gone"),
            ConfiguredOffer(id: "unsaid", productId: "p.unsaid"),
        ]
        let catalog = OfferCatalog.reconcile(configured: configured, returned: [product("p.a")], invalid: ["p.gone"])
        #expect(catalog.notSold == ["p.gone"])
        #expect(catalog.leftOut.last?.reason.contains("did not answer") == true)
        #expect(OfferCatalog.empty.notSold.isEmpty)
    }

    @Test func aProductReturnedButNotConfiguredIsNeverShown() {
        let catalog = OfferCatalog.reconcile(
            configured: [ConfiguredOffer(id: "a", productId: "p.a")], returned: [product("p.a"), product("p.x")],
            invalid: [])
        #expect(catalog.offers.map(\.productId) == ["p.a"])
    }

    @Test func theStoresWordsArePlacedIntoTheOwnersText() {
        let paywall = PaywallText(
            title: "", body: "", offer: "{title}: {price} per {period}",
            offerWithTrial: "{title}: {trial} free, then {price} per {period}")
        let plain = Offer(id: "a", product: product("p.a"))
        let trial = Offer(id: "b", product: product("p.b", trial: CalendarPeriod(unit: .week, value: 1)))
        #expect(OfferText.line(for: plain, paywall: paywall) == "Title of p.a: $1.00 per month")
        #expect(OfferText.line(for: trial, paywall: paywall) == "Title of p.b: 1 week free, then $1.00 per month")
    }

    /// An owner's text with no place for a trial still tells it, in the sheet's words, before the price: Apple's
    /// sheet gives the trial, and the paywall kept quiet about it.
    @Test func aTrialTheOwnersTextHasNoPlaceForIsToldBeforeThePrice() {
        let paywall = PaywallText(title: "", body: "", offer: "{title}: {price} per {period}", offerWithTrial: nil)
        let trial = Offer(id: "b", product: product("p.b", trial: CalendarPeriod(unit: .week, value: 2)))
        #expect(OfferText.line(for: trial, paywall: paywall) == "Title of p.b: Free for 2 weeks, then $1.00 per month")
    }

    /// Lines are kept once made (the paywall is built many times a step): a new price, or a title that
    /// Swift calls equal but whose bytes differ, must give its own line.
    @Test func aLineMadeBeforeNeverAnswersForOtherWords() {
        let paywall = PaywallText(title: "", body: "", offer: "{title}: {price} per {period}", offerWithTrial: nil)
        func line(title: String, price: String) -> String {
            let product = StoreProduct(
                productIdentifier: "p.k", localizedTitle: title, localizedDescription: "", localizedPrice: price,
                subscriptionPeriod: CalendarPeriod(unit: .month, value: 1), freeTrialPeriod: nil)
            return OfferText.line(for: Offer(id: "k", product: product), paywall: paywall)
        }
        #expect(line(title: "Caf\u{E9}", price: "$1.00") == "Caf\u{E9}: $1.00 per month")
        #expect(line(title: "Caf\u{E9}", price: "$2.00") == "Caf\u{E9}: $2.00 per month")
        let decomposed = line(title: "Cafe\u{301}", price: "$1.00")
        #expect(Array(decomposed.utf8) == Array("Cafe\u{301}: $1.00 per month".utf8))
    }
}
