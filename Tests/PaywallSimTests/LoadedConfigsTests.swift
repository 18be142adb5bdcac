import Foundation
import Scenarios
import Testing
import WhiteLabel

/// A fuzz run reads each app's config once for all its sessions; a new run reads the file again.
@Suite struct LoadedConfigsTests {
    private func paywallTitle(_ path: String, _ configs: LoadedConfigs) throws -> String? {
        let scenario = try ScenarioParser.parse("app \(path)\nlaunch", file: "inline.scenario")
        let run = ScenarioRun(scenario: scenario, resources: ResourceLocator(root: TestSupport.packageRoot))
        run.configs = configs
        for step in scenario.steps { try run.execute(step) }
        return run.world?.config.app.paywall.title
    }

    @Test func aRunKeepsTheConfigItReadAndANewRunReadsTheFileAgain() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/news.json"
        let original = try String(
            contentsOfFile: "\(TestSupport.packageRoot)/demo-configs/daily-news.json", encoding: .utf8)
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        let run = LoadedConfigs()
        #expect(try paywallTitle(path, run) == "Read without limits")
        let edited = original.replacingOccurrences(of: "\"Read without limits\"", with: "\"Read it all\"")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try paywallTitle(path, run) == "Read without limits")  // the same run: read once
        #expect(try paywallTitle(path, LoadedConfigs()) == "Read it all")
        #expect(try paywallTitle("kids-stories", run) != "Read without limits")  // another app, its own
    }
}
