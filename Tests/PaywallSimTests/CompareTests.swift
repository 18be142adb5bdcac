import Foundation
import Scenarios
import Testing
import WhiteLabel

/// `paywall-sim compare`: the same scenario in a world per value, where they diverge, and its exit codes.
@Suite struct CompareTests {
    static let finishTradeOff = "\(TestSupport.packageRoot)/scenarios/trade-offs/finish-before-or-after.scenario"

    private func folder(_ files: [String: String]) throws -> String {
        let directory = try TestSupport.temporaryDirectory()
        for (name, text) in files { try text.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        return directory
    }

    @Test func finishingBeforeTheCheckLeavesThePaidReaderLockedAfterARestartFinishingAfterUnlocks() throws {
        let scenario = try ScenarioParser.parse(file: Self.finishTradeOff)
        let compared = try ScenarioComparison.run(
            scenario, resources: ResourceLocator(root: TestSupport.packageRoot))
        #expect(compared.labels == ["finish=before", "finish=after"])
        let first = try #require(compared.firstDivergence)
        #expect(first.text == "restart app")
        #expect(first.observations.map { $0?.levels } == [[], ["premium"]])
        #expect(first.observations.map { $0?.charges } == [1, 1])
        // Restore brings it back where it was finished early: the worlds end on the same levels.
        let last = try #require(compared.rows.last)
        #expect(last.text == "restore")
        #expect(last.observations.map { $0?.levels } == [["premium"], ["premium"]])
        #expect(last.observations.map { $0?.alert } == ["Your subscription is back.", "You are already subscribed."])
        #expect(compared.passed)
    }

    /// "An empty value is a world without that line": for `inject`, whose lines add up, the world without it had the
    /// file's own fault still, and two faulty worlds "never diverged" (session 25).
    @Test func aWorldWithoutAnAddedKeyHasNoneOfTheFilesOwnLines() throws {
        let file = "\(TestSupport.packageRoot)/scenarios/failure-table/06-server-check-fails.scenario"
        let result = try TestSupport.runBinary(["compare", file, "--vary", "inject=receipts timeout times 1,"])
        #expect(result.stdout.contains("▶ first divergence · \(file):12 · confirm payment"), "\(result.stdout)")
        #expect(result.stdout.contains("inject=(none): FAILED"), "\(result.stdout)")
    }

    @Test func theReportMarksTheFirstDivergenceAndExitsZeroWhenExpected() throws {
        let result = try TestSupport.runBinary(["compare", Self.finishTradeOff])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("▶ first divergence · \(Self.finishTradeOff):22 · restart app"))
        #expect(result.stdout.contains("finish=before   screen feed"))
        #expect(result.stdout.contains("levels premium"))
        #expect(result.stdout.contains("expect diverge at restart app: met."))
        #expect(result.stdout.hasSuffix("Result: PASSED\n"))
    }

    @Test func anExpectedDivergenceThatDoesNotHappenExitsOne() throws {
        let directory = try folder([
            "same.scenario": """
            vary latency=fast,none
            launch
            open content night-trains
            expect diverge
            """
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["compare", "\(directory)/same.scenario"])
        #expect(result.code == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("The worlds never diverged"))
        #expect(result.stdout.contains("same.scenario:4: expect diverge: NOT MET: the worlds never diverged."))
    }

    @Test func aWorldFailingItsExpectationsExitsOneNamingTheWorld() throws {
        let result = try TestSupport.runBinary([
            "compare", "\(TestSupport.packageRoot)/scenarios/purchase.scenario", "--vary",
            "inject=receipts error times 1,",
        ])
        #expect(result.code == 1)
        #expect(
            result.stdout.contains("▶ first divergence · \(TestSupport.packageRoot)/scenarios/purchase.scenario:19"))
        #expect(result.stdout.contains("inject=receipts error times 1: FAILED"))
        // The step it failed at says so: "failed earlier" there sent the reader looking above it (session 28).
        #expect(result.stdout.contains("inject=receipts error times 1   (stopped: it failed here)"), "\(result.stdout)")
        #expect(result.stdout.contains("inject=(none): passed"))
    }

    @Test func badInputIsOneLineAndExitTwo() throws {
        let purchase = "\(TestSupport.packageRoot)/scenarios/purchase.scenario"
        let cases: [([String], String)] = [
            (["--vary", "colour=red,blue"], "--vary: unknown key \"colour\""),
            (["--vary", "finish=before,later"], "--vary: finish=later: unknown finish \"later\""),
            (["--vary", "latency=typical"], "--vary: latency needs two values or more"),
            (["--vary", "storefront=USA,XYZ"], "--vary: storefront=XYZ: unknown storefront \"XYZ\""),
            ([], "nothing to compare: write a vary line, or give --vary KEY=V1,V2"),
        ]
        for (options, message) in cases {
            let result = try TestSupport.runBinary(["compare", purchase] + options)
            #expect(result.code == 2, "\(options)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aMalformedScenarioNamesItsLine() throws {
        let directory = try folder(["bad.scenario": "vary finish=before,after\nlaunch\nexpect diverge after restart\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["compare", "\(directory)/bad.scenario"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(directory)/bad.scenario:3: write expect diverge, or expect diverge at STEP"))
    }

    @Test func everyShippedTradeOffRunsGreenFromItsFolder() throws {
        let result = try TestSupport.runBinary(["compare", "\(TestSupport.packageRoot)/scenarios/trade-offs"])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 compared: 3 passed, 0 failed"))
    }

    @Test func playNeedsCompareForAnExpectedDivergenceWithoutAVaryLine() throws {
        let directory = try folder(["alone.scenario": "launch\nexpect diverge\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TestSupport.runBinary(["play", directory])
        #expect(result.code == 1)
        #expect(result.stdout.contains("alone.scenario:2: expect diverge or when"))
        #expect(result.stdout.contains("expected: a comparison (paywall-sim compare"))
    }
}
