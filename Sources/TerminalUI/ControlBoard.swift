import SimKernel
import Simulation

/// The control pane's list, built from the world's readings: a toggle's action is the opposite of its
/// state, a choice's the next value, so Enter always does what the row says next.
public enum ControlBoard {
    public static func controls(_ readings: ControlReadings) -> [Control] {
        [
            Control(.parent, "Ask to Buy", value: onOff(readings.askToBuy), .askToBuy(!readings.askToBuy)),
            Control(.parent, "Approve the request", .parentApprove),
            Control(.parent, "Decline the request", .parentDecline),
            Control(
                .store, "Next purchase", value: readings.nextPurchase.rawValue,
                .nextPurchase(readings.nextPurchase.next)),
            Control(.store, "Resolve the interrupted purchase", .resolveInterrupted),
            Control(.store, "Receipt goes missing", .removeReceipt),
            // The app's next read of its receipt is altered by a byte, as a jailbroken phone's tweak would: Apple's
            // verifyReceipt refuses it and the app refreshes and sends again (session 31's fault had no row).
            Control(.store, "Receipt forged next", .inject(once("receipt", "forged"))),
            Control(
                .store, "Payments allowed", value: onOff(readings.canMakePayments),
                .payments(allowed: !readings.canMakePayments)),
            Control(.store, "Refund the latest", .refund),
            billingIssue(readings),
            Control(.store, "Price increase", .priceIncrease),
            Control(
                .store, "Storefront", value: readings.storefront,
                .storefront(next(after: readings.storefront, in: readings.storefronts))),
            Control(
                .store, "Locale", value: readings.locale, .locale(next(after: readings.locale, in: readings.locales))
            ),
            Control(.backend, "Receipt check fails next", .inject(once("receipts", "error"))),
            Control(.backend, "Next call times out", .inject(once("backend", "timeout"))),
            Control(.backend, "Next call slow (+30s)", .inject(once("backend", "slow"))),
            // Apple's App Store Server Notifications, which had no row (session 32): the server refuses the next three
            // posts (the first and Apple's retries an hour and twelve hours on), so it keeps what it last heard until
            // the retry a day later lands or a receipt check tells it; or it applies one and its answer is lost, so
            // Apple sends it again.
            Control(.backend, "Notifications fail (3x)", .inject(times(3, "notifications", "error"))),
            Control(.backend, "Notification answer lost", .inject(once("notifications", "lost-response"))),
            Control(
                .family, "In the family: \(familyMember)", value: onOff(readings.familyMember),
                readings.familyMember ? .familyRemove(familyMember) : .familyAdd(familyMember)),
            Control(
                .family, "Family Sharing", value: onOff(readings.familySharing),
                .familySharing(!readings.familySharing)),
            Control(.time, "+1 day", .advance(.fixed(.days(1)))),
            Control(.time, "+1 month", .advance(.months(1))),
            Control(.time, "To the next renewal", .renew),
            Control(.device, "Background and back", .foreground),
            // Any phone the world has, in turn: back to the subscriber's own after a family member's or a new one. With
            // one phone it names none: pressed, it is refused, and a value that never changes would say otherwise.
            Control(
                .device, "Phone", value: readings.phones.count > 1 ? readings.phone : nil,
                .phone(next(after: readings.phone, in: readings.phones))),
            // The scenario's `kill`: the process dies, nothing runs on the phone until "Background and back" or
            // "Restart the app" starts it again (session 32: no row).
            Control(.device, "Kill the app", .kill),
            Control(.device, "Restart the app", .restartApp),
            Control(.device, "New device", .newDevice(readings.freeDeviceName)),
            Control(
                .network, "Latency", value: readings.latency.name, .latency(nextProfile(after: readings.latency))),
            Control(
                .app, "Finish",
                value: readings.finishesBeforeServerCheck ? "before server check" : "after server check",
                .finish(readings.finishesBeforeServerCheck ? .afterServerCheck : .beforeServerCheck)),
        ]
    }

    /// How many rows the list has; the same whatever the readings, so a selection stays on its row.
    public static var count: Int { controls(ControlReadings()).count }

    /// A fault the next call meets once: what the backend rows plan.
    private static func once(_ target: String, _ fault: String) -> FaultPlan { times(1, target, fault) }

    /// A fault the next `count` calls meet.
    private static func times(_ count: Int, _ target: String, _ fault: String) -> FaultPlan {
        FaultPlan(rules: [FaultRule(target: target, fault: fault, frequency: .times(count))])
    }

    /// Off, then a billing issue with the grace period the file or config gives, then with the other, then off: the
    /// first press is the file's, the second the one it does not give (session 31, h11: only the file's was offered).
    private static func billingIssue(_ readings: ControlReadings) -> Control {
        guard readings.billingIssue else {
            return Control(.store, "Billing issue", value: "off", .billingIssueWith(grace: readings.defaultGrace))
        }
        let grace = readings.billingGrace
        return Control(
            .store, "Billing issue", value: grace ? "with grace" : "no grace",
            grace == readings.defaultGrace ? .billingIssueWith(grace: !grace) : .billingIssue(false))
    }

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
