import AppFlow
import Foundation
import Simulation
import Testing
import WhiteLabel

/// Drives a world as a reader does: by the words on the screen, never by row numbers.
extension World {
    /// Highlights the selectable row whose text contains `text` and presses Enter; runs until idle.
    func choose(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard highlight(text, sourceLocation: sourceLocation) else { return }
        send(.select)
        scheduler.runUntilIdle()
    }

    /// Moves the highlight to the selectable row whose text contains `text` (the World's `highlightChoice`).
    @discardableResult
    func highlight(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            try highlightChoice(text)
            return true
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return false
        }
    }

    /// Goes back to the feed.
    func backToFeed() {
        while screen.id != .feed && screen.alert == nil && appState.stack.count > 1 { send(.back) }
    }

    /// Types into the highlighted field.
    func type(_ text: String) {
        for character in text { send(.character(character)) }
    }

    /// Dismisses the alert on screen and returns its message.
    @discardableResult
    func dismissAlert() -> String? {
        let message = screen.alert?.message
        send(.select)
        return message
    }

    /// Launches and waits for the store's answer.
    func launchAndSettle() {
        launch()
        scheduler.runUntilIdle()
    }

    /// From the feed: the first locked article, its paywall, an offer, and Subscribe on Apple's sheet.
    func buyFromFeed(offer: String = "Premium Monthly") {
        backToFeed()
        choose("The return of the night trains")
        choose("Subscribe")
        choose(offer)
        choose("Subscribe")
    }

    /// As a scenario says it: open paywall, select offer `offerId`, confirm payment, each run until idle.
    func subscribe(to offerId: String = "premium-monthly") throws {
        try perform(.openPaywall)
        try perform(.selectOffer(offerId))
        scheduler.runUntilIdle()
        try perform(.confirmPayment)
        scheduler.runUntilIdle()
    }

    /// Opens the profile from the feed, or from wherever Esc leads back to the feed.
    func openProfile() {
        backToFeed()
        choose("Profile")
    }

    func signUp(_ email: String, _ password: String = "correct horse") {
        choose("Create an account")
        type(email)
        send(.select)
        type(password)
        choose("Create account")
    }

    func logIn(_ email: String, _ password: String = "correct horse") {
        choose("Log in")
        type(email)
        send(.select)
        type(password)
        choose("Log in")
    }

    var isUnlocked: Bool { appState.access.unlocks(["premium"]) }
}

/// A world of the bundled news app, in memory, with fast latency.
func newsWorld(seed: UInt64 = 5, edit: (inout WhiteLabel.DemoConfig) -> Void = { _ in }) throws -> World {
    var config = try TestSupport.demoConfig()
    edit(&config)
    return try World(config: config, options: WorldOptions(seed: seed, latency: .fast))
}
