import FoundationEssentials
import SimKernel

/// Reads a demo config and checks what JSON alone cannot: references between its three parts.
public enum DemoConfigLoader {
    public static func load(path: String) throws(ConfigError) -> DemoConfig {
        let data = try JSONFileDecoder.readData(atPath: path)
        return try decode(data, file: path)
    }

    /// `file` names the config in messages; a `.storekit` file it references is read relative to its folder.
    public static func decode(_ data: Data, file: String) throws(ConfigError) -> DemoConfig {
        let parts = try JSONFileDecoder.decode(DemoConfigFile.self, from: data, file: file)
        if let unknown = UnknownFields.first(DemoConfigFile.self, in: data, file: file) { throw unknown }
        let store: StorePart
        var warnings: [ConfigError] = []
        switch parts.store {
        case .inline(let part): store = part
        case .storekit(let reference): (store, warnings) = try reference.storePart(configFile: file)
        }
        var config = DemoConfig(
            app: parts.app, backend: parts.backend, store: store, sourcePath: file, warnings: warnings)
        try validate(config, file: file)
        config.app.paywall.placeLocalizations()
        return config
    }

    /// Digits with at most one "." and three decimals: "4,99" would read as 4 and "-4.99" charge a refund. A
    /// scenario's `store price-increase` price is read by the same rule (it took "5,99" as 5, session 26).
    public static func isPrice(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, (1...9).contains(whole.count) else { return false }
        guard parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
        return parts.count == 1 || (1...3).contains(parts[1].count)
    }

