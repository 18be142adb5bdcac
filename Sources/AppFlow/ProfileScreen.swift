import SimKernel
import Subscriptions

extension ScreenBuilder {
    /// The profile: who the reader is, what they hold, the billing banner, and the account actions.
    static func profile(_ state: AppState) -> Built {
        var rows = [Row(.heading, "Profile")]
        switch state.access.identity {
        case .none: rows.append(Row(.text, "Not signed in."))
        case .anonymous: rows.append(Row(.text, "Subscribed on this phone, without an account."))
        case .account(let email): rows.append(Row(.text, "Signed in as \(email)."))
        }
        let levels = state.access.levels.sorted().map(\.rawValue)
        rows.append(Row(.muted, "Access: " + (levels.isEmpty ? "free articles only" : levels.joined(separator: ", "))))
        for subscription in state.subscriptions where subscription.active {
            let date = subscription.expires.map { SimInstant(milliseconds: $0).dateDescription } ?? "never"
            let title = title(of: subscription.productId, state)
            rows.append(
                Row(.text, subscription.autoRenew ? "\(title): renews on \(date)" : "\(title): ends on \(date)"))
            if subscription.billingIssue {
                rows.append(
                    Row(.banner, "Your payment method failed. Update it in the App Store to keep your subscription."))
            }
        }
        if state.isSignedIn && !state.access.unmovedLevels.isEmpty {
            rows.append(Row(.banner, "Your subscription is on this phone, not on your account yet."))
        }
        rows.append(Row(.spacer))
        if state.isSignedIn && !state.access.unmovedLevels.isEmpty {
            rows.append(
                Row(.button, "Move my subscription to my account", choice: .acceptTransfer(.anonymousToAccount)))
        }
        if state.access.isSubscriber {
            rows.append(Row(.button, "Manage my subscription", choice: .manageSubscription))
        }
        rows.append(Row(.button, "Restore purchase", choice: .restore))
        if state.isSignedIn {
            rows.append(Row(.button, "Log out", choice: .logOut))
        } else {
            rows += [
                Row(.button, "Log in", choice: .openLogin(.plain)),
                Row(.button, "Create an account", choice: .openSignup(.plain)),
                Row(.button, "Log out", choice: .logOut),
            ]
        }
        let screen = ScreenModel(
            id: .profile, title: state.app.name, rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "back")])
        return Built(screen: screen)
    }

    /// The products of `productId`'s group the store sells besides it, as the paywall's offers know them.
    static func otherPlans(than productId: String, _ state: AppState) -> [Offer] {
        let offers = state.offers ?? []
        guard let group = offers.first(where: { $0.productId == productId })?.product.subscriptionGroupIdentifier
        else { return [] }
        return offers.filter { $0.productId != productId && $0.product.subscriptionGroupIdentifier == group }
    }

    /// The manage sheet's row for another plan: what `World.perform(.changePlan)` presses.
    static func switchPlanLabel(_ productId: String, _ state: AppState) -> String {
        let price = state.offers?.first { $0.productId == productId }?.product.localizedPrice
        return "Switch to \(title(of: productId, state))" + (price.map { " (\($0))" } ?? "")
    }

    /// The store's subscription management ("Manage my subscription"): the plan, the next renewal,
    /// and auto-renew off or on — Apple's sheet, shown because the subscription was bought on this platform.
    static func manageSubscription(_ state: AppState) -> Built {
        var rows = [Row(.heading, "Manage my subscription")]
        let active = state.subscriptions.filter(\.active)
        for subscription in active {
            let date = subscription.expires.map { SimInstant(milliseconds: $0).dateDescription } ?? "never"
            rows.append(Row(.text, "Plan: \(title(of: subscription.productId, state))"))
            rows.append(Row(.muted, subscription.autoRenew ? "Next renewal: \(date)" : "Ends on \(date), not renewing"))
        }
        rows += [Row(.muted, "Bought with your Apple ID: the App Store manages it."), Row(.spacer)]
        if let first = active.first {
            let label = first.autoRenew ? "Cancel subscription" : "Renew automatically"
            rows.append(Row(.button, label, choice: .setAutoRenew(!first.autoRenew)))
            for offer in otherPlans(than: first.productId, state) {
                // A choice, not a button: a long localized title wraps inside the phone, as on the paywall.
                rows.append(
                    Row(
                        .choice, switchPlanLabel(offer.productId, state),
                        choice: .changePlan(productId: offer.productId)))
            }
        }
        rows.append(Row(.button, "Done", choice: .done))
        let screen = ScreenModel(
            id: .manageSubscription, title: "App Store", rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "back")])
        return Built(screen: screen)
    }
}

extension AppState {
    /// The manage sheet's "Switch to …" row for `productId`, as `World.perform` finds it.
    public func switchPlanLabel(_ productId: String) -> String { ScreenBuilder.switchPlanLabel(productId, self) }
}
