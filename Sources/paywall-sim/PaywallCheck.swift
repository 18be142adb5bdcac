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
        // The owner's words in the locale asked for, as the phone in that language shows them.
        let paywall = config.app.paywall.localized(for: config.store.locale)
        for (index, offer) in catalog.offers.enumerated() {
            lines.append("  \(index + 1). \(offer.id): \(OfferText.line(for: offer, paywall: paywall))")
        }
        if catalog.offers.isEmpty { lines.append("  (no offer: the paywall says nothing can be bought)") }
        if !catalog.leftOut.isEmpty {
            lines.append("Left out:")
            for left in catalog.leftOut {
                lines.append("  - \(left.id) (\(left.productId)): \(reason(left.productId, config: config))")
            }
        }
        lines += notOnPaywall(config: config)
        return lines.joined(separator: "\n")
    }

    /// Products the catalog sells that a subscription paywall does not: each kind, and why.
    static func notOnPaywall(config: DemoConfig) -> [String] {
        let configured = Set(config.app.subscriptions.map(\.productId))
        let rest = config.store.products.filter { !configured.contains($0.productId) }
        guard !rest.isEmpty else { return [] }
        return ["Not on the paywall:"]
            + rest.map { product in
                // The store's title in this language, falling back to English as the paywall's do.
                let title = product.localization(for: config.store.locale)?.title ?? product.productId
                return "  - \(product.productId) (\(title)): \(product.type.whyNotOnPaywall)"
            }
    }

    /// `--storefront CODE --locale ID`: the device in another storefront or language, as the store sees it.
    static func place(_ config: inout DemoConfig, storefront: String?, locale: String?) throws(UsageError) {
        if let storefront {
            guard Storefront.named(storefront) != nil else {
                let known = Storefront.known.map(\.countryCode).joined(separator: ", ")
                throw UsageError(message: "--storefront: unknown storefront \"\(storefront)\" (storefronts: \(known))")
            }
            config.store.storefront = storefront
        }
        if let locale {
            if let problem = PriceLocales.problem(locale, products: config.store.products) {
                throw UsageError(message: "--locale: \(problem)")
            }
            config.store.locale = locale
        }
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
