import SimKernel

/// The store operations a fault plan can target, named as `--inject` writes them.
public enum StoreFaultTarget: String, CaseIterable, Sendable {
    case productsRequest = "products-request"
    case payment
    /// Reading the app receipt on the device.
    case receipt
    case receiptRefresh = "receipt-refresh"
    case notification

    /// The faults that make sense for this operation.
    public var faults: [String] {
        switch self {
        case .productsRequest: ["error", "timeout", "partial"]
        case .payment: ["error", "timeout", "cancelled", "deferred", "interrupted"]
        case .receipt: ["missing", "forged"]
        case .receiptRefresh: ["error", "timeout", "missing", "cancelled"]
        case .notification: ["dropped", "duplicated", "delayed", "reordered"]
        }
    }
}

/// A fault the fake App Store injects into one call, as a fault plan asks.
public enum StoreFault: Equatable, Sendable, CustomStringConvertible {
    /// The call fails with this StoreKit error code.
    case error(StoreError)
    /// No answer until StoreKit gives up, then a network error.
    case timeout
    /// The reader cancels: Apple's payment sheet, or the Apple ID sign-in a receipt refresh (or a restore of completed
    /// transactions) asks for on a real iPhone; StoreKit answers `SKErrorPaymentCancelled` either way.
    case cancelled
    /// The payment waits for a parent's approval (Ask to Buy).
    case deferred
    /// The payment needs an action outside the app before it completes.
    case interrupted
    /// Only part of the sellable products come back; the rest are reported invalid.
    case partialProducts
    /// The device has no receipt (read), or the refresh ends without one.
    case receiptMissing
    /// The receipt the app reads has altered bytes (a jailbroken phone's tampered receipt): its signature no longer
    /// holds, so Apple's verifyReceipt refuses it and the backend answers `422 receipt_invalid`. The phone keeps the
    /// true one, which the next read without the fault, a refresh or a restore sends.
    case receiptForged
    case notificationDropped
    case notificationDuplicated
    case notificationDelayed(SimDuration)
    /// The notification is held back and delivered after the next one.
    case notificationReordered

    /// How long StoreKit waits before a timed-out call fails.
    static let timeoutDelay = SimDuration.seconds(60)
    /// How long a delayed notification waits when the plan names no length.
    static let defaultNotificationDelay = SimDuration.hours(1)

    /// The store fault a parsed rule names, or an error naming what the target accepts.
    public init(_ rule: FaultRule) throws(FaultPlanError) {
        guard let target = StoreFaultTarget(rawValue: rule.target) else {
            throw FaultPlanError(
                "unknown target \"\(rule.target)\": use "
                    + StoreFaultTarget.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard target.faults.contains(rule.fault) else {
            throw FaultPlanError(
                "\(target.rawValue) has no fault \"\(rule.fault)\": use " + target.faults.joined(separator: ", "))
        }
        switch (target, rule.fault) {
        case (_, "error"):
            let fallback: StoreError = target == .payment ? .unknown : .cloudServiceNetworkConnectionFailed
            guard let code = rule.argument.map({ StoreError(rawValue: $0) }) ?? fallback else {
                throw FaultPlanError("\"\(rule.argument ?? "")\" is not a StoreKit error code such as paymentInvalid")
            }
            self = .error(code)
        case (_, "timeout"): self = .timeout
        case (_, "cancelled"): self = .cancelled
        case (_, "deferred"): self = .deferred
        case (_, "interrupted"): self = .interrupted
        case (_, "partial"): self = .partialProducts
        case (_, "missing"): self = .receiptMissing
        case (_, "forged"): self = .receiptForged
        case (_, "dropped"): self = .notificationDropped
        case (_, "duplicated"): self = .notificationDuplicated
        case (_, "reordered"): self = .notificationReordered
        default:
            guard let text = rule.argument else {
                self = .notificationDelayed(Self.defaultNotificationDelay)
                return
            }
            guard let delay = SimDuration(text: text) else {
                throw FaultPlanError("\"\(text)\" is not a length of at most 3660d, such as 30s, 5m, 2h or 1d")
            }
            self = .notificationDelayed(delay)
        }
    }

    public var description: String {
        switch self {
        case .error(let code): "error \(code.rawValue)"
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        case .deferred: "deferred"
        case .interrupted: "interrupted"
        case .partialProducts: "products partially returned"
        case .receiptMissing: "receipt missing"
        case .receiptForged: "receipt forged"
        case .notificationDropped: "notification dropped"
        case .notificationDuplicated: "notification duplicated"
        case .notificationDelayed(let delay): "notification delayed \(delay)"
        case .notificationReordered: "notification reordered"
        }
    }

    /// The fault's words after its target's name, as the timeline says them: a first word the name already holds
    /// is not said again ("fault: notification dropped", "fault: receipt missing", "fault: products-request
    /// partially returned"; each said it twice, session 26).
    public func words(after target: StoreFaultTarget) -> String {
        let words = description.split(separator: " ", maxSplits: 1)
        guard words.count == 2, target.rawValue.split(separator: "-").contains(words[0]) else { return description }
        return String(words[1])
    }
}

extension AppStore {
    /// Adds a fault plan's rules to the store's; a rule the store does not understand refuses the whole plan.
    public func inject(_ plan: FaultPlan) throws(FaultPlanError) {
        for rule in plan.rules { _ = try StoreFault(rule) }
        for rule in plan.rules { faultPlan.add(rule) }
        log("faults planned: " + plan.rules.map(\.description).joined(separator: "; "))
    }

    /// Parses `TARGET FAULT [times N | always | chance P]` rules and adds them.
    public func inject(_ text: String) throws(FaultPlanError) {
        try inject(FaultPlan.parse(text))
    }

    /// Removes every planned fault, or those of one operation.
    public func clearFaults(_ target: StoreFaultTarget? = nil) {
        faultPlan.removeAll(target: target?.rawValue)
        log("faults cleared" + (target.map { " for \($0.rawValue)" } ?? ""))
    }

    /// The fault planned for this call of `target`, logged on the timeline when one fires; `only`: the one fault that
    /// can fire on it.
    func fault(for target: StoreFaultTarget, only: String? = nil) -> StoreFault? {
        guard !faultPlan.isEmpty, let rule = faultPlan.draw(for: target.rawValue, only: only, using: &faultRandom),
            let fault = try? StoreFault(rule)
        else { return nil }
        log(
            "fault: \(target.rawValue) \(fault.words(after: target))",
            event: .faultFired(.store, target: target.rawValue))
        return fault
    }
}
