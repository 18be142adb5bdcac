/// The test-environment switches of an Xcode StoreKit configuration file, for the fake App Store to apply.
public struct StoreKitSettings: Sendable, Equatable {
    /// ISO 3166-1 alpha-3 (`USA`): the storefront the file's `displayPrice`s are in; `USA` when absent, as in Xcode.
    public var storefront: String
    /// Which localization the store answers in; `en_US` when absent, as in Xcode.
    public var locale: String
    /// Every purchase waits for a parent's approval (Ask to Buy).
    public var askToBuyEnabled: Bool
    /// Every payment-queue transaction fails (`SKTestSession.failTransactionsEnabled`).
    public var failTransactionsEnabled: Bool
    /// `_billingIssuesEnabled`; Xcode does not document which switch it is (interrupted purchases, probably),
    /// so it keeps the file's name.
    public var billingIssuesEnabled: Bool
    /// `_renewalBillingIssuesEnabled`: renewals fail and enter billing retry, probably; named as the file names it.
    public var renewalBillingIssuesEnabled: Bool
    /// A billing-retry subscription gets a grace period first.
    public var billingGracePeriodEnabled: Bool
    /// No interactive dialogs, for automated tests.
    public var disableDialogs: Bool
    /// `SKTestSession.TimeRate` raw value; 0 is real time.
    public var timeRate: Int
    /// The In-App Purchase key's ID (`subscriptionOffersKeyPair.id`): the backend signs promotional offers under it.
    public var offerKeyIdentifier: String? = nil

    public init(
        storefront: String = "USA", locale: String = "en_US", askToBuyEnabled: Bool = false,
        failTransactionsEnabled: Bool = false, billingIssuesEnabled: Bool = false,
        renewalBillingIssuesEnabled: Bool = false, billingGracePeriodEnabled: Bool = false,
        disableDialogs: Bool = false, timeRate: Int = 0
    ) {
        self.storefront = storefront
        self.locale = locale
        self.askToBuyEnabled = askToBuyEnabled
        self.failTransactionsEnabled = failTransactionsEnabled
        self.billingIssuesEnabled = billingIssuesEnabled
        self.renewalBillingIssuesEnabled = renewalBillingIssuesEnabled
        self.billingGracePeriodEnabled = billingGracePeriodEnabled
        self.disableDialogs = disableDialogs
        self.timeRate = timeRate
    }

    /// The rates `virtualSecondsPerSecond` knows, and 0, real time.
    public static let knownTimeRates: Set<Int> = [
        0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 1000, 1001, 1002, 1003, 1004, 1005,
    ]

    /// Virtual seconds per wall second at `timeRate`, as Xcode's rates make a month pass
    /// (`monthlyRenewalEveryThirtySeconds`: a 30-day month in 30 s); 1 for real time or a rate it does not know.
    public var virtualSecondsPerSecond: Double {
        let day = 86_400.0
        let month = 30 * day
        switch timeRate {
        case 1: return 24
        case 2: return 48
        case 3: return 288
        case 4, 11: return month / 1_800
        case 5, 12: return month / 900
        case 6, 15: return month / 30
        case 10: return month / 3_600
        case 13: return month / 300
        case 1000: return month / 900
        case 1001: return month / 300
        case 1002: return month / 60
        case 1003: return month / 30
        case 1004: return month / 10
        case 1005: return month / 2
        default: return 1
        }
    }

    init(_ file: StoreKitFileSettings?) {
        let defaults = StoreKitSettings()
        self.init(
            storefront: file?.storefront ?? defaults.storefront,
            locale: file?.locale ?? defaults.locale,
            askToBuyEnabled: file?.askToBuyEnabled ?? false,
            failTransactionsEnabled: file?.failTransactionsEnabled ?? false,
            billingIssuesEnabled: file?.billingIssuesEnabled ?? false,
            renewalBillingIssuesEnabled: file?.renewalBillingIssuesEnabled ?? false,
            billingGracePeriodEnabled: file?.billingGracePeriodEnabled ?? false,
            disableDialogs: file?.disableDialogs ?? false,
            timeRate: file?.timeRate ?? 0)
    }
}
