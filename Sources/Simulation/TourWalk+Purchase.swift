import AppFlow
import WhiteLabel

/// The tour from the feed to the unlocked content: everything before and during the purchase.
extension TourWalk {
    /// The first piece of content the reader cannot read yet, which the tour buys.
    var lockedItem: ContentItem? { config.app.content.first { !$0.requiredLevels.isEmpty } }

    func feed() {
        world.launch()
        settle()
        keep("The feed: free and locked content\(config.app.ads.enabled ? ", with ads for non-subscribers" : "")")
    }

    /// Opens the first locked item; false when the app has none, so there is nothing to sell.
    func lockedContent() -> Bool {
        guard let item = lockedItem, choose(item.title) else { return false }
        keep("Locked content: its free preview and a way to subscribe")
        return true
    }

    func paywall() {
        choose("Subscribe")
        keep("The paywall: the owner's text and the offers the store returned, in the owner's order")
    }

    /// Kids apps only: a wrong answer is refused, then the right one opens Apple's sheet.
    func parentalGate() {
        guard config.app.kids else { return }
        world.send(.select)  // the first offer, highlighted
        settle()
        guard world.screen.id == .parentalGate else { return }
        keep("The parental gate: a question a child cannot answer at a glance")
        type("42")
        choose("Continue")
        keep("A wrong answer is refused, and the next question is a different one")
        dismissAlert()
        highlight("Answer")
        type(answer(to: world.screen))
        keep("The right answer, typed by a grown-up")
        choose("Continue")
    }

    /// The answer to the gate's multiplication, read from the question on screen.
    func answer(to screen: ScreenModel) -> String {
        screen.rows.lazy.compactMap { ParentalGate.answer(to: $0.text) }.first ?? ""
    }

    /// Apple's sheet, then Ask to Buy in kids apps or the wait for the server elsewhere.
    func payment() {
        if world.screen.id == .paywall {
            world.send(.select)  // the first offer, highlighted
            settle()
        }
        guard world.screen.id == .appStoreSheet else { return }
        keep("Apple's payment sheet: Apple ID, product, price and renewal terms")
        if config.app.kids { askAParent() } else { waitForTheServer() }
    }

    private func confirmOnSheet() {
        highlight(doing: .confirmPayment)
        world.send(.select)
    }

    /// Stops on the one moment the app has Apple's "purchased" but not yet the server's answer.
    private func waitForTheServer() {
        confirmOnSheet()
        if step(until: { $0.waiting?.contains("server") == true }) {
            keep("Paid: the app waits for the server before anything unlocks")
        }
        settle()
    }

    /// Kids apps are demoed with Ask to Buy on: the payment waits for a parent, who approves it
    /// later from their own phone while the child is back on the feed.
    private func askAParent() {
        world.askToBuy = true
        confirmOnSheet()
        settle()
        keep("Ask to Buy: the payment waits for a parent's approval")
        backToFeed()
        world.approveAskToBuy()
        settle()
        keep("A parent approved: the server checked the purchase, and the app tells of the charge over the feed")
        world.send(.select)
        settle()
    }

    /// The content bought, in full; account-required apps show it once the account exists.
    func unlockedContent() {
        if world.screen.id != .content, let item = lockedItem {
            backToFeed()
            choose(item.title)
        }
        guard world.screen.id == .content else { return }
        keep("The server answered: the content is unlocked")
    }
}
