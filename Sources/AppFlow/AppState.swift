import Subscriptions
import WhiteLabel

/// Everything the app's screens show, and nothing the store or backend own.
public struct AppState: Equatable, Sendable {
    /// A place in the app's navigation.
    public enum Route: Equatable, Sendable {
        case feed
        case content(id: String)
        /// The paywall, opened from a piece of content (or from nowhere).
        case paywall(fromContent: String?)
    }

    /// The full version of a piece of content, as far as it has come.
    public enum FullContent: Equatable, Sendable {
        case loading
        case loaded(String)
        case failed(String)
    }

    public let app: AppPart
    /// The navigation stack; the last route is on screen. Never empty.
    public var stack: [Route] = [.feed]
    /// The highlighted choice of each route in `stack`.
    public var selections: [Int] = [0]
    /// nil until the store has answered.
    public var offers: [Offer]?
    public var access = AccessSnapshot.unknown
    /// The offer being bought, and how far it has come.
    public var purchase: (offerId: String, stage: PurchaseStage)?
    /// Apple's sheet, while the system shows it over the app.
    public var paymentSheet: PaymentSheetInfo?
    public var alert: Alert?
    public var fullContent: [String: FullContent] = [:]

    public init(app: AppPart) {
        self.app = app
    }

    public var route: Route { stack[stack.count - 1] }
    public var selection: Int {
        get { selections[selections.count - 1] }
        set { selections[selections.count - 1] = newValue }
    }

    public func item(_ id: String) -> ContentItem? { app.content.first { $0.id == id } }

    /// Ads show unless the owner hides them for subscribers and this reader is one.
    public var showsAds: Bool { app.ads.enabled && !(app.ads.hideForSubscribers && access.isSubscriber) }

    public static func == (lhs: AppState, rhs: AppState) -> Bool {
        lhs.app == rhs.app && lhs.stack == rhs.stack && lhs.selections == rhs.selections && lhs.offers == rhs.offers
            && lhs.access == rhs.access && lhs.purchase?.offerId == rhs.purchase?.offerId
            && lhs.purchase?.stage == rhs.purchase?.stage && lhs.paymentSheet == rhs.paymentSheet
            && lhs.alert == rhs.alert && lhs.fullContent == rhs.fullContent
    }
}

/// Apple's payment sheet as the app's screen shows it; the system, not the app, owns it.
public struct PaymentSheetInfo: Equatable, Sendable {
    public let appleId: String
    public let productTitle: String
    public let price: String
    public let terms: String

    public init(appleId: String, productTitle: String, price: String, terms: String) {
        self.appleId = appleId
        self.productTitle = productTitle
        self.price = price
        self.terms = terms
    }
}
