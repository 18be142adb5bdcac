import AppFlow
import StoreSim

/// Invariant 9, the plan's name: what the app gives the reader to read names a plan by the App Store's title, never by
/// its product identifier where the store titles it (seed 000: the app asks the service for the App Store's translated
/// title). Read are the alerts, shown and waiting, and the screens that name plans: the paywall, the profile and the
/// "Manage my subscription" sheet. A parent's approval charged after the Apple ID moved to a storefront that does not
/// sell the plan was told as "charged this Apple ID for com.podcastclub.listener.yearly": the app had the title only
/// from the latest products answer (session 37).
enum ProductNameCheck {
    /// The screens whose rows name plans; the others show the owner's words and the content.
    private static let screensNamingPlans: Set<ScreenID> = [.paywall, .profile, .manageSubscription]

    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard world.isAppRunning else { return [] }
        let state = world.appState
        let alerts = [state.alert].compactMap { $0 } + state.alertsWaiting
        let onScreen = screensNamingPlans.contains(world.screenID)
        guard !alerts.isEmpty || onScreen else { return [] }
        let identifiers = titledIdentifiers(world, paid: context.paid)
        guard !identifiers.isEmpty else { return [] }
        // Each text the reader reads, with where it stands.
        var read = alerts.flatMap { alert in [alert.title, alert.message].map { ("the alert \"\(alert.title)\"", $0) } }
        if onScreen {
            let screen = world.screen
            read += screen.rows.map { ("the \(screen.id.rawValue) screen", $0.text) }
        }
        var found: [InvariantViolation] = []
        for id in identifiers {
            for (place, text) in read where named(id, in: text) {
                found.append(
                    InvariantViolation(
                        .toldIsTrue,
                        "\(place) on \(world.deviceName) names a plan by its identifier \(id), not the App Store's "
                            + "title: \(text)"))
            }
        }
        return found
    }

    /// The catalog's identifiers a reader would never be shown: a plan titled by its identifier (a `.storekit` display
    /// name left empty) is named so everywhere, and an identifier that is one plain word ("lifetime") may be a word of
    /// the text. And those of the plans the world's Apple IDs pay for that the catalog no longer holds (a kept folder
    /// reopened with an owner's file that dropped one: Apple's sheet read "Plan: com.podcastclub.listener.yearly",
    /// session 39).
    private static func titledIdentifiers(_ world: World, paid: [SubscriptionRecord]) -> [String] {
        let plainWord = { (id: String) -> Bool in !id.contains(where: { !$0.isLetter || $0.isUppercase }) }
        let catalog = world.config.store.products.compactMap { product -> String? in
            let id = product.productId
            guard product.localizations.values.allSatisfy({ $0.title != id }), !plainWord(id) else { return nil }
            return id
        }
        let dropped = Set(paid.map(\.productId)).subtracting(world.config.store.products.map(\.productId))
        return catalog + dropped.filter { !plainWord($0) }.sorted()
    }

    /// Whether `id` stands in `text` as a whole word (not inside a longer identifier).
    private static func named(_ id: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.firstRange(of: id) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let part: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || "._-".contains($0) } ?? false }
            // A full stop ends the sentence, not the identifier, when a space or the end follows it.
            let after = text[range.upperBound...].prefix(2)
            let ends = after.isEmpty || !part(after.first) || (after == "." || after.hasPrefix(". "))
            if !part(before) && ends { return true }
            rest = text[range.upperBound...]
        }
        return false
    }
}
