import SimKernel

/// What one launch of the app heard from the store, kept on the phone: when it began observing, and the charges
/// delivered to it. A kill between Apple's charge and its delivery (a switch "starting now" on Apple's manage sheet)
/// leaves the charge unfinished; StoreKit delivers it again at the next launch, which took it for Apple's record
/// delivered again and told nothing (fuzz seed 4188). Charged since the last launch began, and heard by none, it is
/// news.
public struct HeardCharges: Codable, Equatable, Sendable {
    public var began: SimInstant
    public var transactionIds: [String] = []

    public init(began: SimInstant) {
        self.began = began
    }

    /// Whether a transaction delivered again is a charge made since this launch began that it never heard of.
    func missed(_ transactionId: String, chargedAt: SimInstant) -> Bool {
        chargedAt >= began && !transactionIds.contains(transactionId)
    }
}
