import AppFlow
import Foundation
import Scenarios
import SimKernel
import Simulation
import TerminalUI
import Testing
import WhiteLabel

/// A session driven headless is recorded, and the recording replays to the same result.
@Suite struct ScenarioRecorderTests {
    private func world() throws -> World {
        try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 1, latency: .fast))
    }

    private func act(_ world: World, _ action: ReaderAction) throws {
        try world.perform(action)
        world.scheduler.runUntilIdle()
    }

    /// A world launched with a recorder attached from its first step.
    private func recordedWorld(latency: LatencyProfile = .fast) throws -> (World, ScenarioRecorder) {
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 1, latency: latency))
        let recorder = ScenarioRecorder(app: "daily-news", seed: 1, latency: latency)
        recorder.attach(to: world)
        world.launch()
        world.scheduler.runUntilIdle()
        return (world, recorder)
    }

    /// The recording played back as `play` plays it.
    private func replay(_ text: String) throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(text, file: "recorded.scenario")
        return ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
    }

    @Test func aPurchaseThenADayLaterIsWrittenAsAPersonWouldAndReplaysGreen() throws {
        let world = try world()
        let recorder = ScenarioRecorder(app: "daily-news", seed: 1, latency: .fast)
        recorder.attach(to: world)
        world.launch()
        world.scheduler.runUntilIdle()
        try act(world, .openPaywall)
        try act(world, .selectOffer("premium-monthly"))
        try act(world, .confirmPayment)
        let day = WorldAction.advance(.fixed(.days(1)))
        try day.apply(to: world)
        recorder.record(day)
        try act(world, .back)
        try act(world, .logIn(email: "nobody@example.test", password: "secret1"))

        let text = recorder.text(endingWith: world)
        #expect(
            text == """
                app daily-news
                seed 1
                latency fast
                launch
                open content night-trains
                subscribe
                select offer premium-monthly
                confirm payment
                advance 1d
                back
                open profile
                open login
                login nobody@example.test secret1

                expect screen \(world.screen.visibleID.rawValue)
                expect levels premium
                expect identity anonymous
                expect charges 1

                """)
        let scenario = try ScenarioParser.parse(text, file: "recorded.scenario")
        let result = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    /// A person is quicker than the network: a refund then a restart pressed while the refund's news was on its way
    /// replays as it happened (the restart's answer before the news), not with every answer landed between them.
    @Test func actionsTakenWhileAnswersAreInFlightReplayAtTheSameMoment() throws {
        let (world, recorder) = try recordedWorld(latency: .typical)
        try act(world, .openPaywall)
        try act(world, .selectOffer("premium-monthly"))
        try act(world, .confirmPayment)
        for action in [WorldAction.refund, .restartApp] {
            let (inFlight, at) = (!world.scheduler.isIdle, world.scheduler.now)
            try action.apply(to: world)
            recorder.record(action, inFlight: inFlight, at: at)
            world.scheduler.run(until: world.scheduler.now + SimDuration(milliseconds: 500))
        }
        world.scheduler.runUntilIdle()
        #expect(!world.appState.access.levels.isEmpty, "the restart's answer came before the refund's news")

        let text = recorder.text(endingWith: world)
        #expect(text.contains("without waiting store refund\nwithout waiting advance 500ms\nrestart app\n"), "\(text)")
        let result = try replay(text)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    /// Two time controls pressed close together, the first while answers were on their way: the gap before the second
    /// was counted from before the first's own jump, so the recording travelled it twice ("without waiting advance"
    /// of ~31 days, then "advance 1mo") and the replay charged 4 times where the session charged 3 (session 28).
    @Test func twoTimeControlsCloseTogetherReplayTheTimeTravelledOnce() throws {
        let (world, recorder) = try recordedWorld(latency: .typical)
        try act(world, .openPaywall)
        try act(world, .selectOffer("premium-monthly"))
        // The tester's timing (session 28): back 5.3 s after confirming, "To the next renewal" 3.2 s later.
        try world.perform(.confirmPayment)
        world.scheduler.run(until: world.scheduler.now + SimDuration(milliseconds: 5320))
        try world.perform(.back)
        world.scheduler.run(until: world.scheduler.now + SimDuration(milliseconds: 3189))
        for action in [WorldAction.renew, .advance(.months(1))] {
            let (inFlight, at) = (!world.scheduler.isIdle, world.scheduler.now)
            #expect(inFlight, "\(action.text) is pressed while answers are on their way")
            try action.apply(to: world)
            recorder.record(action, inFlight: inFlight, at: at)
            world.scheduler.run(until: world.scheduler.now + SimDuration(milliseconds: 2000))
        }
        world.scheduler.runUntilIdle()
        let end = world.scheduler.now
        #expect(world.charges == 3)

        let text = recorder.text(endingWith: world)
        #expect(text.contains("expect charges 3"))
        let result = try replay(text)
        #expect(result.passed, "\(result.failure?.report ?? "")\n\(text)")
        let covered = end - SimInstant.worldStart
        #expect(result.virtualMilliseconds == covered.milliseconds, "the replay ends where the session did\n\(text)")
    }

    /// OK on the last alert up is recorded as `back`: a session that logged out and tapped OK replayed with "Logged
    /// out" still over the profile, failing its own `expect screen profile`.
    @Test func dismissingTheLastAlertIsAStep() throws {
        let (world, recorder) = try recordedWorld()
        try act(world, .signUp(email: "ann@ex.com", password: "correct horse"))
        try act(world, .logOut)
        #expect(world.screen.alert != nil)
        world.send(.select)
        world.scheduler.runUntilIdle()
        let text = recorder.text(endingWith: world)
        #expect(text.contains("signup ann@ex.com \"correct horse\"\nlogout\nback\n"), "\(text)")
        #expect(text.contains("expect screen profile"))
        let result = try replay(text)
        #expect(result.passed, "\(result.failure?.report ?? "")")
    }

    @Test func everyReaderActionIsAStepAndARefusedWorldActionOnlyAComment() throws {
        let recorder = ScenarioRecorder(app: "daily-news", seed: 1, latency: .fast)
        for action: ReaderAction in [.openLogin, .back, .openSignup, .setAutoRenew(true), .answerGate("")] {
            recorder.record(action)
        }
        recorder.record(.advance(.fixed(.minutes(90))))
        recorder.record(.storefront("GBR"))
        recorder.record(
            .parentApprove,
            refusal: WorldActionRefusal(expected: "a purchase waiting for a parent", actual: "none waits"))
        let lines = recorder.text(endingWith: try world()).split(separator: "\n")
        #expect(
            Array(lines.dropFirst(4).prefix(8)) == [
                "open login", "back", "open signup", "resume auto-renew", "answer gate \"\"", "advance 90m",
                "storefront GBR",
                "# parent approve did nothing: expected a purchase waiting for a parent, got none waits",
            ])
    }
}

