import FoundationEssentials
import SimKernel

/// A product as the App Store returns it to a products request, named as StoreKit names it.
public struct Product: Equatable, Sendable {
    public let productIdentifier: String
    public let localizedTitle: String
    public let localizedDescription: String
    public let price: Decimal
    /// The locale the price is formatted for, e.g. `en_US`, and the storefront's currency.
    public let priceLocale: String
    public let currencyCode: String
    /// The price as the store shows it in `priceLocale`: `$4.99`, `4,99 €`.
    public let localizedPrice: String
    public let subscriptionPeriod: CalendarPeriod?
    public let subscriptionGroupIdentifier: String?
    public let introductoryOffer: ProductDiscount?
    /// Promotional offers (`SKProduct.discounts`): applied only with a signature from the app's server.
    public var discounts: [ProductDiscount] = []
}

/// An introductory offer, as StoreKit's `SKProductDiscount`.
public struct ProductDiscount: Equatable, Sendable {
    public enum PaymentMode: String, Sendable {
        case freeTrial = "free-trial"
        case payAsYouGo = "pay-as-you-go"
        case payUpFront = "pay-up-front"
    }

    public let paymentMode: PaymentMode
    public let subscriptionPeriod: CalendarPeriod
    public let numberOfPeriods: Int
    public let price: Decimal
    public let localizedPrice: String
    /// A promotional offer's identifier; nil for an introductory offer.
    public var identifier: String? = nil
    /// The owner meant it for readers whose subscription lapsed (a `.storekit` file's win-back offer).
    public var isWinBack = false

    /// How long the offer lasts in all: one week × 2 is two weeks, as Apple's sheet says "Free for 2 weeks".
    public var wholeLength: CalendarPeriod {
        CalendarPeriod(unit: subscriptionPeriod.unit, value: subscriptionPeriod.value * max(numberOfPeriods, 1))
    }
}

/// The answer to a products request: what is sellable here, and which identifiers were not.
public struct ProductsResponse: Equatable, Sendable {
    public internal(set) var products: [Product]
    public let invalidProductIdentifiers: [String]
    /// Set when the request failed (`request(_:didFailWithError:)`); then nothing is sellable.
    public var error: StoreError? = nil
}
