import SimKernel
import StoreSim
import Subscriptions
import WhiteLabel

/// A world action's words, as a person writes them in a scenario: `text` prints what `parse` reads back.
/// Both directions live here, so a new action's words are written once.
extension WorldAction {
    public var text: String {
        switch self {
        case .advance(.fixed(let duration)): "advance \(Self.durationText(duration))"
        case .advance(.months(let months)): "advance \(months)mo"
        case .renew: "store renew"
        case .expire: "store expire"
        case .refund: "store refund"
        case .revoke: "store revoke"
        case .billingIssue(true): "store billing-issue"
        case .billingIssue(false): "store recover"
        case .billingIssueWith(let grace): "store billing-issue \(grace ? "grace" : "no-grace")"
        case .resolveInterrupted: "store resolve-interrupted"
        case .priceIncrease: "store price-increase"
        case .raisePrice(let product, let price): "store price-increase \(product) \(price)"
        case .changePlan(let change, let product): "store \(change.rawValue) \(product)"
        case .transaction(let control, let id): "store \(control.rawValue) \(id)"
        case .nextPurchase(let outcome): "next purchase \(outcome.rawValue)"
        case .clearFaults(let target): "clear faults \(target)"
        case .askToBuy(let on): "ask-to-buy \(on ? "on" : "off")"
        case .parentApprove: "parent approve"
        case .parentDecline: "parent decline"
        case .background: "background"
        case .foreground: "foreground"
        case .restartApp: "restart app"
        case .newDevice(let name): "new device \(name)"
        case .phone(let name): "phone \(name)"
        case .kill: "kill"
        case .payments(let allowed): "payments \(allowed ? "allowed" : "restricted")"
        case .readerAge(let age): "reader-age \(age.map(String.init) ?? "adult")"
        case .removeReceipt: "remove receipt"
        case .redeemCode(let code): "redeem code \(code)"
        case .familyAdd(let member): "family add \(member)"
        case .familyRemove(let member): "family remove \(member)"
        case .familySharing(let on): "family sharing \(on ? "on" : "off")"
        case .storefront(let code): "storefront \(code)"
        case .locale(let id): "locale \(id)"
        case .latency(let profile): "latency \(profile.name)"
        case .inject(let plan): "inject \(plan.rules.map(\.description).joined(separator: "; "))"
        case .finish(let policy): "finish \(policy == .beforeServerCheck ? "before" : "after")"
        }
    }

    /// What Apple does, after `store`.
    private static let storeWords: [(word: String, action: WorldAction)] = [
        ("renew", .renew), ("expire", .expire), ("refund", .refund), ("revoke", .revoke),
        ("billing-issue", .billingIssue(true)), ("recover", .billingIssue(false)),
        ("resolve-interrupted", .resolveInterrupted), ("price-increase", .priceIncrease),
    ]

