import FoundationEssentials
import Subscriptions
import Synchronization
import WhiteLabel

/// The app's view function: the screen for a state, and what each selectable row does.
/// Each screen is built in its own file (`FeedScreen`, `PaywallScreen`, …).
enum ScreenBuilder {
    struct Built {
        var screen: ScreenModel
        /// Each selectable row's choice, in order: the rows carry them.
        var choices: [Choice] { screen.choices }
    }

    static func build(_ state: AppState) -> Built {
        var built: Built
        if let sheet = state.paymentSheet {
            built = paymentSheet(sheet)
        } else {
            switch state.route {
            case .feed: built = feed(state)
            case .content(let id): built = content(id, state)
            case .paywall(let contentId): built = paywall(contentId, state)
            case .profile: built = profile(state)
            case .login(let purpose): built = login(purpose, state)
            case .signup(let purpose): built = signup(purpose, state)
            case .transferPrompt(let prompt): built = transferPrompt(prompt)
            case .accountRequired: built = accountRequired(state)
            case .manageSubscription: built = manageSubscription(state)
            case .parentalGate: built = parentalGate(state)
            }
        }
        if let operation = state.operation { built.screen.waiting = operation }
        if state.pendingSubscribe != nil { built.screen.waiting = "Checking your subscription" }
        built.screen.alert = state.alert
        // An alert takes the keys: the bar and the help say its own, not the screen's under it (session 26: "Enter
        // choose" over a failed check read as a second purchase).
        if state.alert != nil { built.screen.keys = Alert.keys }
        built.screen.highlight(state)
        return built
    }

    /// The product's title for a product identifier, from the store's answer when there is one: the paywall's, or
    /// the one asked for a listed plan the paywall does not sell.
    static func title(of productId: String, _ state: AppState) -> String {
        knownTitle(of: productId, state) ?? productId
    }

    /// The store's title, or the words `unknown` where no answer of this launch gave one: what the reader reads is never
    /// a product identifier (invariant 9, `ProductNameCheck`).
    static func title(of productId: String, _ state: AppState, unknown: String) -> String {
        knownTitle(of: productId, state) ?? unknown
    }

    /// The store's title, when any answer of this launch gave it (nil: no products answer reached the app).
    static func knownTitle(of productId: String, _ state: AppState) -> String? {
        if state.namesPlansByIdentifier { return productId }
        return state.offers?.first { $0.productId == productId }?.product.localizedTitle
            ?? state.subscriptionList?.titles[productId] ?? state.phoneSubscriptionList?.titles[productId]
            ?? state.productTitles[productId]
    }
}

extension ScreenModel {
    /// Highlights the row `state`'s selection names among these rows' selectable ones: what a screen is built ending
    /// with, and all a move of the highlight changes, so a screen kept from before the move is highlighted again rather
    /// than built anew (`Device`).
    public mutating func highlight(_ state: AppState) {
        let selectable = rows.indices.filter { rows[$0].isSelectable }
        selection = state.highlighted(among: selectable.count).map { selectable[$0] }
    }
}

extension AppState {
    /// What the phone shows in this state.
    public var screen: ScreenModel { ScreenBuilder.build(self).screen }

    /// `screen.id` without building the screen: Apple's sheet over any route, else the route's own (each of
    /// `ScreenBuilder`'s screens has its route's identifier). The checks after each step and the fuzzer ask which
    /// screen is up far more often than they read its rows; building it to answer was a fifteenth of a fuzz step.
    public var screenID: ScreenID {
        if self.paymentSheet != nil { return .appStoreSheet }
        switch route {
        case .feed: return .feed
        case .content: return .content
        case .paywall: return .paywall
        case .profile: return .profile
        case .login: return .login
        case .signup: return .signup
        case .transferPrompt: return .transferPrompt
        case .accountRequired: return .accountRequired
        case .manageSubscription: return .manageSubscription
        case .parentalGate: return .parentalGate
        }
    }

    /// `screen.choices` where they are known without building the rows: the feed's and the paywall's, with no sheet of
    /// Apple's over them (the choices are the rows', whatever alert or wait is shown over them). Nil elsewhere: build
    /// the screen.
    public var choicesWithoutRows: [Choice]? {
        guard self.paymentSheet == nil else { return nil }
        switch route {
        case .feed: return ScreenBuilder.feedChoices(self)
        case .paywall: return ScreenBuilder.paywallChoices(self)
        default: return nil
        }
    }

    /// `screen.visibleID` without building the screen: `alert` while an alert is up.
    public var visibleScreenID: ScreenID { self.alert == nil ? screenID : .alert }
}

/// Offer lines already made, by their parts: the paywall is built several times a step, and Foundation's
/// `replacingOccurrences` filling its lines was a seventh of a fuzz step. A handful per catalog and language.
final class OfferLines: Sendable {
    static let shared = OfferLines()
    private let lines = Mutex<[OfferText.Parts: String]>([:])

    func line(for parts: OfferText.Parts) -> String {
        if let known = lines.withLock({ $0[parts] }) { return known }
        let line = parts.line
        lines.withLock { lines in
            if lines.count >= 4_096 { lines.removeAll() }  // bounded, whatever a long run shows
            lines[parts] = line
        }
        return line
    }
}
