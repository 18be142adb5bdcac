import AppFlow
import StoreSim

extension World {
    /// The storefronts the catalog sells in (every country a product has a price for), sorted.
    public var storefronts: [String] {
        Set(config.store.products.flatMap(\.prices.keys)).filter { Storefront.named($0) != nil }.sorted()
    }

    /// The locales the catalog is translated for, sorted.
    public var locales: [String] { Set(config.store.products.flatMap(\.localizations.keys)).sorted() }

    /// The reader's App Store country, as changed in Settings: products are asked for again, so the
    /// paywall shows what this storefront sells, at its prices.
    public var storefront: String {
        get { store.storefront.countryCode }
        set {
            guard let storefront = Storefront.named(newValue), storefront != store.storefront else { return }
            store.storefront = storefront
            timeline.log(.control, "storefront \(newValue)")
            store.storefrontMoved()
            device.dispatch(.storeChanged)
        }
    }

    /// The phone's language: the store's titles and prices are asked for again in it.
    public var locale: String {
        get { store.locale }
        set {
            guard newValue != store.locale else { return }
            store.locale = newValue
            timeline.log(.control, "locale \(newValue)")
            device.dispatch(.storeChanged)
        }
    }
}