    /// Reads a step's words (`rest`: the line after the first word, for `inject`'s rules); nil when the
    /// first word starts no world action, so the caller tries a reader's step.
    public static func parse(_ words: [String], rest: String) throws(WorldActionTextError) -> WorldAction? {
        guard let word = words.first else { return nil }
        let arguments = Array(words.dropFirst())
        switch (word, arguments) {
        case ("advance", _):
            return .advance(try advance(try single(arguments, "advance DURATION (30s, 5m, 2h, 3d, 1mo)")))
        case ("store", _):
            if arguments.count > 1 { return try storeControl(arguments) }
            guard arguments.count == 1, let found = storeWords.first(where: { $0.word == arguments[0] }) else {
                throw WorldActionTextError("write store \(storeWords.map(\.word).joined(separator: "|"))")
            }
            return found.action
        case ("next", _):
            let names = NextPurchase.allCases.map(\.rawValue).joined(separator: "|")
            guard arguments.count == 2, arguments[0] == "purchase", let outcome = NextPurchase(rawValue: arguments[1])
            else { throw WorldActionTextError("write next purchase \(names)") }
            return .nextPurchase(outcome)
        case ("clear", _):
            guard arguments.count == 2, arguments[0] == "faults" else {
                throw WorldActionTextError("write clear faults TARGET")
            }
            // Known when the file is read, as `inject`'s targets are: not a failed step halfway through the run.
            guard StoreFaultTarget(rawValue: arguments[1]) != nil else {
                let targets = StoreFaultTarget.allCases.map(\.rawValue).joined(separator: ", ")
                throw WorldActionTextError(
                    "clear faults takes an App Store fault target (\(targets)), not \"\(arguments[1])\"")
            }
            return .clearFaults(arguments[1])
        case ("ask-to-buy", ["on"]), ("ask-to-buy", ["off"]): return .askToBuy(arguments == ["on"])
        case ("ask-to-buy", _): throw WorldActionTextError("write ask-to-buy on or ask-to-buy off")
        case ("parent", ["approve"]): return .parentApprove
        case ("parent", ["decline"]): return .parentDecline
        case ("parent", _): throw WorldActionTextError("write parent approve or parent decline")
        case ("background", []): return .background
        case ("foreground", []): return .foreground
        case ("restart", ["app"]): return .restartApp
        case ("new", _):
            guard arguments.count == 2, arguments[0] == "device" else {
                throw WorldActionTextError("write new device NAME")
            }
            return .newDevice(arguments[1])
        case ("phone", _): return .phone(try single(arguments, "phone NAME (a phone the world has)"))
        case ("kill", []): return .kill
        case ("payments", ["allowed"]), ("payments", ["restricted"]):
            return .payments(allowed: arguments == ["allowed"])
        case ("payments", _): throw WorldActionTextError("write payments allowed or payments restricted")
        case ("reader-age", ["adult"]): return .readerAge(nil)
        case ("reader-age", _):
            guard arguments.count == 1, let age = Int(arguments[0]), (0...150).contains(age) else {
                throw WorldActionTextError("write reader-age N (years, 0 to 150) or reader-age adult")
            }
            return .readerAge(age)
        case ("remove", ["receipt"]): return .removeReceipt
        case ("remove", _): throw WorldActionTextError("write remove receipt")
        case ("redeem", _):
            guard arguments.count >= 2, arguments[0] == "code" else {
                throw WorldActionTextError("write redeem code CODE")
            }
            return .redeemCode(arguments.dropFirst().joined(separator: " "))
        case ("family", _) where arguments.count == 2 && ["add", "remove"].contains(arguments[0]):
            if let problem = AppleIdText.problem(arguments[1]) {
                throw WorldActionTextError("family \(arguments[0]): \(problem)")
            }
            return arguments[0] == "add" ? .familyAdd(arguments[1]) : .familyRemove(arguments[1])
        case ("family", ["sharing", "on"]), ("family", ["sharing", "off"]): return .familySharing(arguments[1] == "on")
        case ("family", _):
            throw WorldActionTextError("write family add APPLE_ID, family remove APPLE_ID or family sharing on|off")
        case ("storefront", _):
            let code = try single(arguments, "storefront CODE (USA, GBR, …)")
            guard Storefront.named(code) != nil else {
                let known = Storefront.known.map(\.countryCode).joined(separator: ", ")
                throw WorldActionTextError("unknown storefront \"\(code)\" (storefronts: \(known))")
            }
            return .storefront(code)
        case ("locale", _): return .locale(try single(arguments, "locale ID (en_US, …)"))
        case ("latency", _):
            let name = try single(arguments, "latency PROFILE")
            guard let profile = LatencyProfile.all.first(where: { $0.name == name }) else {
                let names = LatencyProfile.all.map(\.name).joined(separator: ", ")
                throw WorldActionTextError("unknown latency profile \"\(name)\" (profiles: \(names))")
            }
            return .latency(profile)
        case ("inject", _): return .inject(try faultPlan(rest))
        case ("finish", _):
            let when = try single(arguments, "finish before|after (the server check)")
            guard let policy = finishPolicy(when) else {
                throw WorldActionTextError("unknown finish \"\(when)\" (write finish before or finish after)")
            }
            return .finish(policy)
        case ("background", _), ("foreground", _), ("restart", _), ("kill", _):
            throw WorldActionTextError("\(word) takes no arguments here")
        default: return nil
        }
    }

