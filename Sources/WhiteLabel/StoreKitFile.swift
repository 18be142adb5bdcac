/// The JSON of an Xcode StoreKit configuration file (`.storekit`), as Xcode writes it: only the keys
/// the simulator uses. Unknown keys (offer codes, promotional offers, billing plans, key pairs) are ignored,
/// so files from newer Xcode versions still import.
struct StoreKitFile: Decodable {
    var products: [StoreKitFileProduct]?
    var nonRenewingSubscriptions: [StoreKitFileProduct]?
    var subscriptionGroups: [StoreKitFileGroup]?
    var settings: StoreKitFileSettings?
    /// The In-App Purchase key Xcode made for signing promotional offers: only its `id` is used.
    var subscriptionOffersKeyPair: StoreKitFileKeyPair?
}

/// `subscriptionOffersKeyPair`: `{id, privateKey}`.
struct StoreKitFileKeyPair: Decodable {
    var id: String?
}

/// A consumable, non-consumable or non-renewing subscription.
struct StoreKitFileProduct: Decodable {
    var productID: String
    var type: String
    var displayPrice: String
    var familyShareable: Bool?
    var localizations: [StoreKitFileLocalization]
}

/// A subscription group and its auto-renewable subscriptions.
struct StoreKitFileGroup: Decodable {
    var id: String
    var name: String
    var subscriptions: [StoreKitFileSubscription]
}

/// An auto-renewable subscription (`type` is `RecurringSubscription`).
struct StoreKitFileSubscription: Decodable {
    var productID: String
    var type: String
    var displayPrice: String
    /// The group Xcode files it under: the id of the group that lists it, else the file contradicts itself.
    var subscriptionGroupID: String?
    var groupNumber: Int?
    var recurringSubscriptionPeriod: String
    var familyShareable: Bool?
    var introductoryOffer: StoreKitFileIntroductoryOffer?
    /// Format version 5 lists introductory offers here too; older files have only `introductoryOffer`.
    var introductoryOffers: [StoreKitFileIntroductoryOffer]?
    /// Promotional offers, each with its `offerID`.
    var adHocOffers: [StoreKitFileIntroductoryOffer]?
    /// Offer codes: `referenceName` is the code, `eligibility` who may redeem it.
    var codeOffers: [StoreKitFileIntroductoryOffer]?
    /// Format version 5; Apple's fields are not documented: read as promotional offers meant for lapsed readers.
    var winbackOffers: [StoreKitFileIntroductoryOffer]?
    var localizations: [StoreKitFileLocalization]
}

/// `introductoryOffer`: `paymentMode` is `free`, `payAsYouGo` or `payUpFront`.
/// Promotional offers (`offerID`) and offer codes (`referenceName`, `eligibility`) have the same terms.
struct StoreKitFileIntroductoryOffer: Decodable {
    var paymentMode: String
    var subscriptionPeriod: String
    var numberOfPeriods: Int?
    var displayPrice: String?
    var offerID: String?
    var referenceName: String?
    var eligibility: [String]?
}

/// One locale's texts of a product.
struct StoreKitFileLocalization: Decodable {
    var locale: String
    var displayName: String
    var description: String
}

/// `settings`: Xcode prefixes every key with an underscore.
struct StoreKitFileSettings: Decodable {
    var storefront: String?
    var locale: String?
    var askToBuyEnabled: Bool?
    var failTransactionsEnabled: Bool?
    var billingIssuesEnabled: Bool?
    var renewalBillingIssuesEnabled: Bool?
    var billingGracePeriodEnabled: Bool?
    var disableDialogs: Bool?
    var timeRate: Int?

    enum CodingKeys: String, CodingKey {
        case storefront = "_storefront"
        case locale = "_locale"
        case askToBuyEnabled = "_askToBuyEnabled"
        case failTransactionsEnabled = "_failTransactionsEnabled"
        case billingIssuesEnabled = "_billingIssuesEnabled"
        case renewalBillingIssuesEnabled = "_renewalBillingIssuesEnabled"
        case billingGracePeriodEnabled = "_billingGracePeriodEnabled"
        case disableDialogs = "_disableDialogs"
        case timeRate = "_timeRate"
    }
}
