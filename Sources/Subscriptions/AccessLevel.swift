import SimKernel

/// An access level the backend grants ("premium"). The phone learns levels only from backend answers.
public struct AccessLevel: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// Who the reader is to the backend, and what they hold. Every screen reads this, and only this.
public struct AccessSnapshot: Equatable, Sendable {
    public enum Identity: Equatable, Sendable {
        case none
        case anonymous(id: String)
        case account(email: String)

        var isAccount: Bool { if case .account = self { true } else { false } }
    }

    public var identity: Identity
    public var levels: Set<AccessLevel>
    /// Signed in: the levels of the phone's own anonymous subscription, not yet moved to the account
    /// (counted in `levels`, and offered to move again on the profile).
    public var unmovedLevels: Set<AccessLevel> = []
    /// Signed in: until when the server refuses to move those to the account, the subscription having moved 3 times
    /// in 30 days (the move limit); nil when it would move them. The app offers no move until then.
    public var moveRefusedUntil: SimInstant?
    /// The anonymous identity the phone holds now, the reader or kept beside the account; nil when it holds none (a
    /// guest moved to an account is forgotten). The phone's own subscription list is this guest's alone (long 2413).
    public var phoneGuest: String?
    /// False until the stored identity has been read at launch: no paywall before then.
    public var isKnown: Bool

    public init(identity: Identity, levels: Set<AccessLevel>, isKnown: Bool) {
        self.identity = identity
        self.levels = levels
        self.isKnown = isKnown
    }

    public static let unknown = AccessSnapshot(identity: .none, levels: [], isKnown: false)

    public var isSubscriber: Bool { !levels.isEmpty }

    /// `phoneGuest` as the identity a list names.
    public var phoneGuestIdentity: Identity? { phoneGuest.map { .anonymous(id: $0) } }

    /// Whether content requiring any of `required` is open to this reader.
    public func unlocks(_ required: [String]) -> Bool {
        required.isEmpty || required.contains { levels.contains(AccessLevel($0)) }
    }
}
