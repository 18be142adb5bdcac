import AppFlow
import Simulation
import Subscriptions

/// Checks one expectation against the world; a mismatch says what was expected and what the phone shows.
enum ExpectationCheck {
    static func check(_ expectation: ScenarioExpectation, on world: World) throws(StepFailure) {
        // Killed, the app shows nothing: its last screen, frozen, is not what the reader sees (an alert "seen" after a
        // kill passed, session 26). What the world holds (charges, the timeline, the invariants) is still read.
        if !world.isAppRunning, readsTheApp(expectation) {
            throw StepFailure(
                expected: String(StepText.expectation(expectation).dropFirst("expect ".count)),
                actual: "the app is not running (killed); the next reader step, or foreground, launches it")
        }
        let state = world.appState
        let screen = world.screen
        switch expectation {
        case .screen(let id):
            try match("screen \(id.rawValue)", "screen \(screen.visibleID.rawValue)", screen.visibleID == id)
        case .offers(let ids):
            // An offer the owner never configured is a typo, named as one: "expected offers …, actual offers …" read as
            // a paywall that left it out (session 34).
            let configured = world.config.app.subscriptions.map(\.id)
            if let unknown = ids.first(where: { !configured.contains($0) }) {
                throw StepFailure(
                    expected: "offers \(ids.joined(separator: ", "))",
                    actual: "no offer \(unknown) in this app (its offers: \(configured.joined(separator: ", ")))")
            }
            // The paywall's, as the reader sees them: not every offer the store returned (a subscriber's paywall leaves
            // out the groups held, session 28).
            let offers = state.paywallOffers
            let shown = offers.map { $0.map(\.id).joined(separator: ", ") } ?? "offers still loading"
            try match("offers \(ids.joined(separator: ", "))", "offers \(shown)", offers?.map(\.id) == ids)
        case .levels(let levels):
            // A level no product grants is a typo, named as one: "expected levels storys, actual levels none" read as
            // access missing (session 34).
            let granted = Set(world.config.backend.productLevels.values.joined()).sorted()
            if let unknown = levels.first(where: { !granted.contains($0) }) {
                throw StepFailure(
                    expected: "levels \(list(levels.sorted()))",
                    actual: "no level \(unknown) in this app (levels: \(list(granted)))")
            }
            let actual = state.access.levels.map(\.rawValue).sorted()
            try match("levels \(list(levels.sorted()))", "levels \(list(actual))", Set(levels) == Set(actual))
        case .identity(let expected):
            try match(
                "identity \(describe(expected))", "identity \(describe(state.access.identity))",
                matches(expected, state.access.identity))
        case .content(let id, let unlocked):
            guard let item = state.item(id) else {
                let known = state.app.content.map(\.id).joined(separator: ", ")
                throw StepFailure(expected: "content \(id)", actual: "no content \(id) in this app (content: \(known))")
            }
            // Unlocked as the reader sees it: the levels meet it, and its full version did not fail to load.
            if case .failed(let message) = state.fullContent[id], unlocked {
                throw StepFailure(expected: "content \(id) unlocked", actual: "content \(id): \(message)")
            }
            let open = state.access.unlocks(item.requiredLevels)
            try match("content \(id) \(lock(unlocked))", "content \(id) \(lock(open))", open == unlocked)
        case .ads(let shown):
            try match(
                "ads \(shown ? "shown" : "hidden")", "ads \(state.showsAds ? "shown" : "hidden")",
                state.showsAds == shown)
        case .alert(let text):
            // The alert up, or one told while it was up: the reader reads each in turn.
            let told = (screen.alert.map { [$0] } ?? []) + state.alertsWaiting
            let actual =
                told.isEmpty
                ? "no alert" : told.map { "alert \"\($0.title)\": \($0.message)" }.joined(separator: "; then ")
            try match(
                "alert \"\(text)\"", actual, told.contains { contains($0.title, text) || contains($0.message, text) })
        case .noAlert:
            try match(
                "no alert", screen.alert.map { "alert \"\($0.title)\": \($0.message)" } ?? "no alert",
                screen.alert == nil)
        case .text(let text):
            // Wide enough that no line wraps, so a sentence is found whole.
            let rendered = ScreenRenderer.plainText(screen, width: 1000)
            try match(
                "\"\(text)\" on the screen", "not on \(screen.visibleID.rawValue) (screen below)",
                contains(rendered, text))
        case .noText(let text):
            let rendered = ScreenRenderer.plainText(screen, width: 1000)
            try match(
                "no \"\(text)\" on the screen", "on \(screen.visibleID.rawValue) (screen below)",
                !contains(rendered, text))
        case .charges(let count, let appleId):
            // Every Apple ID of the world unless one is named: a family member's own charge was not counted (session 27).
            let charged = appleId.map { world.charges(appleId: $0) } ?? world.charges
            let whose = appleId.map { " to \($0)" } ?? ""
            try match(
                "\(count) charge\(count == 1 ? "" : "s")\(whose)",
                "\(charged) charge\(charged == 1 ? "" : "s")\(whose)", charged == count)
        case .pendingPayment:
            try match(
                "a payment waiting for a parent or an action outside the app", "no pending payment",
                !world.pendingPayments.isEmpty)
        case .invariants, .nothingLost:
            break  // `ScenarioRun` checks these: they need the whole run, or change the world.
        case .timeline(let text):
            try match(
                "\"\(text)\" on the timeline", "no timeline line contains it (the last lines are below)",
                world.timeline.entries.contains { contains($0.description, text) })
        case .timelineOnce(let text):
            let lines = world.timeline.entries.filter { contains($0.description, text) }
            try match(
                "\"\(text)\" on one timeline line",
                lines.isEmpty
                    ? "no timeline line contains it (the last lines are below)"
                    : "\(lines.count) lines contain it: \(lines.map(\.description).joined(separator: " / "))",
                lines.count == 1)
        }
    }

