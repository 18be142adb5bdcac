import FoundationEssentials
import SimKernel
import WhiteLabel

/// The products App Store Connect holds for one app, answering products requests
/// per storefront and locale as the App Store does.
public struct Catalog: Sendable {
    public let specs: [StoreProductSpec]

    public init(specs: [StoreProductSpec]) {
        self.specs = specs
    }

    /// The products sellable in `storefront`, localized for `locale`; the rest are invalid identifiers.
    /// The answer's order is the store's own (sorted by identifier), never the app's.
    public func products(for identifiers: [String], storefront: Storefront, locale: String) -> ProductsResponse {
        var products: [Product] = []
        var invalid: [String] = []
        for identifier in identifiers {
            if let spec = specs.first(where: { $0.productId == identifier }),
                let product = Self.product(spec, storefront: storefront, locale: locale)
            {
                products.append(product)
            } else {
                invalid.append(identifier)
            }
        }
        return ProductsResponse(
            products: products.sorted { $0.productIdentifier < $1.productIdentifier },
            invalidProductIdentifiers: invalid)
    }

    public func spec(for identifier: String) -> StoreProductSpec? {
        specs.first { $0.productId == identifier }
    }

    /// Whether a products request in `storefront` returns `identifier`, as `products(for:)` would
    /// answer it, without localizing it (the fuzzer asks after every step).
    public func sells(_ identifier: String, in storefront: Storefront) -> Bool {
        spec(for: identifier).map { Self.sellable($0, in: storefront) != nil } ?? false
    }

    /// The price of a product the storefront sells: it has a price there and at least one localization.
    private static func sellable(_ spec: StoreProductSpec, in storefront: Storefront) -> Decimal? {
        guard let priceText = spec.prices[storefront.countryCode], !spec.localizations.isEmpty else { return nil }
        return decimal(priceText)
    }

    static func product(_ spec: StoreProductSpec, storefront: Storefront, locale: String) -> Product? {
        MadeProducts.shared.product(spec, storefront: storefront, locale: locale) {
            make(spec, storefront: storefront, locale: locale)
        }
    }

    private static func make(_ spec: StoreProductSpec, storefront: Storefront, locale: String) -> Product? {
        guard let price = sellable(spec, in: storefront), let localization = spec.localization(for: locale) else {
            return nil
        }
        let formatter = PriceFormatter(locale: locale, currencyCode: storefront.currencyCode)
        var product = Product(
            productIdentifier: spec.productId,
            localizedTitle: localization.title,
            localizedDescription: localization.description,
            price: price,
            priceLocale: locale,
            currencyCode: storefront.currencyCode,
            localizedPrice: formatter.string(price),
            subscriptionPeriod: spec.subscriptionPeriod.flatMap { CalendarPeriod(iso8601: $0) },
            subscriptionGroupIdentifier: spec.subscriptionGroup,
            introductoryOffer: spec.introductoryOffer.flatMap {
                discount($0, storefront: storefront, formatter: formatter)
            })
        product.discounts = (spec.promotionalOffers ?? []).compactMap { offer in
            let terms = IntroductoryOfferSpec(
                paymentMode: offer.paymentMode, period: offer.period, periodCount: offer.periodCount,
                prices: offer.prices)
            var discount = discount(terms, storefront: storefront, formatter: formatter)
            discount?.identifier = offer.id
            discount?.isWinBack = offer.winBack ?? false
            return discount
        }
        return product
    }

    /// An offer's terms as `storefront` sells them, its price formatted for `locale`.
    static func discount(_ offer: IntroductoryOfferSpec, storefront: Storefront, locale: String) -> ProductDiscount? {
        discount(
            offer, storefront: storefront,
            formatter: PriceFormatter(locale: locale, currencyCode: storefront.currencyCode))
    }

    private static func discount(_ offer: IntroductoryOfferSpec, storefront: Storefront, formatter: PriceFormatter)
        -> ProductDiscount?
    {
        guard let period = CalendarPeriod(iso8601: offer.period) else { return nil }
        // A paid offer with no price in this storefront is not sold here (as App Store Connect's territories):
        // free would give away periods the owner never priced.
        let price: Decimal
        if offer.paymentMode == .freeTrial {
            price = 0
        } else {
            guard let priced = offer.prices?[storefront.countryCode].flatMap(decimal) else { return nil }
            price = priced
        }
        let mode: ProductDiscount.PaymentMode =
            switch offer.paymentMode {
            case .freeTrial: .freeTrial
            case .payAsYouGo: .payAsYouGo
            case .payUpFront: .payUpFront
            }
        return ProductDiscount(
            paymentMode: mode, subscriptionPeriod: period, numberOfPeriods: offer.periodCount ?? 1, price: price,
            localizedPrice: formatter.string(price))
    }

    public static func decimal(_ text: String) -> Decimal? {
        MadeProducts.shared.price(text) { Decimal(string: $0, locale: posix) }
    }

    /// Made once: looking the locale up again was most of the invariant monitor's "is it sold here".
    private static let posix = Locale(identifier: "en_US_POSIX")
}

/// Formats an amount in a currency for a locale as StoreKit's `priceLocale` does (ICU's currency format), from
/// `PriceFormat`'s table: cheap enough to run on every products request, with no formatter to cache.
struct PriceFormatter {
    private let format: PriceFormat
    private let currencyCode: String

    init(locale: String, currencyCode: String) {
        self.format = PriceFormat.forLocale(locale)
        self.currencyCode = currencyCode
    }

    func string(_ amount: Decimal) -> String {
        format.string(amount, currencyCode: currencyCode)
    }
}

extension StoreProductSpec {
    /// The product's words for `locale`: a locale the product is not translated for falls back to English, as StoreKit
    /// to the development language, not to the first translation by name (a Spanish phone read German titles, session
    /// 23). `check` names products by it too (session 28: a non-consumable was named by its identifier in French).
    public func localization(for locale: String) -> ProductLocalization? {
        localizations[locale]
            ?? localizations.first { $0.key.hasPrefix(String(locale.prefix(2))) }?.value
            ?? localizations["en_US"]
            ?? localizations.sorted { $0.key < $1.key }.first { $0.key.hasPrefix("en") }?.value
            ?? localizations.sorted { $0.key < $1.key }.first?.value
    }
}