    static func validate(_ config: DemoConfig, file: String) throws(ConfigError) {
        func fail(_ location: String, _ message: String) -> ConfigError {
            ConfigError(file: file, location: location, message: message)
        }
        let app = config.app
        if app.id.isEmpty { throw fail("app.id", "must not be empty") }
        if app.name.allSatisfy(\.isWhitespace) { throw fail("app.name", "must not be empty") }
        if app.bundleId.allSatisfy(\.isWhitespace) { throw fail("app.bundleId", "must not be empty") }
        // The id names the default state folder: a path in it would put the state elsewhere.
        if !isPlainName(app.id) {
            throw fail(
                "app.id", "\"\(app.id)\" may use only letters, digits, \".\", \"-\" and \"_\", not start with \".\"")
        }
        // The theme is a file of themes/ by its name: "../x" read any .json on disk as a theme (session 28).
        if !isPlainName(app.theme) {
            throw fail(
                "app.theme",
                "\"\(app.theme)\" is a theme's name (themes/NAME.json), not a path: it may use only letters, digits, "
                    + "\".\", \"-\" and \"_\", not start with \".\"")
        }
        if app.subscriptions.isEmpty { throw fail("app.subscriptions", "must list at least one subscription") }
        if let words = app.contentWords {
            for (field, word) in [("one", words.one), ("other", words.other), ("verb", words.verb ?? "read")]
            where word.allSatisfy(\.isWhitespace) {
                throw fail("app.contentWords.\(field)", "must not be empty")
            }
        }
        try checkProducts(config.store, file: file)
        var seenIds: Set<String> = []
        var offered: [String: Int] = [:]
        for (index, subscription) in app.subscriptions.enumerated() {
            if subscription.id.isEmpty { throw fail("app.subscriptions[\(index)].id", "must not be empty") }
            for (field, word) in [("id", subscription.id), ("productId", subscription.productId)] {
                if let problem = ScenarioWord.problem(word) {
                    throw fail("app.subscriptions[\(index)].\(field)", problem)
                }
            }
            if !seenIds.insert(subscription.id).inserted {
                throw fail("app.subscriptions[\(index)].id", "\"\(subscription.id)\" is listed twice")
            }
            // One product twice on the paywall: two offers that are one purchase.
            if let first = offered.updateValue(index, forKey: subscription.productId) {
                throw fail(
                    "app.subscriptions[\(index)].productId",
                    "\"\(subscription.productId)\" is already offered by app.subscriptions[\(first)]")
            }
            switch config.backend.productLevels[subscription.productId] {
            case nil:
                throw fail(
                    "app.subscriptions[\(index)].productId",
                    "\"\(subscription.productId)\" grants no levels: add it to backend.productLevels")
            case let levels? where levels.isEmpty:
                throw fail(
                    "backend.productLevels.\(subscription.productId)", "lists no level: a purchase would unlock nothing"
                )
            default:
                break
            }
            // The paywall sells subscriptions: a consumable or a one-time purchase "per month" is neither.
            if let product = config.store.products.first(where: { $0.productId == subscription.productId }),
                product.type != .autoRenewable && product.type != .nonRenewing
            {
                throw fail(
                    "app.subscriptions[\(index)].productId",
                    "\"\(subscription.productId)\" is a \(product.type.rawValue) product, not a subscription")
            }
        }
        try checkPaywall(app.paywall, file: file)
        let knownLevels = Set(config.backend.productLevels.values.joined())
        let soldLevels = Set(app.subscriptions.flatMap { config.backend.productLevels[$0.productId] ?? [] })
        var contentIds: Set<String> = []
        for (product, levels) in config.backend.productLevels.sorted(by: { $0.key < $1.key })
        where levels.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw fail("backend.productLevels.\(product)", "names a level with no name")
        }
        for (product, levels) in config.backend.productLevels.sorted(by: { $0.key < $1.key }) {
            if let problem = levels.lazy.compactMap(ScenarioWord.problem).first {
                throw fail("backend.productLevels.\(product)", problem)
            }
        }
        for (index, item) in app.content.enumerated() {
            if item.id.isEmpty { throw fail("app.content[\(index)].id", "must not be empty") }
            if let problem = ScenarioWord.problem(item.id) { throw fail("app.content[\(index)].id", problem) }
            if !contentIds.insert(item.id).inserted {
                throw fail("app.content[\(index)].id", "\"\(item.id)\" is listed twice")
            }
            for level in item.requiredLevels where !knownLevels.contains(level) {
                throw fail(
                    "app.content[\(index)].requiredLevels",
                    "level \"\(level)\" is granted by no product in backend.productLevels")
            }
            // Granted only by a product the paywall does not offer, the content is sold to no one: the reader
            // paid for another level and the article stayed locked (session 28).
            if !item.requiredLevels.isEmpty && !item.requiredLevels.contains(where: soldLevels.contains) {
                let granting = config.backend.productLevels.filter {
                    !Set($0.value).isDisjoint(with: item.requiredLevels)
                }
                throw fail(
                    "app.content[\(index)].requiredLevels",
                    "level \(item.requiredLevels.map { "\"\($0)\"" }.joined(separator: " or ")) is granted only by "
                        + "products app.subscriptions does not offer (\(granting.keys.sorted().joined(separator: ", "))): "
                        + "no reader can buy \"\(item.id)\"")
            }
            if !item.requiredLevels.isEmpty && config.backend.fullContent[item.id] == nil {
                throw fail("backend.fullContent", "has no full version of restricted content \"\(item.id)\"")
            }
        }
        // An imported catalog was checked on import, with the `.storekit` file's own field paths.
        for (index, product) in config.store.products.enumerated() where config.store.storekitFile == nil {
            try StoreProductValidation.check(product, at: "store.products[\(index)]", file: file)
        }
        try checkLocale(config.store, file: file)
    }

    /// Product ids are the App Store's keys: unique and not empty, and so are each product's offer ids.
    private static func checkProducts(_ store: StorePart, file: String) throws(ConfigError) {
        var seen: [String: Int] = [:]
        // A reader redeems an offer code by its text alone: one text for two offers is two answers to one code.
        var codes: [String: String] = [:]
        for (index, product) in store.products.enumerated() {
            let location = "store.products[\(index)]"
            if product.productId.isEmpty {
                throw ConfigError(file: file, location: "\(location).productId", message: "must not be empty")
            }
            // An imported catalog's ids were checked on import, named by the `.storekit` file's own fields.
            if store.storekitFile == nil, let problem = ScenarioWord.problem(product.productId) {
                throw ConfigError(file: file, location: "\(location).productId", message: problem)
            }
            if let first = seen.updateValue(index, forKey: product.productId) {
                throw ConfigError(
                    file: file, location: "\(location).productId",
                    message: "\"\(product.productId)\" is listed twice (first as store.products[\(first)])")
            }
            var offers: Set<String> = []
            for (offerIndex, offer) in (product.promotionalOffers ?? []).enumerated()
            where !offers.insert(offer.id).inserted {
                throw ConfigError(
                    file: file, location: "\(location).promotionalOffers[\(offerIndex)].id",
                    message: "\"\(offer.id)\" is listed twice for \(product.productId)")
            }
            for (locale, localization) in product.localizations.sorted(by: { $0.key < $1.key })
            where localization.title.allSatisfy(\.isWhitespace) {
                throw ConfigError(
                    file: file, location: "\(location).localizations.\(locale).title", message: "must not be empty")
            }
            for (codeIndex, code) in (product.offerCodes ?? []).enumerated() where store.storekitFile == nil {
                // Redeemed whatever its case, as the App Store's sheet takes it.
                if let other = codes.updateValue(product.productId, forKey: code.code.lowercased()) {
                    throw ConfigError(
                        file: file, location: "\(location).offerCodes[\(codeIndex)]",
                        message: "the code \"\(code.code)\" is also an offer code of \(other)")
                }
            }
        }
    }

    /// Whether the store answers in the locale is `PriceLocales.problem`'s question, asked as the store is made, as
    /// it is of `--locale` and a scenario's `locale`.
    private static func checkLocale(_ store: StorePart, file: String) throws(ConfigError) {
        if store.locale.isEmpty {
            throw ConfigError(file: file, location: "store.locale", message: "must not be empty")
        }
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "." else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "._-".unicodeScalars.contains($0)
        }
    }

    static func checkTemplate(_ template: String, at location: String, file: String) throws(ConfigError) {
        var rest = Substring(template)
        // A stray "}" was shown as typed ("A Monthly}: $4.99", session 28); an unclosed "{" was refused already.
        func checkText(_ text: Substring) throws(ConfigError) {
            if text.contains("}") {
                throw ConfigError(file: file, location: location, message: "has a \"}\" that no \"{\" opens")
            }
        }
        while let open = rest.firstIndex(of: "{") {
            try checkText(rest[..<open])
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw ConfigError(file: file, location: location, message: "has a \"{\" that is never closed")
            }
            let placeholder = String(rest[open...close])
            if !PaywallText.placeholders.contains(placeholder) {
                throw ConfigError(
                    file: file, location: location,
                    message:
                        "unknown placeholder \(placeholder); use \(PaywallText.placeholders.joined(separator: ", "))"
                )
            }
            rest = rest[rest.index(after: close)...]
        }
        try checkText(rest)
    }
}

