import AppFlow
import SimKernel
import Simulation
import StoreSim
import Subscriptions
import WhiteLabel

/// The words of each step kind, checked as far as they can be without a world.
enum StepGrammar {
    static func step(_ words: [String], rest: String) throws(StepError) -> StepKind {
        let arguments = Array(words.dropFirst())
        switch words[0] {
        case "app", "storekit", "seed", "storefront", "locale", "device", "apple-id", "account", "latency", "inject",
            "defect", "finish", "restore-policy":
            return .setup(try setup(words[0], arguments, rest: rest))
        case "launch":
            try count(arguments, 0, "launch")
            return .launch
        case "expect":
            return .expect(try ExpectationGrammar.expectation(arguments, rest: rest))
        case "advance", "store", "parent", "background", "foreground", "restart", "new", "kill", "ask-to-buy",
            "payments", "remove", "clear":
            return .world(try world(words[0], arguments))
        default:
            return .reader(try reader(words[0], arguments))
        }
    }

    private static func setup(_ word: String, _ arguments: [String], rest: String) throws(StepError) -> SetupStep {
        switch word {
        case "app": return .app(try single(arguments, "app NAME|PATH"))
        case "storekit": return .storekit(try single(arguments, "storekit FILE.storekit"))
        case "seed":
            guard let seed = UInt64(try single(arguments, "seed N")) else {
                throw StepError("seed takes a whole number, such as seed 7")
            }
            return .seed(seed)
        case "storefront": return .storefront(try single(arguments, "storefront CODE (USA, GBR, …)"))
        case "locale": return .locale(try single(arguments, "locale ID (en_US, …)"))
        case "device": return .device(try single(arguments, "device NAME"))
        case "apple-id": return .appleId(try single(arguments, "apple-id EMAIL"))
        case "account":
            guard arguments.count == 2 else { throw StepError("write account EMAIL PASSWORD") }
            return .account(email: arguments[0], password: arguments[1])
        case "latency":
            let name = try single(arguments, "latency PROFILE")
            guard let profile = LatencyProfile.all.first(where: { $0.name == name }) else {
                let names = LatencyProfile.all.map(\.name).joined(separator: ", ")
                throw StepError("unknown latency profile \"\(name)\" (profiles: \(names))")
            }
            return .latency(profile)
        case "finish":
            let when = try single(arguments, "finish before|after (the server check)")
            guard let policy = finishPolicy(when) else {
                throw StepError("unknown finish \"\(when)\" (write finish before or finish after)")
            }
            return .finish(policy)
        case "restore-policy":
            let name = try single(arguments, "restore-policy NAME")
            guard let policy = RestorePolicy(rawValue: name) else {
                let names = RestorePolicy.allCases.map(\.rawValue).joined(separator: ", ")
                throw StepError("unknown restore policy \"\(name)\" (policies: \(names))")
            }
            return .restorePolicy(policy)
        case "defect":
            let name = try single(arguments, "defect NAME")
            guard let defect = CoordinatorDefect(rawValue: name) else {
                let names = CoordinatorDefect.allCases.map(\.rawValue).joined(separator: ", ")
                throw StepError("unknown defect \"\(name)\" (defects: \(names))")
            }
            return .defect(defect)
        default:
            do {
                let plan = try FaultPlan.parse(rest)
                for rule in plan.rules { try check(rule) }
                return .inject(plan)
            } catch {
                throw StepError(error.description)
            }
        }
    }

    /// `before`/`after`, or the coordinator's own names (`before-server-check`…).
    static func finishPolicy(_ text: String) -> SubscriptionCoordinator.FinishPolicy? {
        switch text {
        case "before": .beforeServerCheck
        case "after": .afterServerCheck
        default: SubscriptionCoordinator.FinishPolicy(rawValue: text)
        }
    }

    /// A rule's target and fault as the store or the backend define them, so a typo is a malformed file.
    private static func check(_ rule: FaultRule) throws(FaultPlanError) {
        if StoreFaultTarget(rawValue: rule.target) != nil {
            _ = try StoreFault(rule)
        } else if BackendFault.targets.contains(rule.target) {
            try BackendFault.validate(rule)
        } else {
            let targets = StoreFaultTarget.allCases.map(\.rawValue) + BackendFault.targets
            throw FaultPlanError(
                "\"\(rule)\": unknown target (targets: \(targets.joined(separator: ", ")); see play --list-faults)")
        }
    }

    private static func world(_ word: String, _ arguments: [String]) throws(StepError) -> WorldStep {
        switch (word, arguments) {
        case ("advance", _):
            return .advance(try advance(try single(arguments, "advance DURATION (30s, 5m, 2h, 3d, 1mo)")))
        case ("store", _):
            if arguments.count > 1 { return try storeControl(arguments) }
            let names = StoreEvent.allCases.map(\.rawValue).joined(separator: "|")
            guard arguments.count == 1, let event = StoreEvent(rawValue: arguments[0]) else {
                throw StepError("write store \(names), or store CONTROL ID, store upgrade PRODUCT…")
            }
            return .store(event)
        case ("parent", ["approve"]): return .parentApprove
        case ("parent", ["decline"]): return .parentDecline
        case ("parent", _): throw StepError("write parent approve or parent decline")
        case ("background", []): return .background
        case ("foreground", []): return .foreground
        case ("restart", ["app"]): return .restartApp
        case ("new", _):
            guard arguments.count == 2, arguments[0] == "device" else { throw StepError("write new device NAME") }
            return .newDevice(arguments[1])
        case ("kill", []): return .kill
        case ("ask-to-buy", ["on"]), ("ask-to-buy", ["off"]): return .askToBuy(arguments == ["on"])
        case ("ask-to-buy", _): throw StepError("write ask-to-buy on or ask-to-buy off")
        case ("payments", ["allowed"]), ("payments", ["restricted"]):
            return .payments(allowed: arguments == ["allowed"])
        case ("payments", _): throw StepError("write payments allowed or payments restricted")
        case ("remove", ["receipt"]): return .removeReceipt
        case ("remove", _): throw StepError("write remove receipt")
        case ("clear", _):
            guard arguments.count == 2, arguments[0] == "faults" else { throw StepError("write clear faults TARGET") }
            return .clearFaults(arguments[1])
        default: throw StepError("\(word) takes no arguments here")
        }
    }

