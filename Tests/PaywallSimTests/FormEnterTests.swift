import AppFlow
import SimKernel
import Subscriptions
import Testing
import WhiteLabel

/// Enter in a text field, as the reducer takes it: it moves to the next field, and in a form's last field it presses
/// the form's button, as a form's Return key does (session 36's tester: the gate's answer typed and Enter landed on
/// "Continue", answering nothing).
@Suite struct FormEnterTests {
    private let offer = TestSupport.premiumMonthly

    private func launchedState() throws -> AppState {
        var state = AppState(app: try TestSupport.demoConfig().app)
        _ = reduce(&state, .launched)
        _ = reduce(&state, .accessChanged(AccessSnapshot(identity: .none, levels: [], isKnown: true)))
        return state
    }

    /// On the gate in front of the paywall's monthly plan, the answer field highlighted.
    private func onTheGate() throws -> AppState {
        var state = try launchedState()
        _ = reduce(&state, .catalogLoaded([offer]))
        _ = reduce(&state, .reader(.down))
        _ = reduce(&state, .reader(.select))
        _ = reduce(&state, .reader(.select))
        #expect(reduce(&state, .reader(.select)) == [.purchase(offerId: "premium-monthly", parentalGatePassed: false)])
        _ = reduce(&state, .purchaseFinished(.refused(.parentalGateRequired)))
        #expect(state.route == .parentalGate)
        #expect(state.screen.isEditingDigits, "the gate opens in its answer field")
        return state
    }

    /// Moves the highlight to the row that does `action` and presses Enter.
    private func choose(_ action: ReaderAction, _ state: inout AppState) throws {
        let row = try #require(state.row(doing: action), "no row does \(action) on \(state.route)")
        while let selection = state.screen.selection, selection != row {
            _ = reduce(&state, .reader(selection < row ? .down : .up))
        }
        _ = reduce(&state, .reader(.select))
    }

    private func type(_ text: String, _ state: inout AppState) {
        for character in text { _ = reduce(&state, .reader(.character(character))) }
    }

    @Test func enterAfterTheGatesRightAnswerAnswersIt() throws {
        var state = try onTheGate()
        let right = try #require(state.gate.flatMap { ParentalGate.answer(to: $0.question) })
        type(right, &state)
        #expect(ReaderAction.of(.select, in: state) == .answerGate(right), "the phone reports the answer")
        #expect(reduce(&state, .reader(.select)) == [.purchase(offerId: "premium-monthly", parentalGatePassed: true)])
        #expect(state.route == .paywall(fromContent: "night-trains"))
        #expect(state.gate == nil)
    }

    @Test func enterAfterAWrongAnswerTellsItAndAsksAnotherInTheEmptiedField() throws {
        var state = try onTheGate()
        let question = try #require(state.gate?.question)
        type("1", &state)
        #expect(reduce(&state, .reader(.select)) == [])
        #expect(state.alert?.title == "Not quite")
        _ = reduce(&state, .reader(.select))
        #expect(state.route == .parentalGate)
        #expect(state.gate?.answer == "")
        #expect(state.gate?.question != question)
        #expect(state.screen.isEditingDigits, "back in the field, for the next question")
    }

    @Test func enterInTheEmailFieldMovesToThePasswordAndInThePasswordLogsIn() throws {
        var state = try launchedState()
        try choose(.openProfile, &state)
        try choose(.openLogin, &state)
        #expect(state.route == .login(.plain))
        type("ann@example.test", &state)
        #expect(ReaderAction.of(.select, in: state) == nil, "Enter in the email moves on")
        #expect(reduce(&state, .reader(.select)) == [])
        #expect(state.screen.selection.map { state.screen.rows[$0].choice } == .edit(.password))
        type("secret-1", &state)
        let logIn = AppEffect.logIn(email: "ann@example.test", password: "secret-1")
        #expect(ReaderAction.of(.select, in: state) == .logIn(email: "ann@example.test", password: "secret-1"))
        #expect(reduce(&state, .reader(.select)) == [logIn])
        #expect(state.operation == "Signing in")
    }

    @Test func enterOnAButtonOrAFieldBeforeAnotherIsTheChoiceItself() {
        let form: [Choice] = [.edit(.email), .edit(.password), .submitLogIn, .openSignup(.plain)]
        #expect(Choice.entered(at: 0, among: form) == .edit(.email))
        #expect(Choice.entered(at: 1, among: form) == .submitLogIn)
        #expect(Choice.entered(at: 2, among: form) == .submitLogIn)
        #expect(Choice.entered(at: 3, among: form) == .openSignup(.plain))
        #expect(Choice.entered(at: 0, among: [.edit(.gateAnswer)]) == .edit(.gateAnswer), "a field alone stays")
    }
}
