/// The feed of an app built around a `.storekit` file: two free articles, then two each access level unlocks,
/// so every level has something to buy it for.
enum GeneratedFeed {
    static func items(levels: [String]) -> [ContentItem] {
        var items = [
            ContentItem(
                id: "free-welcome", title: "Welcome: what this app sells",
                preview: "Every subscription here comes from the .storekit file, at its price and period.",
                requiredLevels: []),
            ContentItem(
                id: "free-how-it-works", title: "How buying works here",
                preview: "Apple's sheet charges; the backend checks the receipt; only its answer unlocks.",
                requiredLevels: []),
        ]
        for level in levels {
            for number in 1...2 {
                items.append(
                    ContentItem(
                        id: "\(level)-\(number)", title: "\(level) article \(number)",
                        preview: "The start of an article only \(level) subscribers read in full.",
                        requiredLevels: [level]))
            }
        }
        return items
    }

    /// The full text of every locked article, which only the backend serves.
    static func fullContent(_ items: [ContentItem]) -> [String: String] {
        var full: [String: String] = [:]
        for item in items where !item.requiredLevels.isEmpty {
            full[item.id] =
                "\(item.preview) The rest of it, unlocked by the backend's answer for \(item.requiredLevels.joined(separator: ", "))."
        }
        return full
    }
}
