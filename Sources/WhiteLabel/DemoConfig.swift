import FoundationEssentials
import SimKernel

/// One white-label app, as its owner configured it: the app part the phone reads,
/// the backend part only the server reads, and the catalog the App Store sells.
public struct DemoConfig: Sendable {
    public var app: AppPart
    public var backend: BackendPart
    public var store: StorePart
    /// The file it was read from, for messages; nil for configs built in code.
    public var sourcePath: String?
    /// What an imported `.storekit` file holds that the simulator ignores or stands in for; said once, on stderr.
    public var warnings: [ConfigError] = []
}

/// What the phone knows: the owner's offers in order, the paywall text, the content, the policies.
public struct AppPart: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var bundleId: String
    public var theme: String
    public var tagline: String?
    /// The owner's order is the paywall's order, whatever order the store answers in.
    public var subscriptions: [ConfiguredSubscription]
    public var paywall: PaywallText
    public var content: [ContentItem]
    public var account: AccountPolicy
    public var kids: Bool
    public var ads: AdsPolicy
    /// What the app calls its content ("story", "stories"); articles when absent.
    public var contentWords: ContentWords? = nil

    /// The owner's words for the content, or articles.
    public var words: ContentWords { contentWords ?? .articles }
}

/// A subscription the owner sells: our identifier and the App Store's product identifier.
public struct ConfiguredSubscription: Codable, Sendable, Equatable {
    public var id: String
    public var productId: String
}

/// The owner's words for the paywall. Offer lines are templates with placeholders
/// `{title}`, `{description}`, `{price}`, `{period}`, `{trial}` and `{intro}` filled from the store's answer.
/// `{intro}` is a paid introductory offer's terms ("$2.49 per month for 3 months, then "), empty without one;
/// a template without it gets them before `{price}`, so the paywall never hides what Apple's sheet will charge.
public struct PaywallText: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    /// The line for an offer without a free trial.
    public var offer: String
    /// The line for an offer with a free trial; `offer` is used when absent.
    public var offerWithTrial: String?
    /// The line for a lapsed reader's win-back offer (`{intro}` holds its terms); `offer` when absent.
    public var winBack: String?
    /// The buttons under the offers; "Restore purchase" and "Log in" when absent.
    public var restore: String?
    public var logIn: String?
    /// Locale (`fr_FR`, or a language: `fr`) → the owner's words in it, each field falling back to these.
    public var localizations: [String: PaywallLocalization]?

    public init(title: String, body: String, offer: String, offerWithTrial: String?) {
        self.title = title
        self.body = body
        self.offer = offer
        self.offerWithTrial = offerWithTrial
    }

    /// `{perPeriod}` ("per month", "par mois") and `{freeTrial}` ("1 week free", "1 semaine gratuite") are
    /// the store's own words in the device's language.
    public static let placeholders = [
        "{title}", "{description}", "{price}", "{period}", "{trial}", "{intro}", "{perPeriod}", "{freeTrial}",
    ]

    /// The words for `locale`: its own (`fr_FR`, or `fr-FR` read as `fr_FR`, as a loaded config's keys are), else its
    /// language's (`fr`), else these.
    public func localized(for locale: String) -> PaywallText {
        let posix = locale.replacingPlainly("-", with: "_")
        let language = LocaleIdentifier.language(of: posix)
        guard let words = localizations?[posix] ?? localizations?[language] else { return self }
        var text = self
        text.title = words.title ?? title
        text.body = words.body ?? body
        text.offer = words.offer ?? offer
        text.offerWithTrial = words.offerWithTrial ?? words.offer ?? offerWithTrial
        text.winBack = words.winBack ?? winBack
        text.restore = words.restore ?? restore
        text.logIn = words.logIn ?? logIn
        return text
    }
}

/// The owner's paywall words in one locale; what is left out is the default's.
public struct PaywallLocalization: Codable, Sendable, Equatable {
    public var title: String?
    public var body: String?
    public var offer: String?
    public var offerWithTrial: String?
    public var winBack: String?
    public var restore: String?
    public var logIn: String?

    public init(title: String? = nil, body: String? = nil, offer: String? = nil, offerWithTrial: String? = nil) {
        self.title = title
        self.body = body
        self.offer = offer
        self.offerWithTrial = offerWithTrial
    }
}