    /// Whether `text` holds `part`, a no-break space (U+00A0) or a narrow one (U+202F) on either side read as a space:
    /// a price as fr_FR writes it, "4,99 €", could not be typed as seen (session 27).
    static func contains(_ text: String, _ part: String) -> Bool {
        spacesPlain(text).contains(spacesPlain(part))
    }

    private static func spacesPlain(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\u{A0}" || $0 == "\u{202F}" }) else { return text }
        return String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{A0}" || $0 == "\u{202F}" ? " " : $0 }))
    }

    private static func match(_ expected: String, _ actual: String, _ holds: Bool) throws(StepFailure) {
        if !holds { throw StepFailure(expected: expected, actual: actual) }
    }

    private static func list(_ levels: [String]) -> String { levels.isEmpty ? "none" : levels.joined(separator: ", ") }

    private static func lock(_ unlocked: Bool) -> String { unlocked ? "unlocked" : "locked" }

    private static func describe(_ identity: IdentityExpectation) -> String {
        switch identity {
        case .none: "none"
        case .anonymous: "anonymous"
        case .account(let email): "account \(email)"
        }
    }

    private static func describe(_ identity: AccessSnapshot.Identity) -> String {
        switch identity {
        case .none: "none"
        case .anonymous(let id): "anonymous (\(id))"
        case .account(let email): "account \(email)"
        }
    }

    private static func matches(_ expected: IdentityExpectation, _ actual: AccessSnapshot.Identity) -> Bool {
        switch (expected, actual) {
        case (.none, .none), (.anonymous, .anonymous): true
        case (.account(let email), .account(let actual)): email.lowercased() == actual.lowercased()
        default: false
        }
    }

    /// Whether `expectation` reads the app on screen rather than the world around it.
    private static func readsTheApp(_ expectation: ScenarioExpectation) -> Bool {
        switch expectation {
        case .screen, .offers, .levels, .identity, .content, .ads, .alert, .noAlert, .text, .noText: true
        default: false
        }
    }
}
