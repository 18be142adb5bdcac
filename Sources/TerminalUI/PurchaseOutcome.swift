import SimKernel

/// What the App Store does with the reader's next purchase: a one-shot `payment` fault, or nothing (`ok`).
public enum PurchaseOutcome: String, Equatable, Sendable, CaseIterable {
    case ok
    case fails
    case cancelled
    case deferred
    case interrupted

    /// The `payment` fault that makes this outcome; nil for `ok`.
    /// `paymentInvalid` reads as a plain failure to the reader, with no code.
    var fault: String? {
        switch self {
        case .ok: nil
        case .fails: "error:paymentInvalid"
        case .cancelled, .deferred, .interrupted: rawValue
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

    /// The next outcome in the order Enter cycles them.
    var next: PurchaseOutcome {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
