import AppFlow
import Simulation
import StoreSim
import WhiteLabel

/// `paywall-sim check --paywall`: what the paywall will show, in order, and why each configured
/// product is shown or left out — asked of the fake App Store exactly as the app asks it.
enum PaywallCheck {
    static func report(config: DemoConfig) throws -> String {
        let world = try World(config: config, options: WorldOptions(latency: .none))
        world.launch()
        world.scheduler.runUntilIdle()
        let catalog = world.offerCatalog
        var lines = [
            "Paywall of \(config.app.name) (storefront \(config.store.storefront), locale \(config.store.locale)):"
        ]
        for (index, offer) in catalog.offers.enumerated() {
            lines.append("  \(index + 1). \(offer.id): \(OfferText.line(for: offer, paywall: config.app.paywall))")
        }
        if catalog.offers.isEmpty { lines.append("  (no offer: the paywall says nothing can be bought)") }
        if !catalog.leftOut.isEmpty {
            lines.append("Left out:")
            for left in catalog.leftOut {
                lines.append("  - \(left.id) (\(left.productId)): \(reason(left.productId, config: config))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The likely reason the store did not return a product, read from its catalog.
    static func reason(_ productId: String, config: DemoConfig) -> String {
        guard let spec = config.store.products.first(where: { $0.productId == productId }) else {
            return "App Store Connect has no product with this identifier (a typo, or not created yet)"
        }
        if spec.prices[config.store.storefront] == nil {
            let sold = spec.prices.keys.sorted().joined(separator: ", ")
            return "not sold in storefront \(config.store.storefront) (sold in: \(sold.isEmpty ? "none" : sold))"
        }
        return "the App Store did not return it"
    }
}
