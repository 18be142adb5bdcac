/// An anonymous identity: the backend's token and the levels it holds, kept on the phone so
/// access survives a restart before the reader has an account.
public struct AnonymousIdentity: Codable, Equatable, Sendable {
    public var id: String
    public var token: String
    public var levels: [AccessLevel]
    /// Until when the server said the levels hold at the least, its milliseconds (`LevelsEnd`); nil when unsaid.
    public var levelsUntil: Int64?
    /// Until when the server said a move of its purchases to an account would be refused for the move limit, its
    /// milliseconds; nil when it would be made, or unsaid.
    public var transferRefusedUntil: Int64?

    public init(id: String, token: String, levels: [AccessLevel]) {
        self.id = id
        self.token = token
        self.levels = levels
    }
}

/// A signed-in account on the phone: its tokens and the levels the backend last said it holds.
public struct AccountSession: Codable, Equatable, Sendable {
    public var identityId: String
    public var email: String
    public var token: String
    public var refreshToken: String
    public var levels: [AccessLevel]
    /// Until when the server said the levels hold at the least, its milliseconds (`LevelsEnd`); nil when unsaid.
    public var levelsUntil: Int64?
    /// Set on this account's payments (`applicationUsername`); nil in a session saved before it existed.
    public var appAccountToken: String?

    public init(identityId: String, email: String, token: String, refreshToken: String, levels: [AccessLevel]) {
        self.identityId = identityId
        self.email = email
        self.token = token
        self.refreshToken = refreshToken
        self.levels = levels
    }
}

/// The phone's own storage for the subscription service.
public protocol DeviceStorage: AnyObject {
    var anonymousIdentity: AnonymousIdentity? { get set }
    var accountSession: AccountSession? { get set }
    /// Receipts sent to the server (or fetched to be sent) whose answer this app has not heard yet. Kept on disk: a
    /// kill or a restart loses the answer, and the next launch sends the receipt again (`resendUnansweredReceipt`).
    var unansweredReceipts: Int { get set }
    /// The payments those receipts were sent for, kept on disk too: the receipt sent again tells the reader how each
    /// ended (`UnansweredPayment`).
    var unansweredPayments: [UnansweredPayment] { get set }
    /// When the app's latest launch began observing the store, and the charges it heard of: the next launch tells a
    /// charge Apple delivers again that it never heard (`HeardCharges`).
    var heardCharges: HeardCharges? { get set }
    /// The full version of content kept for `level`, if any.
    func cachedContent(_ contentId: String, level: AccessLevel) -> String?
    func cacheContent(_ contentId: String, level: AccessLevel, body: String)
    /// Deletes everything kept for a level the reader no longer holds.
    func purgeContent(level: AccessLevel)
    /// The levels with something cached, for checks.
    var cachedLevels: Set<AccessLevel> { get }
}

/// Storage that lives as long as the object: tests and `--ephemeral`.
public final class InMemoryDeviceStorage: DeviceStorage {
    public var anonymousIdentity: AnonymousIdentity?
    public var accountSession: AccountSession?
    public var unansweredReceipts = 0
    public var unansweredPayments: [UnansweredPayment] = []
    public var heardCharges: HeardCharges?
    private var content: [AccessLevel: [String: String]] = [:]

    public init() {}

    public func cachedContent(_ contentId: String, level: AccessLevel) -> String? { content[level]?[contentId] }
    public func cacheContent(_ contentId: String, level: AccessLevel, body: String) {
        content[level, default: [:]][contentId] = body
    }
    public func purgeContent(level: AccessLevel) { content[level] = nil }
    public var cachedLevels: Set<AccessLevel> { Set(content.keys) }
}
