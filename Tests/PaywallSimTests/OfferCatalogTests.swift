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
}
