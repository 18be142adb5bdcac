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
    /// paywall shows what this storefront sells, at its prices. Kept with the Apple ID in the App Store's records.
    public var storefront: String {
        get { store.storefront.countryCode }
        set {
            guard let storefront = Storefront.named(newValue), storefront != store.storefront else { return }
            store.storefront = storefront
            store.keepStorefront(storefront, appleId: appleId)
            timeline.log(.control, "storefront \(newValue)")
            store.storefrontMoved()
            device.dispatch(.storeChanged)
        }
    }

    /// The phone's language: the store's titles and prices are asked for again in it. Kept in the phone's folder.
    public var locale: String {
        get { store.locale }
        set {
            guard newValue != store.locale else { return }
            store.locale = newValue
            keepLocale(of: deviceName)
            timeline.log(.control, "locale \(newValue)")
            device.dispatch(.storeChanged)
        }
    }
}
