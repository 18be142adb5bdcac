import FoundationEssentials
import SimKernel

/// An Xcode StoreKit configuration file (`.storekit`) imported as App Store Connect products and test settings.
///
/// Xcode prices each product in one storefront only (`settings._storefront`), so every imported product has
/// exactly one price, in that storefront; `storePart(storefront:locale:storefronts:unavailable:)` spreads it
/// to the other storefronts a demo app sells in.
public struct StoreKitConfiguration: Sendable, Equatable {
    /// Auto-renewable subscriptions (group by group, in the file's order), then non-renewing subscriptions,
    /// then consumables and non-consumables.
    public var products: [StoreProductSpec]
    public var settings: StoreKitSettings
    /// The subscription groups, in the file's order.
    public var groups: [StoreKitGroup]
    /// What the file holds that the simulator does not use or had to stand in for, each naming its field.
    public var warnings: [ConfigError]

    public init(
        products: [StoreProductSpec], settings: StoreKitSettings, groups: [StoreKitGroup] = [],
        warnings: [ConfigError] = []
    ) {
        self.products = products
        self.settings = settings
        self.groups = groups
        self.warnings = warnings
    }

    public static func load(path: String) throws(ConfigError) -> StoreKitConfiguration {
        let data = try JSONFileDecoder.readData(atPath: path)
        return try decode(data, file: path)
    }

    /// Decodes and checks a file; a problem is a `ConfigError` naming `file` and the JSON path in it.
    public static func decode(_ data: Data, file: String) throws(ConfigError) -> StoreKitConfiguration {
        let contents = try JSONFileDecoder.decode(
            StoreKitFile.self, from: data, file: file, trailingCommas: true)
        // The store answers a phone in `_locale`: one that is no locale fell back to en_US with a warning that no
        // product is translated for it, a typo taken for a language (session 38).
        if let locale = contents.settings?.locale, let problem = LocaleIdentifier.problem(locale) {
            throw ConfigError(file: file, location: "settings._locale", message: problem)
        }
        var settings = StoreKitSettings(contents.settings)
        settings.offerKeyIdentifier = contents.subscriptionOffersKeyPair?.id
        var importer = StoreKitImporter(file: file, storefront: settings.storefront)
        var products: [StoreProductSpec] = []
        func add(_ spec: StoreProductSpec, at location: String) throws(ConfigError) {
            if products.contains(where: { $0.productId == spec.productId }) {
                throw ConfigError(
                    file: file, location: "\(location).productID", message: "\"\(spec.productId)\" is defined twice")
            }
            products.append(spec)
        }
        for (groupIndex, group) in (contents.subscriptionGroups ?? []).enumerated() {
            try checkGroup(group, at: groupIndex, among: contents.subscriptionGroups ?? [], file: file)
            // The group's order is its levels' (1 first), then the file's: the order a paywall lists them in.
            let byLevel = group.subscriptions.enumerated().sorted {
                ($0.element.groupNumber ?? Int.max, $0.offset) < ($1.element.groupNumber ?? Int.max, $1.offset)
            }
            for (index, subscription) in byLevel {
                let location = "subscriptionGroups[\(groupIndex)].subscriptions[\(index)]"
                try add(try importer.spec(subscription, group: group, at: location), at: location)
            }
        }
        // The paywall sells auto-renewable subscriptions: the rest is said once, not sold in silence (session 27).
        let others =
            (contents.nonRenewingSubscriptions ?? []).enumerated().map { ("nonRenewingSubscriptions[\($0)]", $1) }
            + (contents.products ?? []).enumerated().map { ("products[\($0)]", $1) }
        var unsold: [ConfigError] = []
        for (location, product) in others {
            let spec = try importer.spec(product, at: location)
            try add(spec, at: location)
            unsold.append(
                ConfigError(
                    file: file, location: location,
                    message: "not sold: \(spec.productId) is not on the paywall: \(spec.type.whyNotOnPaywall)",
                    isUnsoldProduct: true))
        }
        let groups = (contents.subscriptionGroups ?? []).map { StoreKitGroup(id: $0.id, name: $0.name) }
        let ignored = StoreKitIgnoredFields.warnings(in: data, file: file)
        return StoreKitConfiguration(
            products: products, settings: settings, groups: groups, warnings: importer.warnings + unsold + ignored)
    }

