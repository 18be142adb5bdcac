import AppFlow

/// Invariant 9, the plan's name: an alert names a plan by the App Store's title, never by its product identifier where
/// the store titles it (seed 000: the app asks the service for the App Store's translated title). A parent's approval
/// charged after the Apple ID moved to a storefront that does not sell the plan was told as "charged this Apple ID for
/// com.podcastclub.listener.yearly": the app had the title only from the latest products answer (session 37).
enum ProductNameCheck {
    static func violations(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        guard world.isAppRunning else { return [] }
        let state = world.appState
        let shown = [state.alert].compactMap { $0 } + state.alertsWaiting
        guard !shown.isEmpty else { return [] }
        var found: [InvariantViolation] = []
        for product in world.config.store.products {
            let id = product.productId
            // A plan titled by its identifier (a `.storekit` display name left empty) is named so everywhere; an
            // identifier that is one plain word ("lifetime") may be a word of the text.
            guard product.localizations.values.allSatisfy({ $0.title != id }),
                id.contains(where: { !$0.isLetter || $0.isUppercase })
            else { continue }
            for alert in shown where named(id, in: alert.title) || named(id, in: alert.message) {
                found.append(
                    InvariantViolation(
                        .toldIsTrue,
                        "the alert \"\(alert.title)\" names a plan by its identifier \(id), not the App Store's title: "
                            + alert.message))
            }
        }
        return found
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
