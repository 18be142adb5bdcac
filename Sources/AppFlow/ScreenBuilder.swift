import Foundation
import Subscriptions
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
        let selectable = built.screen.rows.indices.filter { built.screen.rows[$0].isSelectable }
        if selectable.indices.contains(state.selection) { built.screen.selection = selectable[state.selection] }
        return built
    }

    /// The product's title for a product identifier, from the store's answer when there is one.
    static func title(of productId: String, _ state: AppState) -> String {
        state.offers?.first { $0.productId == productId }?.product.localizedTitle ?? productId
    }
}

/// The owner's offer line with the store's words placed into it.
public enum OfferText {
    public static func line(for offer: Offer, paywall: PaywallText) -> String {
        let product = offer.product
        var template = product.freeTrialPeriod != nil ? paywall.offerWithTrial ?? paywall.offer : paywall.offer
        let intro = introTerms(product)
        if !intro.isEmpty, !template.contains("{intro}"), let price = template.range(of: "{price}") {
            template.insert(contentsOf: "{intro}", at: price.lowerBound)
        }
        return
            template
            .replacingOccurrences(of: "{intro}", with: intro)
            .replacingOccurrences(of: "{title}", with: product.localizedTitle)
            .replacingOccurrences(of: "{description}", with: product.localizedDescription)
            .replacingOccurrences(of: "{price}", with: product.localizedPrice)
            .replacingOccurrences(of: "{period}", with: product.subscriptionPeriod?.description ?? "purchase")
            .replacingOccurrences(of: "{trial}", with: product.freeTrialPeriod?.lengthDescription ?? "")
    }

    /// A paid introductory offer in the words of Apple's sheet (`PaymentQueue.terms`), up to "then ":
    /// the paywall and the sheet must name the same price and periods.
    public static func introTerms(_ product: StoreProduct) -> String {
        guard let offer = product.paidIntroductoryOffer else { return "" }
        switch offer.mode {
        case .payAsYouGo:
            let periods =
                offer.numberOfPeriods == 1 ? "" : " for \(offer.numberOfPeriods) \(offer.period.unit.rawValue)s"
            return "\(offer.localizedPrice) per \(offer.period)\(periods), then "
        case .payUpFront:
            return "\(offer.localizedPrice) for \(offer.period.lengthDescription), then "
        }
    }
}

extension AppState {
    /// What the phone shows in this state.
    public var screen: ScreenModel { ScreenBuilder.build(self).screen }
}
