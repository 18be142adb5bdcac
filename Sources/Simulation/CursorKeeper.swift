import AppFlow

/// The highlight stays on the choice the reader left it on when a screen's choices change under it: an answer that
/// takes a button off the profile, or a return to a screen whose choices changed while another was over it. The
/// state keeps an index; kept alone, it pointed at whatever took the place (session 30: an Enter aimed at "Manage my
/// subscription" started a restore when the server's answer took it off; after logging in, the profile opened on
/// "Restore purchase", where "Log in" had been). Where the choice went, the highlight goes to the first choice.
struct CursorKeeper {
    /// Each level of the selections (the stack's routes, then Apple's sheet while it is up, whose route is nil): the
    /// route, the index and the choice highlighted when the level was last on top.
    private var kept: [(route: AppState.Route?, index: Int, choice: Choice?)] = []

    /// After an event: the level on top, the same route with an index the event left as it was, goes to the choice
    /// kept for it (the index returned, nil when it stays); then what is highlighted is kept. `choices` are the top
    /// screen's, which a move of the highlight does not change; asked only where a choice is read, now or later.
    /// The state's stack and selections, not the state: a copy of the whole state for each event cost more than this.
    mutating func keep(stack: [AppState.Route], selections: [Int], choices built: () -> [Choice]) -> Int? {
        let depth = selections.count - 1
        let route = depth < stack.count ? stack[depth] : nil
        var index = selections[depth]
        var moved: Int?
        // A level whose choice is never read (Apple's sheet, the manage sheet, a highlight on the first choice: the
        // test below) keeps none, so the screen is not built for it (built after every event, 7 % of a fuzz run).
        guard route != nil, route != .manageSubscription, index > 0 else {
            put((route, index, nil), at: depth)
            return nil
        }
        let choices = built()
        // Apple's sheets choose their own highlight as they change (`SheetFocus`), and the highlight is never put on a
        // choice that moves money: a stray key moves none. A highlight the reader left on the first choice stays on
        // the first: a paywall filling in its offers opens on the first offer, not on "Log in", first while loading.
        if depth < kept.count, kept[depth].route == route, kept[depth].index == index, let choice = kept[depth].choice,
            !choice.movesMoney,
            AppState.highlighted(index, among: choices.count).map({ choices[$0] }) != choice
        {
            index = choices.firstIndex(of: choice) ?? 0
            moved = index
        }
        let highlighted = choices.isEmpty ? nil : choices[index < choices.count ? index : 0]
        put((route, index, highlighted), at: depth)
        return moved
    }

    /// Keeps `level` for the top, `depth`: levels above it are gone (a sheet or screen put up again later is a new
    /// one). In place when the top was kept already: Array's `removeSubrange` then `append` cost more, once an event.
    private mutating func put(_ level: (route: AppState.Route?, index: Int, choice: Choice?), at depth: Int) {
        guard depth < kept.count else { return kept.append(level) }
        if depth + 1 < kept.count { kept.removeSubrange((depth + 1)...) }
        kept[depth] = level
    }
}
