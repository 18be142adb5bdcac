import SimKernel

/// What the App Store does with the reader's next purchase: a one-shot `payment` fault, or nothing (`ok`).
public enum NextPurchase: String, Equatable, Sendable, CaseIterable {
    case ok
    case fails
    case cancelled
    case deferred
    case interrupted

    /// The `payment` fault that makes this outcome; nil for `ok`.
    /// `paymentInvalid` reads as a plain failure to the reader, with no code.
    var fault: FaultRule? {
        switch self {
        case .ok: nil
        case .fails: FaultRule(target: "payment", fault: "error", argument: "paymentInvalid")
        case .cancelled, .deferred, .interrupted: FaultRule(target: "payment", fault: rawValue)
        }
    }

    /// The outcome a planned `payment` rule produces (a timeout fails the purchase too).
    init(plannedFault rule: FaultRule) {
        switch rule.fault {
        case "cancelled": self = .cancelled
        case "deferred": self = .deferred
        case "interrupted": self = .interrupted
        default: self = .fails
        }
    }

    /// The next outcome in the order the control pane's Enter cycles them.
    public var next: NextPurchase {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
