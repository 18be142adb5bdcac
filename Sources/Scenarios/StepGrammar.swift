import AppFlow
import SimKernel
import Simulation
import Subscriptions
import WhiteLabel

/// The words of each step kind, checked as far as they can be without a world.
enum StepGrammar {
    static func step(_ words: [String], rest: String) throws(StepError) -> StepKind {
        let arguments = Array(words.dropFirst())
        switch words[0] {
        case "account":
            // Credentials may be quoted: a recording writes a password with a space or a `#` so.
            let credentials = try QuotedWords.split(rest)
            guard credentials.count == 2 else { throw StepError("write account EMAIL PASSWORD") }
            if let problem = World.accountProblem(email: credentials[0], password: credentials[1]) {
                throw StepError("account: \(problem)")
            }
            return .setup(.account(email: credentials[0], password: credentials[1]))
        case "app", "storekit":
            // A path may be quoted: a recording of `run --storekit "My Products.storekit"` wrote it bare, and its
            // replay was refused at that line (session 33).
            let path = try QuotedWords.split(rest)
            let usage = words[0] == "app" ? "app NAME|PATH" : "storekit FILE.storekit"
            guard path.count == 1, !path[0].isEmpty else {
                throw StepError("write \(usage) (a path with spaces in double quotes)")
            }
            return .setup(words[0] == "app" ? .app(path[0]) : .storekit(path[0]))
        case "seed", "device", "apple-id", "defect", "restore-policy", "refresh-token-lifetime", "ads-for-subscribers":
            return .setup(try setup(words[0], arguments))
        case "launch":
            try count(arguments, 0, "launch")
            return .launch
        case "expect":
            return .expect(try ExpectationGrammar.expectation(arguments, rest: rest))
        default:
            // What the world's vocabulary does not start is the reader's.
            do {
                if let action = try WorldAction.parse(words, rest: rest) { return .world(action) }
            } catch {
                throw StepError(error.description)
            }
            if words[0] == "login" || words[0] == "signup" {
                let credentials = try QuotedWords.split(rest)
                guard credentials.count == 2 else { throw StepError("write \(words[0]) EMAIL PASSWORD") }
                return .reader(
                    words[0] == "login"
                        ? .logIn(email: credentials[0], password: credentials[1])
                        : .signUp(email: credentials[0], password: credentials[1]))
            }
            return .reader(try reader(words[0], arguments))
        }
    }

    private static func setup(_ word: String, _ arguments: [String]) throws(StepError) -> SetupStep {
        switch word {
        case "seed":
            guard let seed = UInt64(try single(arguments, "seed N")) else {
                throw StepError("seed takes a whole number, such as seed 7")
            }
            return .seed(seed)
        case "device": return .device(try single(arguments, "device NAME"))
        case "apple-id":
            let appleId = try single(arguments, "apple-id EMAIL")
            if let problem = AppleIdText.problem(appleId) { throw StepError("apple-id: \(problem)") }
            return .appleId(appleId)
        case "defect":
            let name = try single(arguments, "defect NAME")
            guard let defect = CoordinatorDefect(rawValue: name) else {
                let names = CoordinatorDefect.allCases.map(\.rawValue).joined(separator: ", ")
                throw StepError("unknown defect \"\(name)\" (defects: \(names))")
            }
            return .defect(defect)
        case "refresh-token-lifetime":
            let text = try single(arguments, "refresh-token-lifetime DURATION")
            guard let lifetime = SimDuration(text: text), lifetime > .zero else {
                throw StepError("\"\(text)\" is not a duration of at most ten years, such as 30d")
            }
            return .refreshTokenLifetime(lifetime)
        case "ads-for-subscribers":
            switch try single(arguments, "ads-for-subscribers shown|hidden") {
            case "shown": return .adsForSubscribers(shown: true)
            case "hidden": return .adsForSubscribers(shown: false)
            case let other: throw StepError("ads-for-subscribers takes shown or hidden, not \"\(other)\"")
            }
        default:
            let name = try single(arguments, "restore-policy NAME")
            guard let policy = RestorePolicy(rawValue: name) else {
                let names = RestorePolicy.allCases.map(\.rawValue).joined(separator: ", ")
                throw StepError("unknown restore policy \"\(name)\" (policies: \(names))")
            }
            return .restorePolicy(policy)
        }
    }

    private static func reader(_ word: String, _ arguments: [String]) throws(StepError) -> ReaderAction {
        switch (word, arguments) {
        case ("open", ["feed"]): return .openFeed
        case ("open", ["paywall"]): return .openPaywall
        case ("open", ["profile"]): return .openProfile
        case ("open", ["login"]): return .openLogin
        case ("open", ["signup"]): return .openSignup
        case ("open", _):
            guard arguments.count == 2, arguments[0] == "content" else {
                throw StepError(
                    "write open feed, open paywall, open profile, open login, open signup or open content ID")
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
            // With no text: a grown-up answers the question shown right (scenario files outlive the questions a seed
            // draws); with text, it is typed as is, `""` for the gate submitted empty.
            guard arguments.first == "gate" else { throw StepError("write answer gate or answer gate TEXT") }
            guard arguments.count > 1 else { return .answerGate(nil) }
            let text = arguments.dropFirst().joined(separator: " ")
            return .answerGate(try QuotedWords.split(text).joined(separator: " "))
        case ("confirm", ["payment"]): return .confirmPayment
        case ("cancel", ["payment"]): return .cancelPayment
        case ("cancel", ["auto-renew"]): return .setAutoRenew(false)
        case ("resume", ["auto-renew"]): return .setAutoRenew(true)
        case ("cancel", let words) where words.count == 2 && words[0] == "auto-renew":
            return .setAutoRenew(false, productId: words[1])
        case ("resume", let words) where words.count == 2 && words[0] == "auto-renew":
            return .setAutoRenew(true, productId: words[1])
        case ("restore", []): return .restore
        case ("logout", []): return .logOut
        case ("accept", ["transfer"]): return .acceptTransfer
        case ("decline", ["transfer"]): return .declineTransfer
        case ("manage", ["subscription"]): return .manageSubscription
        case ("switch", _):
            guard arguments.count == 2, arguments[0] == "plan" else { throw StepError("write switch plan PRODUCT") }
            return .changePlan(arguments[1])
        case ("open", _), ("back", _), ("subscribe", _), ("confirm", _), ("cancel", _), ("restore", _),
            ("logout", _), ("accept", _), ("decline", _), ("manage", _), ("resume", _):
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