/// A piece of content in the feed: its free preview, and the levels that unlock the full version.
public struct ContentItem: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var preview: String
    /// Empty for free content; otherwise any one of these levels unlocks it.
    public var requiredLevels: [String]

    public init(id: String, title: String, preview: String, requiredLevels: [String]) {
        self.id = id
        self.title = title
        self.preview = preview
        self.requiredLevels = requiredLevels
    }
}

/// Whether a reader may subscribe without an account.
public struct AccountPolicy: Codable, Sendable, Equatable {
    public enum Mode: String, Codable, Sendable, CaseIterable {
        case optional
        case requiredAfterSubscribing = "required-after-subscribing"
    }
    public var mode: Mode
}

/// Whether subscribers still see ads.
public struct AdsPolicy: Codable, Sendable, Equatable {
    public var enabled: Bool
    public var hideForSubscribers: Bool
}

/// The server's part: which levels each product grants, and the full content it serves.
public struct BackendPart: Codable, Sendable, Equatable {
    /// Product identifier → access levels. The phone never sees this mapping.
    public var productLevels: [String: [String]]
    /// Content identifier → full text, served only to identities holding a required level.
    public var fullContent: [String: String]
    /// How restores treat a purchase another customer owns; `transfer` when absent.
    public var restorePolicy: RestorePolicy?
}

/// How a restore treats a purchase that another customer owns.
public enum RestorePolicy: String, Codable, Sendable, CaseIterable {
    /// The seed's rules: it moves, from this device only, never from an account to a guest, 3 times in 30 days.
    case transfer
    /// It stays with its owner; the reader must log in as the owner.
    case keepWithOriginalOwner = "keep-with-original-owner"
    /// It moves only when its owner has no active subscription.
    case transferIfOwnerInactive = "transfer-if-owner-inactive"
}

/// The App Store's catalog for this app: written inline in the config, or imported from an Xcode `.storekit` file.
public struct StorePart: Codable, Sendable, Equatable {
    /// The device's storefront (ISO 3166-1 alpha-3, e.g. `USA`) and locale (e.g. `en_US`).
    public var storefront: String
    public var locale: String
    public var products: [StoreProductSpec]
    /// The `.storekit` file the products were imported from, as the loader found it; nil for an inline catalog.
    public var storekitFile: String? = nil
    /// That file's test settings (Ask to Buy, failing transactions, billing issues); nil for an inline catalog.
    public var storekitSettings: StoreKitSettings? = nil
    /// An inline catalog's test switches, as a `.storekit` file has them: `"settings": {"askToBuy": true}`.
    public var settings: StoreTestSettings? = nil

    /// Only the inline form is JSON; the imported form is read by `DemoConfigLoader` from `StoreKitReference`.
    enum CodingKeys: String, CodingKey {
        case storefront, locale, products, settings
    }

    public init(
        storefront: String, locale: String, products: [StoreProductSpec], storekitFile: String? = nil,
        storekitSettings: StoreKitSettings? = nil
    ) {
        self.storefront = storefront
        self.locale = locale
        self.products = products
        self.storekitFile = storekitFile
        self.storekitSettings = storekitSettings
    }
}

/// A product as App Store Connect holds it.
public struct StoreProductSpec: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case autoRenewable = "auto-renewable"
        case nonRenewing = "non-renewing"
        case consumable
        case nonConsumable = "non-consumable"

        /// Why a subscription paywall does not sell a product of this kind (`check --paywall`, and the stderr
        /// warning of a `.storekit` file's product).
        public var whyNotOnPaywall: String {
            switch self {
            case .consumable: "a consumable is used up and bought again; it grants no access that renews"
            case .nonConsumable: "a non-consumable is bought once and kept; it grants no access that renews"
            case .nonRenewing: "a non-renewing subscription ends without renewing; the app would have to track its end"
            case .autoRenewable: "an auto-renewable subscription the app's owner did not put on the paywall"
            }
        }
    }

    public var productId: String
    public var type: Kind
    public var subscriptionGroup: String?
    /// The level within the group (App Store Connect's: 1 is the highest service); decides whether a
    /// change is an upgrade, a downgrade or a crossgrade. Absent means every product is on one level.
    public var groupLevel: Int?
    /// ISO 8601, e.g. `P1M`.
    public var subscriptionPeriod: String?
    public var introductoryOffer: IntroductoryOfferSpec?
    /// Offers the app may apply to a purchase with a signature from the backend (promotional offers).
    public var promotionalOffers: [PromotionalOfferSpec]? = nil
    /// Offer codes a reader redeems on the App Store (a `.storekit` file's `codeOffers`).
    public var offerCodes: [OfferCodeSpec]? = nil
    /// Storefront (ISO 3166 alpha-3, e.g. `USA`) → price in that storefront's currency, as a decimal string.
    /// A storefront not listed does not sell the product.
    public var prices: [String: String]
    /// Locale (e.g. `en_US`) → the store's translated title and description.
    public var localizations: [String: ProductLocalization]
    /// Family Sharing: the purchaser's family members get the product too, each as their own
    /// FAMILY_SHARED transaction (App Store Connect's and StoreKit's `isFamilyShareable`).
    public var isFamilyShareable: Bool? = nil
}

