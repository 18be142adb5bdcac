import AppFlow
import SimKernel
import WhiteLabel

/// The reader of `ScreenTour`: drives a world by the words on screen and keeps the screens it passes.
final class TourWalk {
    let world: World
    let config: DemoConfig
    private(set) var stops: [ScreenTour.Stop] = []

    init(config: DemoConfig) throws(WorldSetupError) {
        self.config = config
        world = try World(config: config, options: WorldOptions(seed: 1, latency: .none))
    }

    /// Keeps the screen as it is now.
    func keep(_ caption: String) {
        stops.append(ScreenTour.Stop(caption: caption, screen: world.screen))
    }

    /// Highlights the selectable row containing `text` and presses Enter, then lets the world settle;
    /// false, doing nothing, when no such row is on screen.
    @discardableResult
    func choose(_ text: String) -> Bool {
        guard highlight(text) else { return false }
        world.send(.select)
        settle()
        return true
    }

    /// Moves the highlight to the selectable row containing `text`.
    @discardableResult
    func highlight(_ text: String) -> Bool {
        highlight { world.screen.rows[$0].text.contains(text) }
    }

    /// Moves the highlight to the row that does `action`, whatever its words: Apple's sheets speak the phone's
    /// language ("Abonnieren", "OK"), and a tour of a German `.storekit` file pressed Cancel looking for "Subscribe",
    /// then kept the locked article as "the content is unlocked" (session 41).
    @discardableResult
    func highlight(doing action: ReaderAction) -> Bool {
        let screen = world.screen
        guard let row = world.appState.row(doing: action, on: screen) else { return false }
        return highlight { $0 == row }
    }

    private func highlight(where matches: (Int) -> Bool) -> Bool {
        let screen = world.screen
        let selectable = screen.rows.indices.filter { screen.rows[$0].isSelectable }
        guard let target = selectable.firstIndex(where: matches) else { return false }
        let current = screen.selection.flatMap { selectable.firstIndex(of: $0) } ?? 0
        for _ in 0..<abs(target - current) { world.send(target > current ? .down : .up) }
        return true
    }

    /// Types into the highlighted field.
    func type(_ text: String) {
        for character in text { world.send(.character(character)) }
    }

    /// Dismisses the alerts on screen, if any, each in turn.
    func dismissAlert() {
        while world.screen.alert != nil { world.send(.select) }
    }

    /// Goes back until the feed is on screen, or until Esc is refused (account required).
    func backToFeed() {
        dismissAlert()
        var depth = world.appState.stack.count
        while world.screen.id != .feed && depth > 1 {
            world.send(.back)
            guard world.appState.stack.count < depth else { return }
            depth = world.appState.stack.count
        }
    }

    /// Runs the world until nothing more is pending.
    func settle() {
        world.scheduler.runUntilIdle()
    }

    /// Runs the world one event at a time until `condition` holds or nothing is pending; whether it holds.
    @discardableResult
    func step(until condition: (ScreenModel) -> Bool) -> Bool {
        while !condition(world.screen) {
            guard world.scheduler.runUntilIdle(maxEvents: 1) > 0 else { return false }
        }
        return true
    }
}
