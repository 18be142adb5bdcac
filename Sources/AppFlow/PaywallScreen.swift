extension ScreenBuilder {
    /// The paywall: the owner's text, the offers the store returned in the owner's order, Restore.
    static func paywall(_ contentId: String?, _ state: AppState) -> Built {
        let text = state.paywallText
        var rows = [Row(.heading, text.title), Row(.text, text.body), Row(.spacer)]
        var waiting: String?
        if let offers = state.paywallOffers {
            for offer in offers {
                rows.append(Row(.choice, OfferText.line(for: offer, paywall: text), choice: .buy(offerId: offer.id)))
            }
            if offers.isEmpty { rows.append(Row(.muted, "No subscription can be bought right now.")) }
        } else {
            waiting = "Loading offers from the App Store"
        }
        rows += [Row(.spacer), Row(.button, text.restore ?? "Restore purchase", choice: .restore)]
        if !state.isSignedIn { rows.append(Row(.button, text.logIn ?? "Log in", choice: .openLogin(.plain))) }
        switch state.purchase?.stage {
        case .waitingForStore: waiting = "Waiting for the App Store"
        case .checkingWithServer: waiting = "Checking your purchase with the server"
        case .checkingEarlierPayment: waiting = "Checking your payment with the server"
        case nil: break
        }
        let screen = ScreenModel(
            id: .paywall, title: AppWords.subscribeHeader(state.locale), rows: rows, waiting: waiting,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "back")])
        return Built(screen: screen)
    }

    /// The paywall's choices, as `paywall` lays out its rows: each offer shown, Restore, and Log in for a reader not
    /// signed in. Made without the rows' texts (an offer's line is most of a paywall's build), for the highlight kept
    /// after each event (`AppState.choicesWithoutRows`).
    static func paywallChoices(_ state: AppState) -> [Choice] {
        var choices = (state.paywallOffers ?? []).map { Choice.buy(offerId: $0.id) }
        choices.append(.restore)
        if !state.isSignedIn { choices.append(.openLogin(.plain)) }
        return choices
    }

    /// Apple's payment sheet, over whatever the app shows.
    static func paymentSheet(_ sheet: PaymentSheetInfo) -> Built {
        let rows = [
            Row(.heading, sheet.productTitle),
            Row(.text, sheet.price), Row(.spacer), Row(.muted, sheet.appleIdLine ?? "Apple ID: \(sheet.appleId)"),
            Row(.muted, sheet.terms),
            Row(.spacer),
            Row(.button, sheet.confirmLabel ?? (sheet.isPriceConsent ? "Agree" : "Subscribe"), choice: .confirmPayment),
            Row(.button, sheet.cancelLabel ?? (sheet.isPriceConsent ? "Not now" : "Cancel"), choice: .cancelPayment),
        ]
        let screen = ScreenModel(
            id: .appStoreSheet, title: "App Store", rows: rows,
            keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "choose"), KeyHint("Esc", "cancel")])
        return Built(screen: screen)
    }
}
