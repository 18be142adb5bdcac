import AppFlow
import Scenarios
import Simulation
import Testing
import WhiteLabel

@testable import TerminalUI

/// The guided walk's model: the tester's actions tick steps off, expectations go green while they hold
/// and are settled when the walk moves on, and the report says each step's result.
@Suite struct WalkStateTests {
    static let text = """
        title Walk me
        sees The article opens
        app daily-news
        latency fast
        launch
        expect screen feed
        open content night-trains
        subscribe
        expect screen paywall
        select offer premium-monthly
        confirm payment
        expect charges 1
        expect charges 2
        advance 1d
        expect content night-trains unlocked
        """

    let scenario: Scenario
    let session: WalkSession

    init() throws {
        scenario = try ScenarioParser.parse(Self.text, file: "walk.scenario")
        session = .over([scenario])
    }

    /// What the tester does on the phone, then a turn of the loop.
    private func act(_ action: ReaderAction, on world: World, _ state: inout WalkState) throws {
        try session.doByHand([action], on: world, &state)
    }

    private func outcome(_ state: WalkState, line: Int) -> StepOutcome? {
        scenario.steps.firstIndex { $0.line == line }.map { state.current!.outcomes[$0] }
    }

    /// A step done in several keys (open the sign-up form, type, submit) settles the expectation before it as it
    /// stood when the tester began it: "expect screen account-required" held then, though the form was on screen by
    /// the submit (a tester's walk report said it failed).
    @Test func aStepOfSeveralKeysSettlesWhatHeldWhenItBegan() throws {
        let text = [
            "app fit-track", "latency fast", "launch", "open content strength-plan", "subscribe",
            "select offer coach-yearly", "confirm payment", "expect screen account-required",
            "signup athlete@example.com correct-horse",
        ].joined(separator: "\n")
        let walk = try ScenarioParser.parse(text, file: "walk.scenario")
        let session = WalkSession.over([walk])
        var (world, state) = try session.started()
        try session.doByHand(
            [.openContent("strength-plan"), .subscribe, .selectOffer("coach-yearly"), .confirmPayment], on: world,
            &state)
        let expectation = try #require(walk.steps.firstIndex { $0.text == "expect screen account-required" })
        #expect(state.current?.outcomes[expectation] == .holds)
        // The tester's first key toward the sign-up: the form opens before the step is done.
        session.willSend(.select, to: world, state: &state)
        try world.perform(.signUp(email: "athlete@example.com", password: "correct-horse"))
        world.scheduler.runUntilIdle()
        session.settle(world, state: &state)
        #expect(state.current?.outcomes[expectation] == .passed)
    }

    /// By hand a double tap is two selections of the offer: nothing reports a "double tap", and the failure table's
    /// row for it could not be walked (found in session 24).
    @Test func aDoubleTapDoneByHandIsTwoSelectionsOfTheOffer() throws {
        let text = [
            "app daily-news", "latency fast", "launch", "open content night-trains", "subscribe",
            "double-tap offer premium-monthly", "confirm payment",
        ].joined(separator: "\n")
        let walk = try ScenarioParser.parse(text, file: "walk.scenario")
        let session = WalkSession.over([walk])
        var (world, state) = try session.started()
        try session.doByHand([.openContent("night-trains"), .subscribe], on: world, &state)
        let tap = try #require(walk.steps.firstIndex { $0.text == "double-tap offer premium-monthly" })
        state.readerActed(.selectOffer("premium-monthly"), checks: session.checks())
        #expect(state.current?.outcomes[tap] == .pending)
        state.readerActed(.selectOffer("premium-monthly"), checks: session.checks())
        #expect(state.current?.outcomes[tap] == .done)
        #expect(state.nextStep.map { walk.steps[$0].text } == "confirm payment")
    }

    /// `answer gate` is a grown-up's right answer to whatever the gate asks: after a wrong answer the tester answers
    /// the next question right, and the step is ticked. The walk waited for the first question's answer and stood
    /// still, the phone on Apple's sheet (session 27).
    @Test func aWrongGateAnswerThenTheRightOneTicksTheStep() throws {
        let text = [
            "app kids-stories", "latency fast", "launch", "open content moon-picnic", "subscribe",
            "select offer stories-monthly", "answer gate", "confirm payment",
        ].joined(separator: "\n")
        let walk = try ScenarioParser.parse(text, file: "walk.scenario")
        let session = WalkSession.over([walk])
        var (world, state) = try session.started()
        try session.doByHand(
            [.openContent("moon-picnic"), .subscribe, .selectOffer("stories-monthly"), .answerGate("12")], on: world,
            &state)
        let gate = try #require(walk.steps.firstIndex { $0.text == "answer gate" })
        #expect(state.current?.outcomes[gate] == .pending)
        #expect(state.message?.contains("the question now shown") == true, "\(state.message ?? "no message")")
        // OK on "Not quite", then the grown-up answers the next question.
        session.willSend(.select, to: world, state: &state)
        world.send(.select)
        try session.doByHand([.answerGate(nil)], on: world, &state)
        #expect(world.screen.id == .appStoreSheet)
        #expect(state.current?.outcomes[gate] == .done)
        #expect(state.nextStep.map { walk.steps[$0].text } == "confirm payment")
    }