    /// A group is an access level: one that sells nothing, or shares its id with another, was refused naming a
    /// field of the app generated from the file (`app.content[6].requiredLevels`, `app.content[4].id`), a field
    /// no file has (session 33).
    private static func checkGroup(
        _ group: StoreKitFileGroup, at index: Int, among groups: [StoreKitFileGroup], file: String
    ) throws(ConfigError) {
        let location = "subscriptionGroups[\(index)]"
        if group.subscriptions.isEmpty {
            throw ConfigError(
                file: file, location: "\(location).subscriptions",
                message:
                    "holds no subscription: the group \"\(group.name)\" would be an access level nothing sells; "
                    + "add a subscription to it or remove the group")
        }
        if let first = groups.firstIndex(where: { $0.id == group.id }), first < index {
            throw ConfigError(
                file: file, location: "\(location).id",
                message: "\"\(group.id)\" is the id of subscriptionGroups[\(first)] too: each group needs its own")
        }
    }

    /// The catalog a demo app sells from.
    ///
    /// Each product is sold at its file's price number in the file's storefront, in `storefront` (the device's,
    /// the file's when nil) and in every storefront of `storefronts`: 4.99 in `USA` is also 4.99 € in `FRA`, and
    /// ¥5 in `JPN`, the number in the currency's minor units (`StorefrontPrice`).
    /// Xcode has one price per product, and a demo needs no price tiers. `unavailable` (storefront → product
    /// identifiers) takes products out of storefronts, as an App Store Connect availability setting does.
    public func storePart(
        storefront: String? = nil, locale: String? = nil, storefronts: [String] = [],
        unavailable: [String: [String]] = [:], sourceFile: String? = nil
    ) -> StorePart {
        let activeStorefront = storefront ?? settings.storefront
        let sellingStorefronts = Set([settings.storefront, activeStorefront] + storefronts)
        let specs = products.map { product in
            var spec = product
            guard let price = product.prices[settings.storefront] else { return spec }
            let introductoryPrice = product.introductoryOffer?.prices?[settings.storefront]
            spec.prices = [:]
            spec.introductoryOffer?.prices = introductoryPrice == nil ? nil : [:]
            let selling = sellingStorefronts.filter { !(unavailable[$0] ?? []).contains(product.productId) }
            // The file's number in each storefront's minor units, never a paid price rounded to nothing
            // (`StorefrontPrice`: 0.49 was shown "¥0" and charged 0.49, session 34).
            for code in selling {
                spec.prices[code] = StorefrontPrice.of(price, in: code)
                if let introductoryPrice {
                    spec.introductoryOffer?.prices?[code] = StorefrontPrice.of(introductoryPrice, in: code)
                }
            }
            // Offers are priced as their product: the file's number in every storefront that sells it.
            func spread(_ prices: [String: String]?) -> [String: String]? {
                prices?[settings.storefront].map { offerPrice in
                    Dictionary(uniqueKeysWithValues: selling.map { ($0, StorefrontPrice.of(offerPrice, in: $0)) })
                }
            }
            spec.promotionalOffers = spec.promotionalOffers?.map {
                var offer = $0; offer.prices = spread(offer.prices); return offer
            }
            spec.offerCodes = spec.offerCodes?.map {
                var offer = $0; offer.prices = spread(offer.prices); return offer
            }
            return spec
        }
        return StorePart(
            storefront: activeStorefront, locale: locale ?? settings.locale, products: specs,
            storekitFile: sourceFile, storekitSettings: settings)
    }
}

/// Turns the file's products into specs, checking what JSON types alone cannot, with the file's own field names.
struct StoreKitImporter {
    let file: String
    let storefront: String
    private(set) var warnings: [ConfigError] = []
    /// Each offer code's text, lower-cased, and the product offering it: a reader redeems a code by its text alone.
    var codeOwners: [String: String] = [:]

    init(file: String, storefront: String) {
        self.file = file
        self.storefront = storefront
    }

    func fail(_ location: String, _ message: String) -> ConfigError {
        ConfigError(file: file, location: location, message: message)
    }