    /// The store's words that name what they act on: a plan change, a new price, one transaction.
    private static func storeControl(_ arguments: [String]) throws(WorldActionTextError) -> WorldAction {
        let word = arguments[0]
        if word == "billing-issue" {
            guard arguments.count == 2, let grace = ["grace": true, "no-grace": false][arguments[1]] else {
                throw WorldActionTextError(
                    "\"\(arguments.dropFirst().joined(separator: " "))\" is not a grace period: write store billing-issue "
                        + "(the .storekit file's or config's grace period), store billing-issue grace or "
                        + "store billing-issue no-grace")
            }
            return .billingIssueWith(grace: grace)
        }
        if let change = PlanChange(rawValue: word) {
            guard arguments.count == 2 else { throw WorldActionTextError("write store \(word) PRODUCT") }
            return .changePlan(change, arguments[1])
        }
        if word == "price-increase" {
            guard arguments.count == 3 else {
                throw WorldActionTextError("write store price-increase PRODUCT PRICE, the price as 12.99")
            }
            // The config's rule: "5,99" was read as 5, "1e3" as 1000 and twenty digits taken (session 26).
            guard DemoConfigLoader.isPrice(arguments[2]), let price = Catalog.decimal(arguments[2]), price > 0 else {
                throw WorldActionTextError(
                    "\"\(arguments[2])\" is not a decimal price above 0 such as 12.99: "
                        + "write store price-increase PRODUCT PRICE")
            }
            return .raisePrice(product: arguments[1], price: price)
        }
        guard let control = TransactionControl(rawValue: word), arguments.count == 2 else {
            let names = TransactionControl.allCases.map(\.rawValue).joined(separator: "|")
            throw WorldActionTextError("write store \(names) ID, or store upgrade|downgrade|crossgrade PRODUCT")
        }
        return .transaction(control, arguments[1])
    }

    /// `30s`, `2d` as `SimDuration` reads them, `1mo` for calendar months and `1y` for twelve of them.
    public static func advance(_ text: String) throws(WorldActionTextError) -> Advance {
        var months: Int?
        if text.hasSuffix("mo"), let count = Int(text.dropLast(2)), count > 0 { months = count }
        if text.hasSuffix("y"), let years = Int(text.dropLast()), years > 0 {
            months = years.multipliedReportingOverflow(by: 12).overflow ? Int.max : years * 12
        }
        if let months {
            guard months <= CalendarPeriod.most[.month]! else {
                throw WorldActionTextError("\"\(text)\" is longer than 120mo (10y)")
            }
            return .months(months)
        }
        guard let duration = SimDuration(text: text), duration > .zero else {
            throw WorldActionTextError(
                "\"\(text)\" is not a duration of at most ten years: write 500ms, 30s, 5m, 2h, 3d (up to 3660d), 1mo or 1y"
            )
        }
        return .fixed(duration)
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

    /// `before`/`after`, or the coordinator's own names (`before-server-check`…).
    public static func finishPolicy(_ text: String) -> SubscriptionCoordinator.FinishPolicy? {
        switch text {
        case "before": .beforeServerCheck
        case "after": .afterServerCheck
        default: SubscriptionCoordinator.FinishPolicy(rawValue: text)
        }
    }

    /// Rules whose target and fault the store or the backend define, so a typo is a malformed file.
    private static func faultPlan(_ text: String) throws(WorldActionTextError) -> FaultPlan {
        do throws(FaultPlanError) {
            let plan = try FaultPlan.parse(text)
            for rule in plan.rules {
                try NotificationFaultSides.check(rule)
                if StoreFaultTarget(rawValue: rule.target) != nil {
                    _ = try StoreFault(rule)
                } else if BackendFault.targets.contains(rule.target) {
                    try BackendFault.validate(rule)
                } else {
                    let targets = StoreFaultTarget.allCases.map(\.rawValue) + BackendFault.targets
                    throw FaultPlanError(
                        "\"\(rule.targetAndFault)\": unknown target (targets: \(targets.joined(separator: ", ")); see play --list-faults)"
                    )
                }
            }
            return plan
        } catch {
            throw WorldActionTextError(error.description)
        }
    }

    private static func single(_ arguments: [String], _ usage: String) throws(WorldActionTextError) -> String {
        guard arguments.count == 1 else { throw WorldActionTextError("write \(usage)") }
        return arguments[0]
    }
}

/// Words that start a world action but do not say one, in words a person can act on.
public struct WorldActionTextError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
