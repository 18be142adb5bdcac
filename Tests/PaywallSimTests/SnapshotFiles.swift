import Foundation
import Simulation

/// The golden text snapshots on disk: `Tests/Snapshots/<app>/<NN>-<screen-id>.txt`, one per stop of the tour.
enum SnapshotFiles {
    /// The package root, three levels up from this file (`Tests/PaywallSimTests/…`), so any working directory works.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let directory = packageRoot + "/Tests/Snapshots"

    /// Set to 1 to rewrite the snapshots instead of comparing them.
    static let updateVariable = "UPDATE_SNAPSHOTS"
    static let updateCommand = "UPDATE_SNAPSHOTS=1 swift test --filter Snapshot"

    static var isUpdating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    static func appDirectory(_ app: String) -> String { "\(directory)/\(app)" }

    /// A stop's file name: its place in the tour, so the files list in order, then what is on screen.
    static func name(_ index: Int, _ stop: ScreenTour.Stop) -> String {
        let number = index + 1 < 10 ? "0\(index + 1)" : "\(index + 1)"
        return "\(number)-\(stop.id.rawValue).txt"
    }

    /// What a snapshot holds: exactly what `paywall-sim screens` prints for the stop, at the default width.
    static func contents(_ stop: ScreenTour.Stop) -> String { stop.text() + "\n" }

    /// The snapshot files of an app, by name.
    static func read(_ app: String) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: appDirectory(app))) ?? []
        var files: [String: String] = [:]
        for name in names where name.hasSuffix(".txt") {
            files[name] = try? String(contentsOfFile: "\(appDirectory(app))/\(name)", encoding: .utf8)
        }
        return files
    }

    /// Replaces an app's snapshots with `files`, removing any a shorter tour no longer has.
    static func write(_ app: String, _ files: [String: String]) throws {
        let path = appDirectory(app)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8)
        }
    }
}