    @Test func aWalkThatExpectsInvariantsWatchesTheTestersOwnKeys() throws {
        // A broken app: it unlocks on Apple's "purchased", and the server check fails.
        let text = [
            "defect unlock-on-purchased", "app daily-news", "latency fast", "inject receipts error", "launch",
            "open content night-trains", "subscribe", "select offer premium-monthly", "confirm payment",
            "expect invariants",
        ].joined(separator: "\n")
        let broken = try ScenarioParser.parse(text, file: "broken.scenario")
        let session = WalkSession.over([broken])
        var (world, state) = try session.started()
        let expectation = try #require(broken.steps.firstIndex { $0.text == "expect invariants" })
        try session.doByHand(Array(buyingNightTrains.dropLast()), on: world, &state)
        #expect(state.current?.outcomes[expectation] == .pending)
        try world.perform(.confirmPayment)
        world.scheduler.runUntilIdle()
        session.settle(world, state: &state)
        guard case .notYet(let failure) = state.current?.outcomes[expectation] else {
            Issue.record(
                "the invariants should be seen broken, not \(String(describing: state.current?.outcomes[expectation]))")
            return
        }
        #expect(failure.actual.contains("invariant 1"))
        #expect(failure.actual.contains("after the tester's last action"))
    }

    @Test func choosingAScenarioRunsItsSetupAndLeavesTheFirstReaderStepToTheTester() throws {
        var state = session.initialState
        #expect(state.apply(.choose) == .choose(0))
        let world = try #require(session.choose(0, state: &state))
        #expect(!state.showsList)
        #expect(world.screen.visibleID == .feed)
        #expect((3...5).map { outcome(state, line: $0) } == [.done, .done, .done])
        #expect(outcome(state, line: 6) == .holds)
        #expect(state.nextStep.map { scenario.steps[$0].text } == "open content night-trains")
        // n does only steps that are not the reader's.
        #expect(state.apply(.nextStep) == nil)
        #expect(state.message == "the next step is yours, on the phone: open content night-trains")
    }