    /// The store's steps that name what they act on: a plan change, a price, a transaction.
    private static func storeControl(_ arguments: [String]) throws(StepError) -> WorldStep {
        let word = arguments[0]
        if let change = PlanChange(rawValue: word) {
            guard arguments.count == 2 else { throw StepError("write store \(word) PRODUCT") }
            return .changePlan(change, arguments[1])
        }
        if word == StoreEvent.priceIncrease.rawValue {
            guard arguments.count == 3, let price = Catalog.decimal(arguments[2]), price > 0 else {
                throw StepError("write store price-increase PRODUCT PRICE, the price as 12.99")
            }
            return .priceIncrease(product: arguments[1], price: price)
        }
        guard let control = TransactionControl(rawValue: word), arguments.count == 2 else {
            let names = TransactionControl.allCases.map(\.rawValue).joined(separator: "|")
            throw StepError("write store \(names) ID, or store upgrade|downgrade|crossgrade PRODUCT")
        }
        return .transaction(control, arguments[1])
    }

    /// `30s`, `2d` as `SimDuration` reads them, and `1mo` for calendar months.
    static func advance(_ text: String) throws(StepError) -> Advance {
        if text.hasSuffix("mo"), let months = Int(text.dropLast(2)), months > 0 {
            guard months <= CalendarPeriod.most[.month]! else { throw StepError("\"\(text)\" is longer than 120mo") }
            return .months(months)
        }
        guard let duration = SimDuration(text: text), duration > .zero else {
            throw StepError(
                "\"\(text)\" is not a duration of at most ten years: write 500ms, 30s, 5m, 2h, 3d (up to 3660d) or 1mo")
        }
        return .fixed(duration)
    }

    private static func reader(_ word: String, _ arguments: [String]) throws(StepError) -> ReaderAction {
        switch (word, arguments) {
        case ("open", ["feed"]): return .openFeed
        case ("open", ["paywall"]): return .openPaywall
        case ("open", ["profile"]): return .openProfile
        case ("open", _):
            guard arguments.count == 2, arguments[0] == "content" else {
                throw StepError("write open feed, open paywall, open profile or open content ID")
            }
            return .openContent(arguments[1])
        case ("back", []): return .back
        case ("select", _):
            guard arguments.count == 2, arguments[0] == "offer" else { throw StepError("write select offer ID") }
            return .selectOffer(arguments[1])
        case ("double-tap", _):
            guard arguments.count == 2, arguments[0] == "offer" else { throw StepError("write double-tap offer ID") }
            return .doubleTapOffer(arguments[1])
        case ("subscribe", []): return .subscribe
        case ("answer", _):
            guard arguments.count >= 2, arguments[0] == "gate" else { throw StepError("write answer gate TEXT") }
            return .answerGate(arguments.dropFirst().joined(separator: " "))
        case ("confirm", ["payment"]): return .confirmPayment
        case ("cancel", ["payment"]): return .cancelPayment
        case ("cancel", ["auto-renew"]): return .setAutoRenew(false)
        case ("restore", []): return .restore
        case ("login", _), ("signup", _):
            guard arguments.count == 2 else { throw StepError("write \(word) EMAIL PASSWORD") }
            return word == "login"
                ? .logIn(email: arguments[0], password: arguments[1])
                : .signUp(email: arguments[0], password: arguments[1])
        case ("logout", []): return .logOut
        case ("accept", ["transfer"]): return .acceptTransfer
        case ("decline", ["transfer"]): return .declineTransfer
        case ("manage", ["subscription"]): return .manageSubscription
        case ("switch", _):
            guard arguments.count == 2, arguments[0] == "plan" else { throw StepError("write switch plan PRODUCT") }
            return .changePlan(arguments[1])
        case ("open", _), ("back", _), ("subscribe", _), ("confirm", _), ("cancel", _), ("restore", _),
            ("logout", _), ("accept", _), ("decline", _), ("manage", _):
            throw StepError("\(word) is not written this way; see the step list in `paywall-sim play --help`")
        default:
            throw StepError("unknown step \"\(word)\"; see the step list in `paywall-sim play --help`")
        }
    }

    static func single(_ arguments: [String], _ usage: String) throws(StepError) -> String {
        guard arguments.count == 1 else { throw StepError("write \(usage)") }
        return arguments[0]
    }

    static func count(_ arguments: [String], _ expected: Int, _ usage: String) throws(StepError) {
        guard arguments.count == expected else { throw StepError("write \(usage)") }
    }
}
