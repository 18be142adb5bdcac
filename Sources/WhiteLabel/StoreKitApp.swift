import FoundationEssentials

/// An app built around a `.storekit` file with no other input (`--storekit FILE`): every auto-renewable
/// subscription is an offer, in the file's group order; each group is an access level named after it;
/// a generated feed has free articles and articles each group unlocks.
public enum StoreKitApp {
    /// `knownStorefronts` are those the fake App Store sells in: a file priced in another one is a warning,
    /// and its prices are sold in `USA` instead.
    public static func load(path: String, knownStorefronts: Set<String>) throws(ConfigError) -> DemoConfig {
        let configuration = try importFile(path, knownStorefronts: knownStorefronts)
        let subscriptions = configuration.products.filter { $0.type == .autoRenewable }
        let levels = levelNames(configuration.groups)
        let app = appPart(
            file: path, subscriptions: subscriptions, levels: configuration.groups.compactMap { levels[$0.id] })
        var productLevels: [String: [String]] = [:]
        for product in subscriptions {
            productLevels[product.productId] = product.subscriptionGroup.flatMap { levels[$0] }.map { [$0] } ?? []
        }
        let backend = BackendPart(
            productLevels: productLevels, fullContent: GeneratedFeed.fullContent(app.content), restorePolicy: nil)
        var config = DemoConfig(
            app: app, backend: backend,
            // Every storefront sells at the file's price number, so the storefront control and
            // `check --paywall --storefront` show the catalog in any currency.
            store: configuration.storePart(storefronts: knownStorefronts.sorted(), sourceFile: path), sourcePath: path)
        config.warnings = configuration.warnings
        placeLocale(&config, file: path)
        try DemoConfigLoader.validate(config, file: path)
        return config
    }

