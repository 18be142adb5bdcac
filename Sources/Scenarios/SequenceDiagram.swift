import SimKernel

/// A scenario's timeline as a Mermaid `sequenceDiagram` of the messages between the reader, the app,
/// the App Store and the backend, for `play --markdown`: a QA ticket shows the flow as a picture.
/// Only what the timeline logged is drawn; what a side did on its own is a note over it.
public enum SequenceDiagram {
    /// Beyond this many messages a diagram stops being readable; the rest is counted.
    static let limit = 150

    public static func mermaid(_ timeline: [TimelineEntry]) -> String {
        var lines = [
            "sequenceDiagram",
            "    participant Reader",
            "    participant App",
            "    participant AppStore as App Store",
            "    participant Backend",
        ]
        let messages = timeline.compactMap(message)
        lines += messages.prefix(limit).map { "    " + $0 }
        if messages.count > limit {
            lines.append("    Note over Reader,Backend: \(messages.count - limit) more messages")
        }
        return lines.joined(separator: "\n")
    }

    /// One timeline line as an arrow or a note; nil for the reader's highlight moves.
    static func message(_ entry: TimelineEntry) -> String? {
        let text = entry.text
        func arrow(_ from: String, _ to: String, _ words: String, reply: Bool = false) -> String {
            "\(from)\(reply ? "-->>" : "->>")\(to): \(escaped(words))"
        }
        switch entry.source {
        case .reader:
            if ["up", "down"].contains(text) { return nil }
            // Apple's sheet is the App Store's, drawn over the app.
            if text.hasSuffix(" on app-store-sheet") { return arrow("Reader", "AppStore", text) }
            return arrow("Reader", "App", text)
        case .app:
            if text.hasPrefix("→ ") { return arrow("App", "Backend", String(text.dropFirst(2))) }
            if text.hasPrefix("← ") { return arrow("Backend", "App", String(text.dropFirst(2)), reply: true) }
            return "Note over App: \(escaped(text))"
        case .store:
            return storeMessage(text, arrow: arrow)
        case .backend:
            if text.hasPrefix("asked Apple") { return arrow("Backend", "AppStore", text) }
            // The server's own log of a request the app's arrow already shows.
            if text.hasPrefix("GET ") || text.hasPrefix("POST ") || text.hasPrefix("PUT ") || text.hasPrefix("DELETE ")
            {
                return nil
            }
            return "Note over Backend: \(escaped(text))"
        case .control:
            return "Note over Reader,Backend: \(escaped(text))"
        }
    }

    private static func storeMessage(_ text: String, arrow: (String, String, String, Bool) -> String) -> String {
        let toStore = [
            "products request:", "payment added", "transaction finished", "receipt refresh request",
            "restore completed",
        ]
        let toApp = [
            "products response", "products request failed", "receipt refresh", "receipt refreshed",
            "restore f",
        ]
        if text.hasPrefix("observer ← ") { return arrow("AppStore", "App", String(text.dropFirst(11)), true) }
        if text.hasPrefix("notification ") { return arrow("AppStore", "Backend", text, false) }
        if text.hasPrefix("payment sheet shown") || text.hasPrefix("price increase sheet") {
            return arrow("AppStore", "Reader", text, false)
        }
        if text.hasPrefix("payment sheet:") { return arrow("Reader", "AppStore", text, false) }
        if toStore.contains(where: text.hasPrefix) { return arrow("App", "AppStore", text, false) }
        if toApp.contains(where: text.hasPrefix) { return arrow("AppStore", "App", text, true) }
        return "Note over AppStore: \(escaped(text))"
    }

    /// Mermaid ends a message at `;` and reads `#…;` as an entity: both are written as entities.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "#": out += "#35;"
            case ";": out += "#59;"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