    @Test func readerActionsTickStepsOffAndExpectationsGoGreenThenSettle() throws {
        var state = session.initialState
        let world = try #require(session.choose(0, state: &state))
        try act(.openContent("night-trains"), on: world, &state)
        #expect(outcome(state, line: 7) == .done)
        #expect(outcome(state, line: 6) == .passed)
        try act(.subscribe, on: world, &state)
        #expect(outcome(state, line: 9) == .holds)
        // Not the next step: nothing is ticked.
        state.readerActed(.confirmPayment, checks: session.checks())
        #expect(outcome(state, line: 10) == .pending)
        #expect(outcome(state, line: 9) == .holds)
        try act(.selectOffer("premium-monthly"), on: world, &state)
        try act(.confirmPayment, on: world, &state)
        #expect(outcome(state, line: 9) == .passed)
        #expect(outcome(state, line: 12) == .holds)
        #expect(
            outcome(state, line: 13) == .notYet(StepFailure(expected: "2 charges", actual: "1 charge")))
    }

    @Test func aFailingExpectationGoesRedWhenTheWalkMovesOnAndTheReportSaysWhy() throws {
        var (world, state) = try session.started()
        try session.doByHand(buyingNightTrains, on: world, &state)
        let advance = try #require(state.nextStep)
        #expect(state.apply(.nextStep) == .runStep(advance))
        session.runStep(advance, state: &state)
        session.settle(world, state: &state)
        #expect(outcome(state, line: 12) == .passed)
        #expect(outcome(state, line: 13) == .failed(StepFailure(expected: "2 charges", actual: "1 charge")))
        #expect(outcome(state, line: 14) == .done)
        #expect(outcome(state, line: 15) == .holds)
        #expect(state.nextStep == nil)

        let report = ScenarioReports.walk(state.report)
        #expect(report.contains("| Walk me | The article opens | failed at line 13 |"))
        #expect(report.contains("| 13 | `expect charges 2` | FAILED: expected 2 charges, got 1 charge |"))
        #expect(report.contains("| 15 | `expect content night-trains unlocked` | passed |"))
        #expect(report.contains("| 7 | `open content night-trains` | done |"))
    }

    @Test func aWorldStepIsTickedWhenTheControlPaneDoesIt() throws {
        var (world, state) = try session.started()
        try session.doByHand(buyingNightTrains, on: world, &state)
        // +1 month is not `advance 1d`; +1 day is.
        _ = session.apply(.advance(.months(1)), to: world, state: &state)
        #expect(outcome(state, line: 14) == .pending)
        _ = session.apply(.advance(.fixed(.days(1))), to: world, state: &state)
        #expect(outcome(state, line: 14) == .done)
    }

    @Test func backgroundAndBackTicksBothStepsAScenarioWritesForIt() throws {
        let scenario = try ScenarioParser.parse(
            "app daily-news\nlatency fast\nlaunch\nbackground\nforeground\nexpect screen feed\n", file: "bg.scenario")
        let session = WalkSession.over([scenario])
        var (world, state) = try session.started()
        #expect(session.apply(.foreground, to: world, state: &state) == nil)
        let outcomes = scenario.steps.indices.filter {
            [.world(.background), .world(.foreground)].contains(scenario.steps[$0].kind)
        }.map {
            state.current!.outcomes[$0]
        }
        #expect(outcomes == [.done, .done])
    }

    @Test func anUnfinishedWalkIsReportedIncomplete() throws {
        var state = session.initialState
        _ = try #require(session.choose(0, state: &state))
        let report = ScenarioReports.walk(state.report)
        #expect(report.contains("| Walk me | The article opens | incomplete (3 of 13 steps) |"))
        #expect(report.contains("| 6 | `expect screen feed` | passed (still live) |"))
        #expect(report.contains("| 8 | `subscribe` | not done |"))
    }

    /// `s` pressed while the last step's answers were on their way wrote "FAILED: expected the world to settle first"
    /// of expectations the pane turned green a moment later (session 28): saving is not a step, so they are pending.
    @Test func aReportSavedWhileAnswersAreInFlightSaysTheLastExpectationsArePending() throws {
        let scenario = try ScenarioParser.parse(
            """
            app daily-news
            latency typical
            launch
            open content night-trains
            subscribe
            select offer premium-monthly
            confirm payment
            expect charges 1
            expect levels premium
            """, file: "pending.scenario")
        let session = WalkSession.over([scenario])
        var (world, state) = try session.started()
        try session.doByHand(Array(buyingNightTrains.dropLast()), on: world, &state)
        try world.perform(.confirmPayment)
        session.settle(world, state: &state)
        #expect(!world.scheduler.isIdle)
        #expect(state.nextStep == nil)

        let report = ScenarioReports.walk(state.report)
        #expect(!report.contains("FAILED"), "\(report)")
        #expect(report.contains("| 8 | `expect charges 1` | pending (answers still in flight) |"), "\(report)")
        #expect(report.contains("| pending |  | pending (answers still in flight) |"), "\(report)")
        // Once they land, the same walk's report says how it ended.
        world.scheduler.runUntilIdle()
        session.settle(world, state: &state)
        #expect(ScenarioReports.walk(state.report).contains("| 9 | `expect levels premium` | passed |"))
    }

    @Test func dismissingAnAlertIsTheBackStepAndSettlesTheAlertsExpectation() throws {
        let scenario = try ScenarioParser.parse(
            """
            app daily-news
            latency fast
            inject receipts error
            launch
            open content night-trains
            subscribe
            select offer premium-monthly
            confirm payment
            expect alert "could not be confirmed"
            back
            expect no alert
            """, file: "alert.scenario")
        let session = WalkSession.over([scenario])
        var (world, state) = try session.started()
        try session.doByHand(buyingNightTrains, on: world, &state, eachTurn: false)
        session.settle(world, state: &state)
        #expect(state.current?.outcomes[8] == .holds)
        // OK on the alert: no reader action is reported, but the walk moves on.
        session.willSend(.select, to: world, state: &state)
        world.send(.select)
        session.settle(world, state: &state)
        #expect(state.current?.outcomes[8] == .passed)
        #expect(state.current?.outcomes[9] == .done)
        #expect(state.current?.outcomes[10] == .holds)
    }
}
