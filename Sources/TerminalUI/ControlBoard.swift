import SimKernel

/// The control pane's list, built from the world's readings: a toggle's action is the opposite of its
/// state, a choice's the next value, so Enter always does what the row says next.
public enum ControlBoard {
    public static func controls(_ readings: ControlReadings) -> [Control] {
        [
            Control(.parent, "Ask to Buy", value: onOff(readings.askToBuy), .setAskToBuy(!readings.askToBuy)),
            Control(.parent, "Approve the request", .approveAskToBuy),
            Control(.parent, "Decline the request", .declineAskToBuy),
            Control(
                .store, "Next purchase", value: readings.nextPurchase.rawValue,
                .nextPurchase(readings.nextPurchase.next)),
            Control(.store, "Resolve the interrupted purchase", .resolveInterruptedPurchase),
            Control(.store, "Receipt goes missing", .removeReceipt),
            Control(
                .store, "Payments allowed", value: onOff(readings.canMakePayments),
                .setCanMakePayments(!readings.canMakePayments)),
            Control(.store, "Refund the latest", .refundLatest),
            Control(
                .store, "Billing issue", value: onOff(readings.billingIssue), .setBillingIssue(!readings.billingIssue)),
            Control(.store, "Price increase", .raisePrices),
            Control(
                .store, "Storefront", value: readings.storefront,
                .setStorefront(next(after: readings.storefront, in: readings.storefronts))),
            Control(
                .store, "Locale", value: readings.locale, .setLocale(next(after: readings.locale, in: readings.locales))
            ),
            Control(.backend, "Receipt check fails next", .failNextReceiptCheck),
            Control(.backend, "Next call times out", .timeOutNextBackendCall),
            Control(.backend, "Next call slow (+30s)", .slowNextBackendCall),
            Control(
                .family, "In the family: \(familyMember)", value: onOff(readings.familyMember),
                readings.familyMember ? .removeFamilyMember : .addFamilyMember),
            Control(
                .family, "Family Sharing", value: onOff(readings.familySharing),
                .setFamilySharing(!readings.familySharing)),
            Control(.time, "+1 day", .travelOneDay),
            Control(.time, "+1 month", .travelOneMonth),
            Control(.time, "To the next renewal", .travelToNextRenewal),
            Control(.device, "Background and back", .backgroundAndBack),
            Control(.device, "Restart the app", .restartApp),
            Control(.device, "New device", .newDevice),
            Control(
                .network, "Latency", value: readings.latency.name, .setLatency(nextProfile(after: readings.latency))),
            Control(
                .app, "Finish",
                value: readings.finishesBeforeServerCheck ? "before server check" : "after server check",
                .setFinishBeforeServerCheck(!readings.finishesBeforeServerCheck)),
        ]
    }

    /// How many rows the list has; the same whatever the readings, so a selection stays on its row.
    public static var count: Int { controls(ControlReadings()).count }

    /// The Apple ID of the reader's family member the pane adds and removes (their phone is `kid-iphone`).
    public static let familyMember = "kid@icloud.test"

    private static func onOff(_ value: Bool) -> String { value ? "on" : "off" }

    /// The value after `current` in `values`, wrapping around; `current` when it is the only one.
    private static func next(after current: String, in values: [String]) -> String {
        guard let index = values.firstIndex(of: current), !values.isEmpty else { return values.first ?? current }
        return values[(index + 1) % values.count]
    }

    private static func nextProfile(after profile: LatencyProfile) -> LatencyProfile {
        let all = LatencyProfile.all
        let index = all.firstIndex { $0.name == profile.name } ?? 0
        return all[(index + 1) % all.count]
    }
}
