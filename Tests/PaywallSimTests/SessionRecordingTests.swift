import AppFlow
import Foundation
import Scenarios
import SimKernel
import Simulation
import Testing
import WhiteLabel

@testable import TerminalUI

/// A session that presses every control of the pane and does every reader action the phone reports is
/// recorded through the terminal's own `Recordings`, and the recording replays green.
@Suite struct SessionRecordingTests {
    let world: World
    let recordings: Recordings
    let file: String
    /// The rows pressed so far, by label.
    private var pressed: Set<String> = []

    init() throws {
        let directory = try TestSupport.temporaryDirectory()
        file = "\(directory)/session.scenario"
        world = try World(
            config: TestSupport.demoConfig("kids-stories"), options: WorldOptions(seed: 1, latency: .fast))
        try world.createAccount(email: "ana@example.com", password: "password-ana")
        let recorder = ScenarioRecorder(
            app: "kids-stories", seed: 1, latency: .fast,
            setup: [.account(email: "ana@example.com", password: "password-ana")])
        recordings = Recordings(recorder: recorder, sessionFile: file, directory: directory)
        recordings.attach(to: world)
        world.launch()
        world.scheduler.runUntilIdle()
    }

    /// Enter on the row labelled `label`, as the loop does it: pressed, then recorded.
    private mutating func press(_ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = ControlBoard.controls(ControlReadings(world: world))
        guard let control = controls.first(where: { $0.label == label }) else {
            Issue.record("no control \"\(label)\"", sourceLocation: sourceLocation)
            return
        }
        let (inFlight, at) = (!world.scheduler.isIdle, world.scheduler.now)
        recordings.control(control.action, refusal: control.action.press(on: world), inFlight: inFlight, at: at)
        world.scheduler.runUntilIdle()
        pressed.insert(label)
    }

    private func value(_ label: String) -> String? {
        ControlBoard.controls(ControlReadings(world: world)).first { $0.label == label }?.value
    }

    private func act(_ action: ReaderAction) throws {
        try world.perform(action)
        world.scheduler.runUntilIdle()
    }

    /// The grown-up's answer to the question on the gate, drawn from the seed: typed, it is recorded as typed.
    private var gateAnswer: String { ParentalGate.answer(to: world.appState.gate?.question ?? "") ?? "" }

    @Test mutating func everyControlAndEveryReaderActionIsRecordedAndReplaysGreen() throws {
        // The kids app's own settings hold every purchase for a parent: Ask to Buy is on from the start.
        #expect(world.askToBuy)
        try act(.openPaywall)
        try act(.back)
        try act(.openContent("moon-picnic"))
        try act(.subscribe)
        try act(.selectOffer("stories-monthly"))
        try act(.answerGate(""))
        let firstGateAnswer = gateAnswer
        try act(.answerGate(firstGateAnswer))
        try act(.cancelPayment)
        try act(.selectOffer("stories-monthly"))
        try act(.answerGate(gateAnswer))
        try act(.confirmPayment)
        // A parent approves the purchase Ask to Buy held: this time the control does something.
        press("Approve the request")
        #expect(world.charges == 1)
        try act(.openFeed)
        try act(.openProfile)
        try act(.openLogin)
        try act(.back)
        try act(.openSignup)
        try act(.back)
        try act(.logIn(email: "ana@example.com", password: "password-ana"))
        try act(.declineTransfer)
        try act(.openProfile)
        try act(.acceptTransfer)
        try act(.manageSubscription)
        // In a kids app, Apple's manage sheet is behind the gate too: a switch there can charge.
        try act(.answerGate(gateAnswer))
        try act(.setAutoRenew(false))
        try act(.setAutoRenew(true))
        try act(.logOut)
        // Every row, in the pane's order: some change nothing now (nothing waits for a parent).
        for control in ControlBoard.controls(ControlReadings(world: world)) { press(control.label) }
        // The backend rows planned a failed receipt check, a timeout and a slow call: they meet these.
        try act(.openProfile)
        for _ in 0..<3 { try act(.restore) }
        try act(.signUp(email: "ben@example.com", password: "password-ben"))
        #expect(pressed == Set(ControlBoard.controls(ControlReadings()).map(\.label)))

        recordings.finish(world)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        // `open feed`, `open paywall` and `double-tap offer` are a scenario's shorthands: the phone reports
        // the presses they take (`back`, `subscribe`, `select offer` twice).
        for step in [
            "back", "open content moon-picnic", "subscribe", "select offer stories-monthly",
            "answer gate \"\"", "answer gate \(firstGateAnswer)", "cancel payment", "confirm payment", "parent approve",
            "open profile",
            "open login", "open signup", "login ana@example.com password-ana", "decline transfer", "accept transfer",
            "manage subscription", "cancel auto-renew", "resume auto-renew", "logout",
            "signup ben@example.com password-ben", "restore", "next purchase fails", "new device iphone-2",
        ] {
            #expect(lines.contains(step), "\(step) is not in the recording:\n\(text)")
        }
        #expect(!text.contains("no step says"))
        let scenario = try ScenarioParser.parse(text, file: file)
        let result = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
        #expect(result.passed, "\(result.failure?.report ?? "")\n\(text)")
    }

    /// The clock the loop moves while the reader only looks on was not in the recording: under a `.storekit` file's
    /// `_timeRate` the subscription renewed twice before the reader quit, and the replay charged once (session 27).
    /// The idle time is an `advance`, and the replay ends where the session did.
    @Test func idleTimeIsRecordedAndReplays() throws {
        let world = try World(config: TestSupport.demoConfig(), options: WorldOptions(seed: 1, latency: .typical))
        let recorder = ScenarioRecorder(app: "daily-news", seed: 1, latency: .typical)
        recorder.attach(to: world)
        world.launch()
        // What the loop does between keys: the clock follows the wall, here 65 virtual days in all.
        let idle = { _ = world.scheduler.run(until: world.scheduler.now + SimDuration.days(1)) }
        idle()
        try world.perform(.openPaywall)
        world.scheduler.runUntilIdle()
        idle()
        try world.perform(.selectOffer("premium-monthly"))
        idle()
        try world.perform(.confirmPayment)
        for _ in 0..<63 { idle() }
        #expect(world.charges == 3)
        let text = recorder.text(endingWith: world)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("advance ") }.count == 4, "\(text)")
        let scenario = try ScenarioParser.parse(text, file: "idle.scenario")
        let result = ScenarioRunner(resources: ResourceLocator(root: TestSupport.packageRoot)).run(scenario)
        #expect(result.passed, "\(result.failure?.report ?? "")\n\(text)")
    }
}
