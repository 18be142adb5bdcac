import AppFlow
import Simulation

/// Each step as a person writes it in a scenario file: what `StepGrammar` reads back.
public enum StepText {
    /// Every reader action has its words, so a recording replays whatever the reader did.
    public static func reader(_ action: ReaderAction) -> String {
        switch action {
        case .openFeed: "open feed"
        case .openPaywall: "open paywall"
        case .openProfile: "open profile"
        case .openContent(let id): "open content \(id)"
        case .back: "back"
        case .selectOffer(let id): "select offer \(id)"
        case .doubleTapOffer(let id): "double-tap offer \(id)"
        case .subscribe: "subscribe"
        case .answerGate(nil): "answer gate"
        case .answerGate(let answer?): "answer gate \(QuotedWords.word(answer))"
        case .confirmPayment: "confirm payment"
        case .cancelPayment: "cancel payment"
        case .restore: "restore"
        case .logIn(let email, let password): "login \(QuotedWords.word(email)) \(QuotedWords.word(password))"
        case .signUp(let email, let password): "signup \(QuotedWords.word(email)) \(QuotedWords.word(password))"
        case .logOut: "logout"
        case .acceptTransfer: "accept transfer"
        case .declineTransfer: "decline transfer"
        case .manageSubscription: "manage subscription"
        case .setAutoRenew(let enabled, let productId):
            "\(enabled ? "resume" : "cancel") auto-renew" + (productId.map { " \($0)" } ?? "")
        case .openLogin: "open login"
        case .openSignup: "open signup"
        case .changePlan(let productId): "switch plan \(productId)"
        }
    }

    /// Any step's line, as the scenario would write it.
    public static func line(_ kind: StepKind) -> String {
        switch kind {
        case .setup(let setup): Self.setup(setup)
        case .launch: "launch"
        case .reader(let action): reader(action)
        case .world(let action): action.text
        case .expect(let expected): expectation(expected)
        }
    }

    public static func setup(_ step: SetupStep) -> String {
        switch step {
        case .app(let name): "app \(QuotedWords.word(name))"
        case .storekit(let path): "storekit \(QuotedWords.word(path))"
        case .seed(let seed): "seed \(seed)"
        case .device(let name): "device \(name)"
        case .appleId(let email): "apple-id \(email)"
        case .account(let email, let password): "account \(QuotedWords.word(email)) \(QuotedWords.word(password))"
        case .defect(let defect): "defect \(defect.rawValue)"
        case .restorePolicy(let policy): "restore-policy \(policy.rawValue)"
        case .adsForSubscribers(let shown): "ads-for-subscribers \(shown ? "shown" : "hidden")"
        case .refreshTokenLifetime(let lifetime): "refresh-token-lifetime \(lifetime)"
        }
    }

    public static func expectation(_ expectation: ScenarioExpectation) -> String {
        switch expectation {
        case .screen(let id): "expect screen \(id.rawValue)"
        case .offers(let ids): "expect offers \(ids.joined(separator: ", "))"
        case .levels(let levels): "expect levels \(levels.isEmpty ? "none" : levels.joined(separator: ", "))"
        case .identity(.none): "expect identity none"
        case .identity(.anonymous): "expect identity anonymous"
        case .identity(.account(let email)): "expect identity account \(QuotedWords.word(email))"
        case .content(let id, let unlocked): "expect content \(id) \(unlocked ? "unlocked" : "locked")"
        case .ads(let shown): "expect ads \(shown ? "shown" : "hidden")"
        case .alert(let text): "expect alert \"\(text)\""
        case .noAlert: "expect no alert"
        case .text(let text): "expect text \"\(text)\""
        case .noText(let text): "expect no text \"\(text)\""
        case .charges(let count, let appleId): "expect charges \(count)" + (appleId.map { " \($0)" } ?? "")
        case .pendingPayment: "expect pending payment"
        case .timeline(let text): "expect timeline \"\(text)\""
        case .timelineOnce(let text): "expect timeline once \"\(text)\""
        case .invariants: "expect invariants"
        case .nothingLost: "expect nothing lost"
        }
    }
}