    mutating func spec(_ subscription: StoreKitFileSubscription, group: StoreKitFileGroup, at location: String)
        throws(ConfigError) -> StoreProductSpec
    {
        try checkIdentifier(subscription.productID, at: location)
        guard subscription.type == "RecurringSubscription" else {
            throw fail("\(location).type", "\"\(subscription.type)\" should be RecurringSubscription in a group")
        }
        try checkPeriod(subscription.recurringSubscriptionPeriod, at: "\(location).recurringSubscriptionPeriod")
        try checkGroupID(subscription.subscriptionGroupID, of: group, at: "\(location).subscriptionGroupID")
        let regular = try paidPrice(subscription.displayPrice, at: "\(location).displayPrice")
        var offer: IntroductoryOfferSpec?
        let intro =
            subscription.introductoryOffer.map { (file: $0, at: "\(location).introductoryOffer") }
            ?? subscription.introductoryOffers?.first.map { (file: $0, at: "\(location).introductoryOffers[0]") }
        if let intro {
            offer = try introductoryOffer(intro.file, at: intro.at)
            try checkDiscount(
                offer, of: subscription.productID, at: "\(intro.at).displayPrice", regular: regular,
                period: subscription.recurringSubscriptionPeriod)
        }
        var spec = StoreProductSpec(
            productId: subscription.productID, type: .autoRenewable, subscriptionGroup: group.id,
            groupLevel: subscription.groupNumber, subscriptionPeriod: subscription.recurringSubscriptionPeriod,
            introductoryOffer: offer,
            prices: [storefront: regular],
            localizations: try localizations(
                subscription.localizations, of: subscription.productID, at: "\(location).localizations"),
            isFamilyShareable: subscription.familyShareable)
        try addOffers(of: subscription, to: &spec, at: location)
        return spec
    }

    mutating func spec(_ product: StoreKitFileProduct, at location: String) throws(ConfigError) -> StoreProductSpec {
        try checkIdentifier(product.productID, at: location)
        let kind: StoreProductSpec.Kind
        switch product.type {
        case "Consumable": kind = .consumable
        case "NonConsumable": kind = .nonConsumable
        case "NonRenewingSubscription": kind = .nonRenewing
        default:
            throw fail(
                "\(location).type", "\"\(product.type)\" is not Consumable, NonConsumable or NonRenewingSubscription")
        }
        let priceAt = "\(location).displayPrice"
        return StoreProductSpec(
            productId: product.productID, type: kind, subscriptionGroup: nil, groupLevel: nil,
            subscriptionPeriod: nil, introductoryOffer: nil,
            prices: [
                storefront: try kind == .nonRenewing
                    ? paidPrice(product.displayPrice, at: priceAt) : price(product.displayPrice, at: priceAt)
            ],
            localizations: try localizations(
                product.localizations, of: product.productID, at: "\(location).localizations"),
            isFamilyShareable: product.familyShareable)
    }

    func introductoryOffer(_ offer: StoreKitFileIntroductoryOffer, at location: String)
        throws(ConfigError) -> IntroductoryOfferSpec
    {
        let mode: IntroductoryOfferSpec.PaymentMode
        switch offer.paymentMode {
        case "free": mode = .freeTrial
        case "payAsYouGo": mode = .payAsYouGo
        case "payUpFront": mode = .payUpFront
        default:
            throw fail("\(location).paymentMode", "\"\(offer.paymentMode)\" is not free, payAsYouGo or payUpFront")
        }
        try checkPeriod(offer.subscriptionPeriod, at: "\(location).subscriptionPeriod")
        if let count = offer.numberOfPeriods, !(1...120).contains(count) {
            throw fail("\(location).numberOfPeriods", "\(count) should be from 1 to 120")
        }
        var prices: [String: String]?
        if mode != .freeTrial {
            guard let displayPrice = offer.displayPrice else {
                throw fail("\(location).displayPrice", "is missing for an offer that is not free")
            }
            prices = [storefront: try paidPrice(displayPrice, at: "\(location).displayPrice", offer: mode)]
        }
        return IntroductoryOfferSpec(
            paymentMode: mode, period: offer.subscriptionPeriod, periodCount: offer.numberOfPeriods, prices: prices)
    }