/// The file's top level: exactly the three parts.
private struct DemoConfigFile: Decodable {
    var app: AppPart
    var backend: BackendPart
    var store: StoreSection
}

/// The `store` part as written: an inline catalog (`products`), or a `.storekit` file to import (`storekitFile`).
private enum StoreSection: Decodable {
    case inline(StorePart)
    case storekit(StoreKitReference)

    private enum FormKey: String, CodingKey {
        case products, storekitFile
    }

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: FormKey.self)
        switch (keys.contains(.products), keys.contains(.storekitFile)) {
        case (true, false): self = .inline(try StorePart(from: decoder))
        case (false, true): self = .storekit(try StoreKitReference(from: decoder))
        case (true, true):
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "has both products and storekitFile; give one"))
        case (false, false):
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "needs products (an inline catalog) or storekitFile (an Xcode .storekit file)"))
        }
    }
}

/// Checks of one store product that the App Store itself would enforce.
enum StoreProductValidation {
    static func check(_ product: StoreProductSpec, at location: String, file: String) throws(ConfigError) {
        func fail(_ field: String, _ message: String) -> ConfigError {
            ConfigError(file: file, location: "\(location).\(field)", message: message)
        }
        // Only auto-renewable subscriptions need a period: a non-renewing one lasts as long as the app grants it
        // (Xcode's .storekit files give it none).
        if product.type == .autoRenewable && product.subscriptionPeriod == nil {
            throw fail("subscriptionPeriod", "is missing for an auto-renewable subscription")
        }
        if let period = product.subscriptionPeriod, CalendarPeriod(iso8601: period) == nil {
            throw fail(
                "subscriptionPeriod", "\"\(period)\" is not an ISO 8601 period of at most ten years, such as P1M or P1W"
            )
        }
        if product.type == .autoRenewable && product.subscriptionGroup == nil {
            throw fail("subscriptionGroup", "is missing for an auto-renewable subscription")
        }
        if let offer = product.introductoryOffer, CalendarPeriod(iso8601: offer.period) == nil {
            throw fail(
                "introductoryOffer.period",
                "\"\(offer.period)\" is not an ISO 8601 period of at most ten years, such as P1W")
        }
        if let count = product.introductoryOffer?.periodCount, !(1...120).contains(count) {
            throw fail("introductoryOffer.periodCount", "\(count) is not a count from 1 to 120")
        }
        for (index, offer) in (product.promotionalOffers ?? []).enumerated() {
            if CalendarPeriod(iso8601: offer.period) == nil {
                throw fail(
                    "promotionalOffers[\(index)].period",
                    "\"\(offer.period)\" is not an ISO 8601 period of at most ten years, such as P1M")
            }
            if let count = offer.periodCount, !(1...120).contains(count) {
                throw fail("promotionalOffers[\(index)].periodCount", "\(count) is not a count from 1 to 120")
            }
        }
        var priced = product.prices.map { ("prices.\($0.key)", $0.key, $0.value) }
        priced += (product.introductoryOffer?.prices ?? [:]).map {
            ("introductoryOffer.prices.\($0.key)", $0.key, $0.value)
        }
        for (index, offer) in (product.promotionalOffers ?? []).enumerated() {
            priced += (offer.prices ?? [:]).map { ("promotionalOffers[\(index)].prices.\($0.key)", $0.key, $0.value) }
        }
        for (field, storefront, price) in priced.sorted(by: { $0.0 < $1.0 }) {
            if !DemoConfigLoader.isPrice(price) {
                throw fail(field, "\"\(price)\" is not a decimal price such as 4.99")
            }
            // 4.999 was sold, and charged, as $5.00 (session 28): a price has the decimals its currency has.
            if let currency = StorefrontCodes.currency(of: storefront),
                let point = price.firstIndex(of: "."), price[price.index(after: point)...].count > currency.decimals
            {
                throw fail(
                    field,
                    "\"\(price)\" has more decimals than \(currency.code) has (\(currency.decimals)): the App Store would "
                        + "charge it rounded")
            }
        }
        // App Store Connect has no free price for a subscription: a free period is an introductory offer (session 28:
        // "0" sold "$0.00 per year").
        if product.type == .autoRenewable || product.type == .nonRenewing {
            for (storefront, price) in product.prices.sorted(by: { $0.key < $1.key })
            where price.allSatisfy({ $0 == "0" || $0 == "." }) {
                throw fail(
                    "prices.\(storefront)",
                    "a subscription's price must be more than 0: App Store Connect has no free price for one "
                        + "(a free period is an introductoryOffer with paymentMode free-trial)")
            }
        }
        if product.localizations.isEmpty {
            throw fail("localizations", "must hold at least one locale")
        }
        for locale in product.localizations.keys.sorted() {
            if let problem = LocaleIdentifier.problem(locale) { throw fail("localizations.\(locale)", problem) }
        }
        try checkDiscount(product, fail: fail)
    }

    /// A paid introductory offer is a discount on its plan in each storefront: `IntroductoryDiscount`.
    private static func checkDiscount(_ product: StoreProductSpec, fail: (String, String) -> ConfigError)
        throws(ConfigError)
    {
        guard let offer = product.introductoryOffer, offer.paymentMode != .freeTrial,
            let offerPeriod = CalendarPeriod(iso8601: offer.period),
            let planPeriod = product.subscriptionPeriod.flatMap(CalendarPeriod.init(iso8601:))
        else { return }
        for (storefront, price) in (offer.prices ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let regular = product.prices[storefront],
                let problem = IntroductoryDiscount.problem(
                    price: price, period: offerPeriod, count: offer.periodCount ?? 1,
                    payUpFront: offer.paymentMode == .payUpFront, regular: regular, regularPeriod: planPeriod)
            else { continue }
            throw fail("introductoryOffer.prices.\(storefront)", "\(product.productId): \(problem)")
        }
    }
}