/// A subscription's introductory offer: a free trial, or a reduced price paid per period or up front.
public struct IntroductoryOfferSpec: Codable, Sendable, Equatable {
    public enum PaymentMode: String, Codable, Sendable, CaseIterable {
        case freeTrial = "free-trial"
        case payAsYouGo = "pay-as-you-go"
        case payUpFront = "pay-up-front"
    }
    public var paymentMode: PaymentMode
    /// ISO 8601 length of one offer period, e.g. `P1W`.
    public var period: String
    /// How many periods; 1 when absent.
    public var periodCount: Int?
    /// The price per period for paid offers, per storefront.
    public var prices: [String: String]?

    public init(paymentMode: PaymentMode, period: String, periodCount: Int?, prices: [String: String]?) {
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.prices = prices
    }
}

/// A product's title and description in one locale.
public struct ProductLocalization: Codable, Sendable, Equatable {
    public var title: String
    public var description: String
}

/// A promotional offer of a subscription: sold only with a signature the backend makes for one purchase.
public struct PromotionalOfferSpec: Codable, Sendable, Equatable {
    public var id: String
    public var paymentMode: IntroductoryOfferSpec.PaymentMode
    /// ISO 8601 length of one offer period, e.g. `P1M`.
    public var period: String
    public var periodCount: Int?
    /// The price per period, per storefront; free when absent.
    public var prices: [String: String]?
    /// Meant for readers whose subscription lapsed: the paywall shows it to them (a `.storekit` win-back offer).
    public var winBack: Bool?

    public init(
        id: String, paymentMode: IntroductoryOfferSpec.PaymentMode, period: String, periodCount: Int? = nil,
        prices: [String: String]? = nil
    ) {
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.prices = prices
    }
}

/// An offer code of a subscription: redeemed by its code on the App Store, for readers its eligibility names.
public struct OfferCodeSpec: Codable, Sendable, Equatable {
    /// Who may redeem it, as App Store Connect names them.
    public enum Eligibility: String, Codable, Sendable, CaseIterable {
        /// Never subscribed in the group.
        case new
        /// Subscribed before; the subscription lapsed.
        case expired
        /// Subscribed now: the offer starts at the next renewal.
        case existing
    }

    /// The code the reader types (a `.storekit` file's `referenceName`).
    public var code: String
    public var paymentMode: IntroductoryOfferSpec.PaymentMode
    public var period: String
    public var periodCount: Int?
    /// The price per period (pay as you go) or for all of it (pay up front), per storefront; free when absent.
    public var prices: [String: String]?
    public var eligibility: [Eligibility]

    public init(
        code: String, paymentMode: IntroductoryOfferSpec.PaymentMode, period: String, periodCount: Int? = nil,
        prices: [String: String]? = nil, eligibility: [Eligibility]
    ) {
        self.code = code
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.prices = prices
        self.eligibility = eligibility
    }
}

/// The App Store's test switches an inline catalog may turn on, as Xcode's StoreKit testing does.
public struct StoreTestSettings: Codable, Sendable, Equatable {
    /// Every purchase waits for a parent's approval.
    public var askToBuy: Bool?
    /// A renewal that fails keeps access through Apple's grace period.
    public var billingGracePeriod: Bool?
    /// Renewals fail and enter billing retry.
    public var renewalBillingIssues: Bool?
}