    /// A paid introductory offer is a discount on its plan: `IntroductoryDiscount`.
    private func checkDiscount(
        _ offer: IntroductoryOfferSpec?, of productId: String, at location: String, regular: String, period: String
    ) throws(ConfigError) {
        guard let offer, offer.paymentMode != .freeTrial, let price = offer.prices?[storefront],
            let offerPeriod = CalendarPeriod(iso8601: offer.period), let planPeriod = CalendarPeriod(iso8601: period),
            let problem = IntroductoryDiscount.problem(
                price: price, period: offerPeriod, count: offer.periodCount ?? 1,
                payUpFront: offer.paymentMode == .payUpFront, regular: regular, regularPeriod: planPeriod)
        else { return }
        throw fail(location, "\(productId): \(problem)")
    }

    /// Named with the file's own field: the config's check named `store.products[1].productId`, a field of no file
    /// (session 28).
    private func checkIdentifier(_ identifier: String, at location: String) throws(ConfigError) {
        if identifier.trimmingSpaces().isEmpty { throw fail("\(location).productID", "must not be empty") }
        if let problem = ScenarioWord.problem(identifier) { throw fail("\(location).productID", problem) }
    }

    private func checkPeriod(_ period: String, at location: String) throws(ConfigError) {
        if CalendarPeriod(iso8601: period) == nil {
            throw fail(location, "\"\(period)\" is not an ISO 8601 period of at most ten years, such as P1M or P1W")
        }
    }

    private func price(_ text: String, at location: String) throws(ConfigError) -> String {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil
        else {
            throw fail(location, "\"\(text)\" is not a decimal price such as 4.99")
        }
        return text
    }

    /// A subscription's, or a paid offer's, price: App Store Connect has no free price for a subscription (a free
    /// period is an introductory offer), and a paid offer at "0" would be told as free and charge nothing. The demo
    /// config's check refused a free subscription (session 28); a file's was sold "$0.00 per month" (session 34).
    private func paidPrice(
        _ text: String, at location: String, offer: IntroductoryOfferSpec.PaymentMode? = nil
    ) throws(ConfigError) -> String {
        let checked = try price(text, at: location)
        guard checked.allSatisfy({ $0 == "0" || $0 == "." }) else { return checked }
        if let offer {
            let mode = offer == .payAsYouGo ? "payAsYouGo" : "payUpFront"
            throw fail(
                location,
                "\"\(text)\" is no price for a \(mode) offer, which is paid: a free period is paymentMode free")
        }
        throw fail(
            location,
            "\"\(text)\": a subscription's price must be more than 0; App Store Connect has no free price for one (a free "
                + "period is an introductory offer with paymentMode free)")
    }

    /// The group a subscription names is the one listing it: another id leaves its level and upgrades to a guess.
    private func checkGroupID(_ id: String?, of group: StoreKitFileGroup, at location: String) throws(ConfigError) {
        guard let id, id != group.id else { return }
        throw fail(
            location,
            "\"\(id)\" is not the id of the group listing it, \"\(group.name)\" (\"\(group.id)\"): the file names two groups "
                + "for one subscription; give it its group's id, or move it to the group it names")
    }

    /// An empty display name would make the paywall read ": $11.88 per year": the identifier stands in, said once.
    private mutating func localizations(
        _ list: [StoreKitFileLocalization], of productId: String, at location: String
    ) throws(ConfigError) -> [String: ProductLocalization] {
        if list.isEmpty { throw fail(location, "must hold at least one locale") }
        var result: [String: ProductLocalization] = [:]
        for (index, localization) in list.enumerated() {
            if let problem = LocaleIdentifier.problem(localization.locale) {
                throw fail("\(location)[\(index)].locale", problem)
            }
            if result[localization.locale] != nil {
                throw fail("\(location)[\(index)].locale", "\"\(localization.locale)\" is listed twice")
            }
            var title = localization.displayName
            if title.trimmingSpaces().isEmpty {
                title = productId
                warnings.append(
                    ConfigError(
                        file: file, location: "\(location)[\(index)].displayName",
                        message: "is empty; the paywall and Apple's sheet show \"\(productId)\" instead"))
            }
            result[localization.locale] = ProductLocalization(title: title, description: localization.description)
        }
        return result
    }
}

/// A subscription group of the file: its identifier and the name its owner gave it.
public struct StoreKitGroup: Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
