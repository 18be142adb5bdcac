/// What the App Store keeps of an Apple ID's settings from run to run (`appstore.sqlite`): Ask to Buy (`ask_to_buy`),
/// a failing payment method with the grace period it was set with, and the storefront (`apple_id_settings`). Nil:
/// never set, the store's default. A reopened folder kept Ask to Buy but lost the rest (session 28).
public struct AppleIdSettings: Equatable, Sendable {
    public var askToBuy: Bool? = nil
    public var billingIssue: Bool? = nil
    public var gracePeriod: Bool? = nil
    public var storefront: String? = nil
}

extension AppStore {
    /// The billing issues kept before this run (a reopened folder), in place before the renewals due on the way to
    /// the saved clock run.
    func resumeBillingIssues() {
        let kept = logged("read the Apple IDs' settings") { try ledger.appleIdSettings() } ?? [:]
        for (appleId, settings) in kept where settings.billingIssue == true { billingIssueAppleIds.insert(appleId) }
    }

    /// What the store keeps of `appleId`'s settings: at a world's opening, as the last run left them.
    public func keptSettings(appleId: String) -> AppleIdSettings {
        let kept = logged("read the Apple IDs' settings") { try ledger.appleIdSettings() } ?? [:]
        var settings = kept[appleId] ?? AppleIdSettings()
        settings.askToBuy = askToBuyAppleIds[appleId]
        return settings
    }

    /// Keeps the Apple ID's storefront, as the reader moved it in Settings, for the next run.
    public func keepStorefront(_ storefront: Storefront, appleId: String) {
        _ = logged("keep the storefront of \(appleId)") {
            try ledger.saveStorefront(storefront.countryCode, appleId: appleId)
        }
    }
}
