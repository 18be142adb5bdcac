import AppFlow
import SimKernel
import Simulation

/// Each step as a person writes it in a scenario file: what `StepGrammar` reads back.
public enum StepText {
    /// nil for what no step says: opening the log-in or sign-up form (the `login`/`signup` steps open
    /// it themselves), and turning auto-renew back on.
    public static func reader(_ action: ReaderAction) -> String? {
        switch action {
        case .openFeed: "open feed"
        case .openPaywall: "open paywall"
        case .openProfile: "open profile"
        case .openContent(let id): "open content \(id)"
        case .back: "back"
        case .selectOffer(let id): "select offer \(id)"
        case .doubleTapOffer(let id): "double-tap offer \(id)"
        case .subscribe: "subscribe"
        case .answerGate(let answer): "answer gate \(answer)"
        case .confirmPayment: "confirm payment"
        case .cancelPayment: "cancel payment"
        case .restore: "restore"
        case .logIn(let email, let password): "login \(email) \(password)"
        case .signUp(let email, let password): "signup \(email) \(password)"
        case .logOut: "logout"
        case .acceptTransfer: "accept transfer"
        case .declineTransfer: "decline transfer"
        case .manageSubscription: "manage subscription"
        case .setAutoRenew(false): "cancel auto-renew"
        case .changePlan(let productId): "switch plan \(productId)"
        case .openLogin, .openSignup, .setAutoRenew(true): nil
        }
    }

    public static func world(_ step: WorldStep) -> String {
        switch step {
        case .advance(.fixed(let duration)): "advance \(durationText(duration))"
        case .advance(.months(let months)): "advance \(months)mo"
        case .store(let event): "store \(event.rawValue)"
        case .parentApprove: "parent approve"
        case .parentDecline: "parent decline"
        case .background: "background"
        case .foreground: "foreground"
        case .restartApp: "restart app"
        case .newDevice(let name): "new device \(name)"
        case .kill: "kill"
        case .askToBuy(let on): "ask-to-buy \(on ? "on" : "off")"
        case .payments(let allowed): "payments \(allowed ? "allowed" : "restricted")"
        case .removeReceipt: "remove receipt"
        case .clearFaults(let target): "clear faults \(target)"
        case .changePlan(let change, let product): "store \(change.rawValue) \(product)"
        case .priceIncrease(let product, let price): "store price-increase \(product) \(price)"
        case .transaction(let control, let id): "store \(control.rawValue) \(id)"
        }
    }

    /// In the largest unit that divides it: `2d`, `90m`, `500ms`.
    static func durationText(_ duration: SimDuration) -> String {
        let units: [(suffix: String, millis: Int64)] = [
            ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
        ]
        let millis = duration.milliseconds
        for unit in units where millis % unit.millis == 0 && millis > 0 {
            return "\(millis / unit.millis)\(unit.suffix)"
        }
        return "\(millis)ms"
    }

    public static func setup(_ step: SetupStep) -> String {
        switch step {
        case .app(let name): "app \(name)"
        case .storekit(let path): "storekit \(path)"
        case .seed(let seed): "seed \(seed)"
        case .storefront(let code): "storefront \(code)"
        case .locale(let id): "locale \(id)"
        case .device(let name): "device \(name)"
        case .appleId(let email): "apple-id \(email)"
        case .account(let email, let password): "account \(email) \(password)"
        case .latency(let profile): "latency \(profile.name)"
        case .inject(let plan): "inject \(plan.rules.map(\.description).joined(separator: "; "))"
        case .defect(let defect): "defect \(defect.rawValue)"
        case .finish(let policy): "finish \(policy == .beforeServerCheck ? "before" : "after")"
        case .restorePolicy(let policy): "restore-policy \(policy.rawValue)"
        }
    }

    public static func expectation(_ expectation: ScenarioExpectation) -> String {
        switch expectation {
        case .screen(let id): "expect screen \(id.rawValue)"
        case .offers(let ids): "expect offers \(ids.joined(separator: ", "))"
        case .levels(let levels): "expect levels \(levels.isEmpty ? "none" : levels.joined(separator: ", "))"
        case .identity(.none): "expect identity none"
        case .identity(.anonymous): "expect identity anonymous"
        case .identity(.account(let email)): "expect identity account \(email)"
        case .content(let id, let unlocked): "expect content \(id) \(unlocked ? "unlocked" : "locked")"
        case .ads(let shown): "expect ads \(shown ? "shown" : "hidden")"
        case .alert(let text): "expect alert \"\(text)\""
        case .noAlert: "expect no alert"
        case .text(let text): "expect text \"\(text)\""
        case .charges(let count): "expect charges \(count)"
        case .pendingPayment: "expect pending payment"
        case .timeline(let text): "expect timeline \"\(text)\""
        case .invariants: "expect invariants"
        case .nothingLost: "expect nothing lost"
        }
    }
}