/// A session recorded in a real terminal replays green with `play`.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed: apt-get install tmux"))
struct TerminalRecordingTests {
    /// The steps of a recording in order, as keys pressed: one pressed while an answer was on its way is written to
    /// replay at that moment (`without waiting`, then the time that passed), and the time the world stood idle before
    /// a key is an `advance`, both of which a person's timing decides.
    static func keys(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("without waiting advance") && !$0.hasPrefix("advance ") }
            .map { $0.hasPrefix("without waiting ") ? $0.dropFirst("without waiting ".count) : $0 }
            .joined(separator: "\n")
    }

    @Test func aPurchaseMadeWithKeyPressesIsRecordedAndReplaysGreen() throws {
        let directory = try TestSupport.temporaryDirectory()
        let file = "\(directory)/r.scenario"
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast", "--record", file])
        tmux.waitFor("Weekend market report")
        try tmux.buy(offerDowns: 0)
        try tmux.quit()
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.keys(text).contains("subscribe\nselect offer premium-yearly\nconfirm payment\n"))
        #expect(text.contains("expect charges 1"))
        let result = try TestSupport.runBinary(["play", file])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)\n\(text)")
    }

    /// The shared fixture, beside the checkout as the StoreKit app tests find it, else where the project's shared
    /// folder is; nil where neither has it.
    static let foodTruck = [TestSupport.packageRoot + "/../shared", "/work/shared"]
        .map { "\($0)/fixtures/storekit/apple-food-truck-Products.storekit" }
        .first { FileManager.default.fileExists(atPath: $0) }

    /// `run --storekit FILE` was recorded as `app FILE`: it replayed only while the file's name ended in `.storekit`,
    /// any other name read as an app's config (session 33). The recording says `storekit FILE`, with no `app` line
    /// (which would make a named app sell from the file), and replays to the same end, whatever the file is called.
    @Test(
        .enabled(if: foodTruck != nil, "../shared/fixtures is absent"),
        arguments: ["apple-food-truck-Products.storekit", "food-truck-products.json"])
    func aStoreKitRunIsRecordedAsItsFileAndReplaysGreen(name: String) throws {
        let fixture = try #require(Self.foodTruck)
        let directory = try TestSupport.temporaryDirectory()
        let storekit = "\(directory)/\(name)"
        try FileManager.default.copyItem(atPath: fixture, toPath: storekit)
        let file = "\(directory)/r.scenario"
        let tmux = try TmuxSession(["--storekit", storekit, "--ephemeral", "--latency", "fast", "--record", file])
        tmux.waitFor("social-feed article 1")
        // The third row is the first article: its paywall, the monthly plan's sheet, confirmed.
        try tmux.send("Down", "Down", "Enter")
        tmux.waitFor("Subscribe to read the full article.")
        try tmux.send("Enter")
        tmux.waitFor("Monthly Plan")
        try tmux.send("Enter")
        tmux.waitFor("Apple ID:")
        try tmux.send("Up", "Enter")
        tmux.waitFor("unlocked by the backend's answer")
        try tmux.quit()
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        // Beside the recording, it is named from the recording's folder (session 34): the two move together.
        #expect(lines.contains("storekit \(name)"), "\(text)")
        #expect(!lines.contains { $0.hasPrefix("app ") }, "\(text)")
        #expect(text.contains("expect levels social-feed"), "\(text)")
        #expect(text.contains("expect charges 1"), "\(text)")
        let result = try TestSupport.runBinary(["play", file])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)\n\(text)")
        let moved = try TestSupport.temporaryDirectory() + "/elsewhere"
        try FileManager.default.moveItem(atPath: directory, toPath: moved)
        let again = try TestSupport.runBinary(["play", "\(moved)/r.scenario"])
        #expect(again.code == 0, "\(again.stdout)\(again.stderr)\n\(text)")
    }

    /// A recording wrote `storekit /home/me/…/Products.storekit`, a path of one machine (session 34): a file is named
    /// relative to the recording's folder where the two share a folder below the root; elsewhere its path stays whole.
    @Test(arguments: [
        ("/home/qa/project/Products.storekit", "/home/qa/project/r.scenario", "storekit Products.storekit"),
        (
            "/home/qa/project/StoreKit/My Products.storekit", "/home/qa/project/recordings/r.scenario",
            "storekit \"../StoreKit/My Products.storekit\""
        ),
        ("/work/shared/Products.storekit", "/tmp/r.scenario", "storekit /work/shared/Products.storekit"),
        ("/home/qa/Products.storekit", "relative.scenario", "storekit /home/qa/Products.storekit"),
    ])
    func aRecordingNamesItsFileFromItsOwnFolder(file: String, recording: String, line: String) throws {
        let recorder = ScenarioRecorder(app: nil, seed: 1, latency: .fast, setup: [.storekit(file)])
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 1, latency: .fast))
        let text = recorder.text(endingWith: world, savedTo: recording)
        #expect(text.split(separator: "\n").contains(Substring(line)), "\(text)")
        #expect(text.hasPrefix("seed 1\nlatency fast\nstorekit "), "\(text)")
    }

    @Test func anOwnersAppIsNamedFromTheRecordingsFolderToo() throws {
        let recorder = ScenarioRecorder(
            app: "/home/qa/app.json", seed: 1, latency: .fast, setup: [.storekit("/home/qa/p.storekit")])
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 1, latency: .fast))
        let text = recorder.text(endingWith: world, savedTo: "/home/qa/recordings/r.scenario")
        #expect(text.hasPrefix("app ../app.json\nseed 1\nlatency fast\nstorekit ../p.storekit\nlaunch\n"), "\(text)")
        #expect(recorder.text(endingWith: world).hasPrefix("app /home/qa/app.json\n"))
    }

    @Test func theRecordKeyWritesTheSessionIntoTheWorkingDirectoryAndItReplaysGreen() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tmux = try TmuxSession(["--ephemeral", "--latency", "fast"], directory: directory)
        tmux.waitFor("Weekend market report")
        try tmux.send("r")
        tmux.waitFor("● REC")
        try tmux.buy(offerDowns: 1)
        try tmux.send("r")
        // The path may wrap on the timeline's narrow column; the file's name is checked on disk below.
        tmux.waitFor("recording saved to")
        try tmux.quit()
        let file = "\(directory)/recording-1.scenario"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.keys(text).contains("select offer premium-monthly\nconfirm payment\n"))
        #expect(text.contains("expect levels premium"))
        let result = try TestSupport.runBinary(["play", file])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)\n\(text)")
    }
}
