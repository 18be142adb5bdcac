extension ScreenBuilder {
    /// The feed: content with lock badges, ads for readers the owner shows them to, and the profile.
    static func feed(_ state: AppState) -> Built {
        var rows: [Row] = []
        if let tagline = state.app.tagline { rows += [Row(.muted, tagline), Row(.spacer)] }
        let ad = Row(.ad, "Fresh coffee delivered to your door")
        for (index, item) in state.app.content.enumerated() {
            let open = state.access.unlocks(item.requiredLevels)
            let badge: Badge? = item.requiredLevels.isEmpty ? nil : open ? .unlocked : .locked
            rows.append(Row(.choice, item.title, badge: badge, choice: .openContent(id: item.id)))
            if state.showsAds && index == 1 { rows.append(ad) }
        }
        if state.showsAds && state.app.content.count < 2 { rows.append(ad) }
        rows += [Row(.spacer), Row(.button, "Profile", choice: .openProfile)]
        let screen = ScreenModel(
            id: .feed, title: state.app.name, rows: rows, keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "open")])
        return Built(screen: screen)
    }

    /// The feed's choices, as `feed` lays out its rows: each article, then Profile (`AppState.choicesWithoutRows`).
    static func feedChoices(_ state: AppState) -> [Choice] {
        state.app.content.map { Choice.openContent(id: $0.id) } + [.openProfile]
    }
}
