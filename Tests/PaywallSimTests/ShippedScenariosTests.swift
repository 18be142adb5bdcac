import Foundation
import Testing

/// The scenarios the project ships (the seed's failure table, the coordinator's rules) all pass,
/// run as QA runs them: `paywall-sim play scenarios`.
@Suite struct ShippedScenariosTests {
    @Test func everyShippedScenarioPasses() throws {
        let result = try TestSupport.runBinary(["play", "\(TestSupport.packageRoot)/scenarios"])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" passed, 0 failed"))
    }

    @Test func theFailureTableIsAllThere() throws {
        let result = try TestSupport.runBinary([
            "play", "--markdown", "\(TestSupport.packageRoot)/scenarios/failure-table",
        ])
        #expect(result.code == 0)
        for row in [
            "The reader cancels on Apple's sheet", "The payment waits for a parent's approval",
            "Apple's receipt is missing", "A second payment starts while one is running",
            "The subscription belongs to another account", "The server check fails after paying",
        ] {
            #expect(result.stdout.contains(row), "missing row: \(row)")
        }
    }
}
