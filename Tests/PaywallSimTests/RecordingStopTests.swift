import Foundation
import Scenarios
import SimKernel
import Simulation
import Testing

@testable import TerminalUI

/// `r` pressed to stop while answers are on their way: the file waits for them, and the timeline says so at the
/// press, as "● REC" stays on the key bar until then (session 38: a second `r` seemed ignored for seconds).
@Suite struct RecordingStopTests {
    @Test func aStopAskedWhileAnswersAreOnTheirWayIsSaidAndWrittenOnceTheyLand() throws {
        let (world, recordings, directory) = try recordingFromLaunch()
        // Restore purchase on the profile, as keys: the App Store's fresh receipt (the phone has none) is on its way.
        for _ in 0..<8 { world.send(.down) }
        world.send(.select)
        #expect(world.screenID == .profile)
        world.send(.select)
        #expect(!world.scheduler.isIdle, "the receipt refresh is on its way")
        recordings.toggle(world)
        recordings.settle(world)
        let said = "● REC stops once the answers on their way have landed"
        #expect(world.timeline.entries.contains { $0.description.contains(said) })
        #expect(recordings.isRecording, "nothing is written while an answer is on its way")
        world.scheduler.runUntilIdle()
        recordings.settle(world)
        #expect(!recordings.isRecording)
        #expect(FileManager.default.fileExists(atPath: directory + "/recording-1.scenario"))
    }

    @Test func aStopAskedWhenNothingIsOnItsWayIsWrittenAtOnceWithoutAWord() throws {
        let (world, recordings, _) = try recordingFromLaunch()
        recordings.toggle(world)
        recordings.settle(world)
        #expect(!recordings.isRecording)
        #expect(!world.timeline.entries.contains { $0.description.contains("● REC stops once") })
    }

    /// Daily News launched and settled, `r` pressed: a recording under way, written to a fresh folder.
    private func recordingFromLaunch() throws -> (World, Recordings, String) {
        let directory = try TestSupport.temporaryDirectory()
        let world = try World(
            config: TestSupport.demoConfig("daily-news"), options: WorldOptions(seed: 1, latency: .fast))
        let recordings = Recordings(
            recorder: ScenarioRecorder(app: "daily-news", seed: 1, latency: .fast, setup: []), sessionFile: nil,
            directory: directory)
        recordings.attach(to: world)
        world.launch()
        world.scheduler.runUntilIdle()
        recordings.toggle(world)
        return (world, recordings, directory)
    }
}
