import AppFlow
import StoreSim

/// Invariant 9, the plan's name: what the app gives the reader to read names a plan by the App Store's title, never by
/// its product identifier where the store titles it (seed 000: the app asks the service for the App Store's translated
/// title). Read are the alerts, shown and waiting, and the screens that name plans: the paywall, the profile and the
/// "Manage my subscription" sheet. A parent's approval charged after the Apple ID moved to a storefront that does not
/// sell the plan was told as "charged this Apple ID for com.podcastclub.listener.yearly": the app had the title only
/// from the latest products answer (session 37).
struct ProductNameCheck {
    /// The screens whose rows name plans; the others show the owner's words and the content.
    private static let screensNamingPlans: Set<ScreenID> = [.paywall, .profile, .manageSubscription]
    /// The identifiers judged (`titledIdentifiers`), each with whether its bytes alone tell a text that does not name
    /// it (`plainBytes`): both read the world's config alone, fixed for its life, so they are worked out once, not
    /// after every step.
    private let identifiers: [(id: String, plain: Bool)]
    /// The catalog's product identifiers, for the plans paid for that it no longer holds (`droppedIdentifiers`).
    private let catalog: Set<String>

    init(world: World) {
        identifiers = Self.titledIdentifiers(world).map { ($0, Self.plainBytes($0)) }
        catalog = Set(world.config.store.products.map(\.productId))
    }

    func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        let dropped = droppedIdentifiers(paid: context.paid)
        guard world.isAppRunning, !identifiers.isEmpty || !dropped.isEmpty else { return [] }
        let state = world.appState
        let onScreen = Self.screensNamingPlans.contains(world.screenID)
        guard state.alert != nil || !state.alertsWaiting.isEmpty || onScreen else { return [] }
        let screen = onScreen ? world.screen : nil
        // Each text the reader reads, the alerts' (shown, then waiting) and the screen's rows, read where they are:
        // gathered into one list, every text was copied after every step (a sixth of the check). Where a text stands is
        // put in words only for a finding.
        var found: [InvariantViolation] = []
        for list in [identifiers, dropped] {
            for (id, plain) in list {
                if let alert = state.alert { Self.judge(alert, id, plain, world, into: &found) }
                for alert in state.alertsWaiting { Self.judge(alert, id, plain, world, into: &found) }
                for row in screen?.rows ?? [] where Self.named(id, plain: plain, in: row.text) {
                    found.append(Self.violation(id, row.text, place: "the \(screen?.id.rawValue ?? "") screen", world))
                }
            }
        }
        return found
    }

    /// An alert's title and message, judged in turn.
    private static func judge(
        _ alert: Alert, _ id: String, _ plain: Bool, _ world: World, into found: inout [InvariantViolation]
    ) {
        if named(id, plain: plain, in: alert.title) {
            found.append(violation(id, alert.title, place: "the alert \"\(alert.title)\"", world))
        }
        if named(id, plain: plain, in: alert.message) {
            found.append(violation(id, alert.message, place: "the alert \"\(alert.title)\"", world))
        }
    }

    private static func violation(_ id: String, _ text: String, place: String, _ world: World) -> InvariantViolation {
        InvariantViolation(
            .toldIsTrue,
            "\(place) on \(world.deviceName) names a plan by its identifier \(id), not the App Store's title: \(text)")
    }

    /// The catalog's identifiers a reader would never be shown: a plan titled by its identifier (a `.storekit` display
    /// name left empty) is named so everywhere, and an identifier that is one plain word ("lifetime") may be a word of
    /// the text.
    private static func titledIdentifiers(_ world: World) -> [String] {
        world.config.store.products.compactMap { product in
            let id = product.productId
            guard product.localizations.values.allSatisfy({ $0.title != id }), !plainWord(id) else { return nil }
            return id
        }
    }

    /// Those of the plans the world's Apple IDs pay for that the catalog no longer holds (a kept folder reopened with an
    /// owner's file that dropped one: Apple's sheet read "Plan: com.podcastclub.listener.yearly", session 39).
    private func droppedIdentifiers(paid: [SubscriptionRecord]) -> [(id: String, plain: Bool)] {
        guard paid.contains(where: { !catalog.contains($0.productId) }) else { return [] }
        return Set(paid.map(\.productId)).subtracting(catalog).filter { !Self.plainWord($0) }.sorted().map {
            ($0, Self.plainBytes($0))
        }
    }

    /// An identifier that is one plain word ("lifetime") may be a word of the text.
    private static func plainWord(_ id: String) -> Bool { !id.contains(where: { !$0.isLetter || $0.isUppercase }) }

    /// Whether `id` stands in `text` as a whole word (not inside a longer identifier).
    /// `plain`: `plainBytes(id)`.
    private static func named(_ id: String, plain: Bool, in text: String) -> Bool {
        // Most texts do not hold the identifier at all: said by their bytes, where that is the same answer (Swift's
        // `firstRange` built a table of the text's characters for each search, 39 k instructions, a third of a fuzz run).
        if plain, !holdsBytes(id, in: text) { return false }
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

    /// Whether a run of characters equal to `id`'s is always its very bytes: `id` is ASCII, and none of its characters
    /// is equal to another (Unicode's singletons: U+212A KELVIN SIGN is "K", U+037E GREEK QUESTION MARK ";", U+1FEF
    /// GREEK VARIA "`"; Swift compares characters by canonical equivalence). A text whose bytes do not hold `id`'s then
    /// does not name it.
    private static func plainBytes(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy {
                $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`")
            }
    }

    /// Whether `text`'s UTF-8 holds `id`'s, byte for byte, somewhere.
    private static func holdsBytes(_ id: String, in text: String) -> Bool {
        var id = id
        var text = text
        return id.withUTF8 { pattern in
            text.withUTF8 { bytes in
                guard pattern.count <= bytes.count else { return false }
                let first = pattern[0]
                for start in 0...(bytes.count - pattern.count) where bytes[start] == first {
                    var next = 1
                    while next < pattern.count, bytes[start + next] == pattern[next] { next += 1 }
                    if next == pattern.count { return true }
                }
                return false
            }
        }
    }
}
