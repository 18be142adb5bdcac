import Foundation
import Simulation
import Testing
import WhiteLabel

/// Golden text snapshots of every screen of every bundled demo app, from the `ScreenModel` renderer.
/// A change to a screen shows up here as a readable diff; `UPDATE_SNAPSHOTS=1 swift test --filter Snapshot`
/// rewrites the files after a deliberate change.
@Suite struct SnapshotTests {
    /// Every app in `demo-configs/`, so a new demo app gets its snapshots without touching this test.
    static let apps = ResourceLocator(root: SnapshotFiles.packageRoot).appNames()

    @Test func everyBundledAppIsSnapshotted() {
        #expect(Self.apps.count >= 4)
    }

    @Test(arguments: apps)
    func everyScreenMatchesItsSnapshot(_ app: String) throws {
        let config = try DemoConfigLoader.load(path: "\(SnapshotFiles.packageRoot)/demo-configs/\(app).json")
        let stops = try ScreenTour.run(config: config)
        var actual: [String: String] = [:]
        for (index, stop) in stops.enumerated() {
            actual[SnapshotFiles.name(index, stop)] = SnapshotFiles.contents(stop)
        }
        if SnapshotFiles.isUpdating {
            try SnapshotFiles.write(app, actual)
            print("UPDATE_SNAPSHOTS=1: wrote \(actual.count) snapshots of \(app) to \(SnapshotFiles.appDirectory(app))")
            return
        }
        compare(app, expected: SnapshotFiles.read(app), actual: actual)
    }

    private func compare(_ app: String, expected: [String: String], actual: [String: String]) {
        let hint = "If the change is meant, run: \(SnapshotFiles.updateCommand)"
        for name in actual.keys.sorted() {
            guard let golden = expected[name] else {
                Issue.record("\(app)/\(name): no snapshot on disk. \(hint)\n--- actual\n\(actual[name]!)")
                continue
            }
            if golden != actual[name] {
                Issue.record(
                    "\(app)/\(name) differs from its snapshot. \(hint)\n--- expected\n\(golden)--- actual\n\(actual[name]!)"
                )
            }
        }
        for name in expected.keys.sorted() where actual[name] == nil {
            Issue.record("\(app)/\(name): the tour no longer has this screen. \(hint)")
        }
    }
}
