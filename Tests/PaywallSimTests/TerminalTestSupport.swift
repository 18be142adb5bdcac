import AppFlow
import Foundation
import SimKernel
import TerminalUI
import WhiteLabel

/// Shared fixtures for the terminal front's tests: themes from the repo, a fixed phone screen, a timeline.
enum TerminalFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static func theme(_ name: String = "newsprint") throws -> Theme {
        try ThemeLoader.load(path: "\(packageRoot)/themes/\(name).json")
    }

    static let feed = ScreenModel(
        id: .feed, title: "Daily News",
        rows: [
            Row(.choice, "City approves the new harbour bridge"),
            Row(.choice, "The return of the night trains", badge: .locked),
            Row(.choice, "Weekend market report"),
        ],
        selection: 1,
        keys: [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("q", "quit")])

    /// A timeline with one entry per (seconds after world start, source, text).
    static func timeline(_ items: [(Int64, TimelineSource, String)]) -> [TimelineEntry] {
        var now = SimInstant.worldStart
        let timeline = Timeline(clock: { now })
        for (seconds, source, text) in items {
            now = SimInstant.worldStart + .millis(seconds * 1000 + 250)
            timeline.log(source, text)
        }
        return timeline.entries
    }

    static func content(screen: ScreenModel = feed, timeline: [TimelineEntry]? = nil) -> FrontContent {
        FrontContent(
            appName: "Daily News", screen: screen,
            timeline: timeline
                ?? Self.timeline([
                    (0, .app, "launch Daily News"), (1, .store, "products request"),
                    (2, .backend, "GET /access → 200"),
                ]),
            now: .worldStart + .seconds(3))
    }
}
