extension ScreenBuilder {
    /// A piece of content: the full version when the reader's levels unlock it, else its preview and Subscribe.
    static func content(_ id: String, _ state: AppState) -> Built {
        guard let item = state.item(id) else {
            return Built(screen: ScreenModel(id: .content, title: "Not found", rows: []))
        }
        let words = state.app.words
        var rows = [Row(.heading, item.title), Row(.spacer)]
        var waiting: String?
        var keys = [KeyHint("Esc", "back")]
        if !state.access.unlocks(item.requiredLevels) {
            rows += [
                Row(.text, item.preview), Row(.spacer),
                Row(.muted, "Subscribe to \(words.doing) the full \(words.one)."),
                Row(.button, "Subscribe", choice: .subscribe(fromContent: id)),
            ]
            keys.insert(KeyHint("Enter", "subscribe"), at: 0)
        } else if item.requiredLevels.isEmpty {
            rows.append(Row(.text, item.preview))
        } else {
            switch state.fullContent[id] {
            case .loaded(let body): rows.append(Row(.text, body))
            case .failed(let message): rows += [Row(.text, item.preview), Row(.muted, message)]
            case .loading, nil: waiting = "Loading the full \(words.one)"
            }
        }
        let screen = ScreenModel(id: .content, title: state.app.name, rows: rows, waiting: waiting, keys: keys)
        return Built(screen: screen)
    }
}
