import Foundation
import Subscriptions
import WhiteLabel

/// The app's view function: the screen for a state, and what each selectable row does.
enum ScreenBuilder {
    struct Built {
        var screen: ScreenModel
        var choices: [Choice]
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
            }
        }
        built.screen.alert = state.alert
        let selectable = built.screen.rows.indices.filter { built.screen.rows[$0].isSelectable }
        if selectable.indices.contains(state.selection) { built.screen.selection = selectable[state.selection] }
        return built
    }

    private static func feed(_ state: AppState) -> Built {
        var rows: [Row] = []
        var choices: [Choice] = []
        if let tagline = state.app.tagline { rows += [Row(.muted, tagline), Row(.spacer)] }
        for (index, item) in state.app.content.enumerated() {
            let open = state.access.unlocks(item.requiredLevels)
            rows.append(Row(.choice, item.title, badge: item.requiredLevels.isEmpty ? nil : open ? .unlocked : .locked))
            choices.append(.openContent(id: item.id))
            if state.showsAds && index == 1 { rows.append(Row(.ad, "Fresh coffee delivered to your door")) }
        }
        if state.showsAds && state.app.content.count < 2 {
            rows.append(Row(.ad, "Fresh coffee delivered to your door"))
        }
        let screen = ScreenModel(
            id: .feed, title: state.app.name, rows: rows, keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "open")])
        return Built(screen: screen, choices: choices)
    }

    private static func content(_ id: String, _ state: AppState) -> Built {
        guard let item = state.item(id) else {
            return Built(screen: ScreenModel(id: .content, title: "Not found", rows: []), choices: [])
        }
        var rows = [Row(.heading, item.title), Row(.spacer)]
        var choices: [Choice] = []
        var waiting: String?
        var keys = [KeyHint("Esc", "back")]
        if !state.access.unlocks(item.requiredLevels) {
            rows += [
                Row(.text, item.preview), Row(.spacer), Row(.muted, "Subscribe to read the full article."),
                Row(.button, "Subscribe"),
            ]
            choices.append(.openPaywall(fromContent: id))
            keys.insert(KeyHint("Enter", "subscribe"), at: 0)
        } else if item.requiredLevels.isEmpty {
            rows.append(Row(.text, item.preview))
        } else {
            switch state.fullContent[id] {
            case .loaded(let body): rows.append(Row(.text, body))
            case .failed(let message): rows += [Row(.text, item.preview), Row(.muted, message)]
            case .loading, nil: waiting = "Loading the full article"
            }
        }
        let screen = ScreenModel(id: .content, title: state.app.name, rows: rows, waiting: waiting, keys: keys)
        return Built(screen: screen, choices: choices)
    }

    private static func paywall(_ contentId: String?, _ state: AppState) -> Built {
        let text = state.app.paywall
        var rows = [Row(.heading, text.title), Row(.text, text.body), Row(.spacer)]
        var choices: [Choice] = []
        var waiting: String?
        if let offers = state.offers {
            for offer in offers {
                rows.append(Row(.choice, OfferText.line(for: offer, paywall: text)))
                choices.append(.buy(offerId: offer.id))
            }
            if offers.isEmpty { rows.append(Row(.muted, "No subscription can be bought right now.")) }
        } else {
            waiting = "Loading offers from the App Store"
        }
        switch state.purchase?.stage {
        case .waitingForStore: waiting = "Waiting for the App Store"
        case .checkingWithServer: waiting = "Checking your purchase with the server"
        case nil: break
        }
        let screen = ScreenModel(
            id: .paywall, title: "Subscribe", rows: rows, waiting: waiting,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "buy"), KeyHint("Esc", "back")])
        return Built(screen: screen, choices: choices)
    }

    private static func paymentSheet(_ sheet: PaymentSheetInfo) -> Built {
        let rows = [
            Row(.heading, sheet.productTitle), Row(.text, sheet.price), Row(.spacer),
            Row(.muted, "Apple ID: \(sheet.appleId)"), Row(.muted, sheet.terms), Row(.spacer),
            Row(.button, "Subscribe"), Row(.button, "Cancel"),
        ]
        let screen = ScreenModel(
            id: .appStoreSheet, title: "App Store", rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "cancel")])
        return Built(screen: screen, choices: [.confirmPayment, .cancelPayment])
    }
}

/// The owner's offer line with the store's words placed into it.
public enum OfferText {
    public static func line(for offer: Offer, paywall: PaywallText) -> String {
        let product = offer.product
        let template = product.freeTrialPeriod != nil ? paywall.offerWithTrial ?? paywall.offer : paywall.offer
        return
            template
            .replacingOccurrences(of: "{title}", with: product.localizedTitle)
            .replacingOccurrences(of: "{description}", with: product.localizedDescription)
            .replacingOccurrences(of: "{price}", with: product.localizedPrice)
            .replacingOccurrences(of: "{period}", with: product.subscriptionPeriod?.description ?? "purchase")
            .replacingOccurrences(of: "{trial}", with: product.freeTrialPeriod?.lengthDescription ?? "")
    }
}

extension AppState {
    /// What the phone shows in this state.
    public var screen: ScreenModel { ScreenBuilder.build(self).screen }
}