    /// The app's id, as `run --storekit FILE` names its state directory: the file's name, slugged.
    public static func appId(path: String) -> String {
        slugged(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
    }

    /// The phone's part: the file's subscriptions as offers, plain paywall words, the generated feed.
    private static func appPart(file path: String, subscriptions: [StoreProductSpec], levels: [String]) -> AppPart {
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let slug = appId(path: path)
        var paywall = PaywallText(
            title: GeneratedPaywallWords.title,
            body: GeneratedPaywallWords.body.replacingPlainly("{file}", with: fileName),
            // The store's words, so a file's French or Japanese storefront reads in its language: a free trial
            // too, as Apple's sheet says it ({intro}), never "1 Woche gratis, then" (session 27).
            offer: "{title}: {intro}{price} {perPeriod}", offerWithTrial: nil)
        paywall.localizations = GeneratedPaywallWords.localizations(fileName: fileName)
        return AppPart(
            id: slug, name: name, bundleId: "com.paywallsim.\(slug.replacing("-", with: ""))",
            theme: "midnight", tagline: "Built from \(fileName)",
            subscriptions: subscriptions.map { ConfiguredSubscription(id: $0.productId, productId: $0.productId) },
            paywall: paywall,
            content: GeneratedFeed.items(levels: levels), account: AccountPolicy(mode: .optional), kids: false,
            ads: AdsPolicy(enabled: false, hideForSubscribers: true))
    }

    /// `--storekit FILE --app CONFIG`: the owner's app and backend (text, order, content, levels), the file's catalog.
    public static func load(path: String, owner: DemoConfig, knownStorefronts: Set<String>) throws(ConfigError)
        -> DemoConfig
    {
        let configuration = try importFile(path, knownStorefronts: knownStorefronts)
        var config = owner
        // The storefronts the file alone sells in: only its `_storefront` left every other one with an empty
        // paywall ("the same file works everywhere", session 23).
        config.store = configuration.storePart(
            locale: nil, storefronts: knownStorefronts.sorted(), sourceFile: path)
        config.warnings = owner.warnings + configuration.warnings
        config.sourcePath = owner.sourcePath
        return config
    }

    /// The file's warnings alone (none when it cannot be read: loading it says why, where it is used).
    public static func warnings(path: String, knownStorefronts: Set<String>) -> [ConfigError] {
        (try? importFile(path, knownStorefronts: knownStorefronts))?.warnings ?? []
    }

    /// A `_locale` no product is translated for (not even its language) is a warning, and the store answers
    /// in en_US or the locale most products have: the file still runs.
    static func placeLocale(_ config: inout DemoConfig, file: String) {
        let locale = config.store.locale
        let products = config.store.products
        let locales = Set(products.flatMap(\.localizations.keys))
        guard !locales.contains(where: { $0 == locale || $0.prefix(2) == locale.prefix(2) }) else { return }
        // Xcode's own default first, else the locale most products have (the first such, by name).
        let byCoverage = locales.sorted().map { code in (code, products.filter { $0.localizations[code] != nil }.count)
        }
        let most = byCoverage.max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) }?.0
        let common = locales.contains("en_US") ? "en_US" : most
        guard let common else { return }
        config.store.locale = common
        config.warnings.append(
            ConfigError(
                file: file, location: "settings._locale",
                message: "no product is translated for \"\(locale)\"; the store answers in \(common)"))
    }

    /// The file, checked, however an app sells from it (`--storekit`, with `--app` or not, or `store.storekitFile`):
    /// one with no auto-renewable subscription is refused, an unknown storefront becomes a warning and `USA`.
    static func importFile(_ path: String, knownStorefronts: Set<String>) throws(ConfigError) -> StoreKitConfiguration {
        var configuration = try StoreKitConfiguration.load(path: path)
        if !configuration.products.contains(where: { $0.type == .autoRenewable }) {
            throw ConfigError(
                file: path, location: "subscriptionGroups",
                message: "holds no auto-renewable subscription: a subscription paywall has nothing to sell")
        }
        let storefront = configuration.settings.storefront
        if !knownStorefronts.contains(storefront) {
            configuration.warnings.append(
                ConfigError(
                    file: path, location: "settings._storefront",
                    message:
                        "\"\(storefront)\" is a storefront the simulator does not know (\(knownStorefronts.sorted().joined(separator: ", "))); its prices are sold in USA"
                ))
            configuration.move(to: "USA")
        }
        return configuration
    }

    /// Group id → access level: the group's name in lower case, words joined by `-` (a level is also a folder name).
    static func levelNames(_ groups: [StoreKitGroup]) -> [String: String] {
        var names: [String: String] = [:]
        var taken: Set<String> = []
        for (index, group) in groups.enumerated() {
            var name = slugged(group.name)
            if name.isEmpty || taken.contains(name) { name = "\(name.isEmpty ? "group" : name)-\(index + 1)" }
            taken.insert(name)
            names[group.id] = name
        }
        return names
    }

    /// `Social Feed+` → `social-feed`.
    static func slugged(_ text: String) -> String {
        let words = text.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return words.joined(separator: "-")
    }
}

extension StoreKitConfiguration {
    /// Sells the file's prices in `storefront` instead of the file's own.
    mutating func move(to storefront: String) {
        let old = settings.storefront
        for index in products.indices {
            if let price = products[index].prices.removeValue(forKey: old) {
                products[index].prices[storefront] = price
            }
            if let price = products[index].introductoryOffer?.prices?.removeValue(forKey: old) {
                products[index].introductoryOffer?.prices?[storefront] = price
            }
            // Promotional offers and offer codes too: left in the unknown storefront, they had no price where the
            // file is sold, and were never offered, without a word (session 34).
            for offer in products[index].promotionalOffers?.indices ?? 0..<0 {
                if let price = products[index].promotionalOffers?[offer].prices?.removeValue(forKey: old) {
                    products[index].promotionalOffers?[offer].prices?[storefront] = price
                }
            }
            for code in products[index].offerCodes?.indices ?? 0..<0 {
                if let price = products[index].offerCodes?[code].prices?.removeValue(forKey: old) {
                    products[index].offerCodes?[code].prices?[storefront] = price
                }
            }
        }
        settings.storefront = storefront
    }
}
