import AppFlow
import FoundationEssentials
import Scenarios
import SimKernel
import Simulation
import StoreSim
import WhiteLabel

/// Picks the next step of a random session from what the world shows now, so most steps can be
/// done: a reader acts on the screen in front of them; a parent, Apple, the network, the phone
/// or time act whenever they like.
struct StepGenerator {
    var random: SeededGenerator
    /// Steps already decided, done before any new draw: the second tap of a double tap, the rest of a
    /// sequence (a fault, then a parent's approval; two accounts in turn).
    private var planned: [SessionStep] = []

    init(random: SeededGenerator) {
        self.random = random
    }

    /// Emails the sessions use: the first exists on the backend from the setup, the second does not.
    static let knownAccount = (email: "ana@fuzz.test", password: "password-ana")
    static let newAccount = (email: "ben@fuzz.test", password: "password-ben")

    /// The phone's languages a session draws from: one locale of each language Apple's sheets are written in
    /// (`StoreWords.languages`), so every check that reads what the reader reads is run in each (session 33).
    static let locales = StoreWords.languages.map(StoreWords.locale(of:))

    /// The steps before launch: app, seed, latency, the phone's language, and a few faults.
    mutating func setup(app: String) -> [StepKind] {
        let seed = random.next() % 100_000
        var steps: [StepKind] = [.setup(.app(app)), .setup(.seed(seed))]
        steps += Self.ownerChoices(seed: seed)
        steps.append(.world(.latency(pick([.fast, .fast, .typical, .slow, .flaky]))))
        steps.append(.world(.locale(pick(Self.locales))))
        if chance(0.5) {
            steps.append(.setup(.account(email: Self.knownAccount.email, password: Self.knownAccount.password)))
        }
        for _ in 0..<Int(random.next() % 3) { steps.append(.world(.inject(faultPlan()))) }
        steps.append(.launch)
        return steps
    }

    /// The owner's choices the demo configs never make, each drawn for one session in four: every app that shows ads
    /// hides them from subscribers, so an app that hid them from every subscriber whatever the owner chose held every
    /// invariant (session 35, h455); no demo app keeps a restored purchase with its owner, or moves it only from an
    /// owner with nothing active, and none finishes Apple's transaction after the server check, so the rules and
    /// promises of those choices were never judged (session 35). Drawn from the world's seed, not the session's
    /// draws, so a session that keeps the config's choices takes the same steps as before; each choice from its own
    /// draw, in a fixed order, so the ads draw is the one it was.
    static func ownerChoices(seed: UInt64) -> [StepKind] {
        var owner = SeededGenerator(seed: seed ^ 0x0A_D5_F0_55)
        var choices: [StepKind] = []
        if owner.next() % 4 == 0 { choices.append(.setup(.adsForSubscribers(shown: true))) }
        switch owner.next() % 8 {
        case 0: choices.append(.setup(.restorePolicy(.keepWithOriginalOwner)))
        case 1: choices.append(.setup(.restorePolicy(.transferIfOwnerInactive)))
        default: break
        }
        if owner.next() % 4 == 0 { choices.append(.world(.finish(.afterServerCheck))) }
        return choices
    }

    /// One step for the world as it is now.
    /// One step in ten does not wait: the next comes while answers are still on their way.
    mutating func next(for world: World) -> SessionStep {
        if !planned.isEmpty { return planned.removeFirst() }
        if let interruption = interruption(world) { return SessionStep(kind: interruption) }
        let kind: StepKind = chance(0.3) ? outside(world) : .reader(readerAction(world))
        // A double tap: the same button again before the first answer came back.
        if case .reader(let action) = kind, chance(Self.isButton(action) ? 0.12 : 0.03) {
            planned.append(SessionStep(kind: kind))
            return SessionStep(kind: kind, waits: false)
        }
        // A setting (`inject`, `storefront`) always waits and draws nothing, so a seed's sessions stay what they were.
        return SessionStep(kind: kind, waits: !kind.isAction || kind.configures || !chance(0.1))
    }

    /// The buttons whose second tap starts a second request when the app does not guard it.
    private static func isButton(_ action: ReaderAction) -> Bool {
        switch action {
        case .restore, .acceptTransfer, .declineTransfer, .logIn, .signUp, .logOut, .confirmPayment, .subscribe:
            true
        default:
            false
        }
    }

    /// In an app that requires an account after subscribing, the app is often quit while a purchase,
    /// a restore or a sign-in runs, or while the account is asked for: every stage gets interrupted.
    private mutating func interruption(_ world: World) -> StepKind? {
        let state = world.appState
        guard world.config.app.account.mode == .requiredAfterSubscribing, world.isAppRunning,
            state.purchase != nil || state.operation != nil || state.route == .accountRequired
                || state.paymentSheet != nil,
            chance(0.15)
        else { return nil }
        return .world(pick([.restartApp, .kill]))
    }

    // MARK: - The reader

    private mutating func readerAction(_ world: World) -> ReaderAction {
        let state = world.appState
        // A reader without access on a phone of an Apple ID that pays (a new phone, a lost identity) restores.
        if state.access.isKnown, state.access.levels.isEmpty, chance(0.15), !world.paidSubscriptions.isEmpty {
            guard world.screenID == .profile || world.screenID == .paywall else {
                if chance(0.3) { planned.append(SessionStep(kind: .reader(.restore), waits: false)) }
                planned.append(SessionStep(kind: .reader(.restore)))
                return .openProfile
            }
            return .restore
        }
        let content = state.app.content.map(\.id)
        var anywhere: [ReaderAction] = [
            .openFeed, .openProfile, .openContent(pick(content)), .openContent(pick(content)),
        ]
        if state.stack.count > 1 { anywhere.append(.back) }
        if state.app.content.contains(where: { !state.access.unlocks($0.requiredLevels) }) {
            anywhere += [.openPaywall, .openPaywall]
        }
        if !state.isSignedIn { anywhere += [credentials(login: true), credentials(login: false)] }
        switch world.screenID {
        case .appStoreSheet:
            return pick([.confirmPayment, .confirmPayment, .confirmPayment, .cancelPayment])
        case .parentalGate:
            // A grown-up's right answer to whatever it asks (kept right when the shrinker's cuts change the
            // questions drawn), or a child's guess below any product it asks.
            return .answerGate(chance(0.8) ? nil : "12")
        case .transferPrompt:
            return pick([.acceptTransfer, .acceptTransfer, .declineTransfer])
        case .paywall:
            // Readers who reach the paywall mostly buy: that is where the after-sale begins.
            guard let offers = state.paywallOffers, !offers.isEmpty, chance(0.6) else {
                return pick([.restore] + anywhere)
            }
            let offer = pick(offers).id
            return chance(0.85) ? .selectOffer(offer) : .doubleTapOffer(offer)
        case .manageSubscription:
            // Auto-renew of a subscription Apple's sheet lists, another plan of its group (issue 15), or the plan it is
            // on while a change waits (to keep it). A family share has nothing to press.
            let sheet = (state.manageSheet ?? []).filter { !$0.sharedByFamily }
            let switches = state.switchablePlans.map { ReaderAction.changePlan($0.productId) }
            let renewal = sheet.map {
                ReaderAction.setAutoRenew(!$0.willAutoRenew, productId: sheet.count > 1 ? $0.productId : nil)
            }
            return pick(renewal + [.back, .openFeed] + switches + switches)
        case .profile:
            var here: [ReaderAction] = [.restore]
            if state.isSignedIn { here.append(.logOut) }
            if state.access.isSubscriber { here.append(.manageSubscription) }
            return pick(here + anywhere)
        case .content where state.row(doing: .subscribe, on: world.screen) != nil:
            return chance(0.5) ? .subscribe : pick(anywhere)
        case .accountRequired where state.isSignedIn:
            // A move that failed: the request offers it again, reading on without it, or a log-out.
            return pick([.acceptTransfer, .declineTransfer, .logOut, .back])
        case .login, .signup, .accountRequired:
            return pick([credentials(login: true), credentials(login: false), .back])
        default:
            return pick(anywhere)
        }
    }

    /// Mostly the right credentials, sometimes a wrong password.
    private mutating func credentials(login: Bool) -> ReaderAction {
        let account = chance(0.5) ? Self.knownAccount : Self.newAccount
        let password = chance(0.85) ? account.password : "wrong-password"
        return login
            ? .logIn(email: account.email, password: password) : .signUp(email: account.email, password: password)
    }

    // MARK: - Everyone else

    private mutating func outside(_ world: World) -> StepKind {
        switch random.next() % 19 {
        case 0, 1: return .world(.advance(pick([.fixed(.hours(1)), .fixed(.days(1)), .fixed(.days(3))])))
        case 2: return .world(.advance(.months(1)))
        case 3: return .world(pick(Self.apple))
        // A billing issue as the file says, or with or without Apple's grace period whatever it says (session 32).
        case 4:
            return .world(
                pick([
                    .renew, .refund, .billingIssue(true), .billingIssue(false), .billingIssueWith(grace: true),
                    .billingIssueWith(grace: false),
                ]))
        case 5: return released(world)
        // Sometimes a child holds the phone: every purchase then passes the parental gate, in any app.
        case 6: return chance(0.25) ? .world(.readerAge(pick([10, 15, 17, 18, nil]))) : .world(.foreground)
        // Sometimes Screen Time turns payments off (or on again): the app must say so before any gate or sheet.
        case 7: return chance(0.15) ? .world(.payments(allowed: !world.canMakePayments)) : .world(.background)
        case 8: return .world(.restartApp)
        case 9: return .world(.kill)
        case 10: return .world(.newDevice("phone-\(random.next() % 1000)"))
        case 11: return .world(.inject(faultPlan()))
        case 12 where world.storefronts.count > 1: return .world(.storefront(pick(world.storefronts)))
        case 13:
            // Past a year: anonymous tokens, refresh tokens and yearly plans all run out on the way.
            return .world(
                .advance(pick([.fixed(.days(200)), .fixed(.days(366)), .fixed(.days(400)), .months(6), .months(13)])))
        case 14: return twoAccounts(world)
        case 15: return heldPayment()
        case 16: return family(world)
        // Only an app whose catalog has offer codes: the others' sessions draw as before.
        case 17 where !world.offerCodes.isEmpty: return .world(.redeemCode(pick(world.offerCodes)))
        case 18: return transactionManager(world)
        default: return .reader(readerAction(world))
        }
    }

    /// What Apple does to the reader's subscriptions, in the order the draws have always used.
    private static let apple: [WorldAction] = [
        .renew, .expire, .refund, .revoke, .billingIssue(true), .billingIssue(false), .resolveInterrupted,
        .priceIncrease,
    ]

    /// A held payment goes through or not: a parent answers (sometimes with the backend failing just
    /// then), or the reader resolves an interrupted purchase outside the app.
    private mutating func released(_ world: World) -> StepKind {
        let held = world.pendingPayments
        if held.contains(where: { $0.kind == .interrupted }), chance(0.5) {
            return .world(.resolveInterrupted)
        }
        guard held.contains(where: { $0.kind == .askToBuy }) else { return .world(.foreground) }
        if chance(0.3) {
            let fault = pick(["receipts error", "receipts timeout", "backend lost-response", "me error"])
            if let plan = try? FaultPlan.parse(fault) {
                planned.append(SessionStep(kind: .world(.parentApprove)))
                return .world(.inject(plan))
            }
        }
        return .world(pick([.parentApprove, .parentApprove, .parentDecline]))
    }

    /// Xcode's Transaction Manager (issue 15): a plan change in the group of a running subscription,
    /// a price increase with a new price, or a control on one chosen transaction or held payment. The
    /// plan change is mostly written as Apple classes it, sometimes as another kind (refused, kept as `try`).
    private mutating func transactionManager(_ world: World) -> StepKind {
        let subscriptions = world.entitledSubscriptions
        let group = subscriptions.map(\.groupId)
        let others = world.productSpecs.filter {
            $0.subscriptionGroup.map(group.contains) == true && !subscriptions.map(\.productId).contains($0.productId)
        }
        switch random.next() % 3 {
        case 0 where !others.isEmpty:
            let target = pick(others).productId
            let change = chance(0.85) ? world.planChange(to: target) ?? .upgrade : pick(PlanChange.allCases)
            return .world(.changePlan(change, target))
        case 1 where !subscriptions.isEmpty:
            let product = pick(subscriptions).autoRenewProductId
            let price = (world.currentPrice(product) ?? 1) + pick([1, 3] as [Decimal])
            return .world(.raisePrice(product: product, price: price))
        default:
            let transactions = world.transactionIds
            let held = world.pendingPayments
            if !held.isEmpty, chance(0.4) {
                let payment = pick(held)
                let control: TransactionControl =
                    payment.kind == .interrupted ? .resolveInterrupted : pick([.approve, .approve, .decline])
                return .world(.transaction(control, payment.identifier))
            }
            guard !transactions.isEmpty else { return .world(.foreground) }
            return .world(.transaction(pick([.refund, .refund, .revoke, .expire]), pick(transactions)))
        }
    }

    /// The next purchase is held: by Ask to Buy or as an interrupted purchase.
    private mutating func heldPayment() -> StepKind {
        let plan = try? FaultPlan.parse(pick(["payment deferred", "payment interrupted"]))
        return plan.map { .world(.inject($0)) } ?? .world(.foreground)
    }

    /// Two accounts on one Apple ID: signed in to one, out, then in to the other.
    private mutating func twoAccounts(_ world: World) -> StepKind {
        let first = chance(0.5) ? Self.knownAccount : Self.newAccount
        let second = first == Self.knownAccount ? Self.newAccount : Self.knownAccount
        // The second account may not exist yet: sign-up makes it, or (it exists) the log-in after it signs in.
        var steps: [ReaderAction] = [
            .logIn(email: first.email, password: first.password), .logOut,
            .signUp(email: second.email, password: second.password),
            .logIn(email: second.email, password: second.password),
        ]
        if world.appState.isSignedIn { steps.insert(.logOut, at: 0) }
        // The second reader sometimes restores on the shared phone: the first one's subscription moves only if asked.
        if chance(0.5) { steps += [.openProfile, .restore] }
        planned += steps.dropFirst().map { SessionStep(kind: .reader($0)) }
        return .reader(steps[0])
    }

    /// Family Sharing: a member joins on their own phone and restores there, leaves, or the purchaser stops
    /// (or resumes) sharing.
    private mutating func family(_ world: World) -> StepKind {
        let member = Self.familyMember
        guard world.familyMembers.contains(member) else {
            if chance(0.7) { planned += [.openProfile, .restore].map { SessionStep(kind: .reader($0)) } }
            return .world(.familyAdd(member))
        }
        return .world(pick([.familyRemove(member), .familySharing(!world.familySharing)]))
    }

    /// The Apple ID of the purchaser's family member in every session.
    static let familyMember = "kid@fuzz.test"

    /// The fault targets a session draws from, each as likely: the store's and every backend endpoint's, the server's
    /// endpoint for Apple's notifications too (session 31: never drawn before, so no run tried a notification the server
    /// failed, lost or answered late; adding it changed which sessions a seed draws).
    /// A refresh the reader cancels (session 43) is drawn from the same draw as the refresh's other faults, not from a
    /// list of four: a list of four changed which fault most sessions drawing a receipt-refresh fault met.
    static let faultTargets: [(target: String, faults: [String])] =
        StoreFaultTarget.allCases.map { target in
            (target.rawValue, target.faults.filter { !drawnApart(target: target, fault: $0) })
        }
        + BackendFault.targets.map { target in (target, BackendFault.faults(on: target).map(\.rawValue)) }

    /// Faults drawn apart from their target's list: a quarter of the receipt-refresh faults drawn are `cancelled`.
    private static func drawnApart(target: StoreFaultTarget, fault: String) -> Bool {
        target == .receiptRefresh && fault == "cancelled"
    }

    /// One fault rule for the store or the backend, firing once, a few times, by chance, or on every call until the
    /// session ends (a server or store down for the whole visit; session 32: never drawn before). A `slow` answer
    /// comes after 30 s unless it says otherwise, as long as Apple waits for a notification's answer, so on
    /// `notifications` it acted as a lost answer: half are drawn short, late but in time, anywhere.
    private mutating func faultPlan() -> FaultPlan {
        let (target, faults) = pick(Self.faultTargets)
        let frequency: FaultFrequency = pick([.times(1), .times(1), .times(2), .chance(0.2), .always])
        // One draw, as before: its high part makes a quarter of the refresh's faults the reader's cancel.
        let drawn = random.next()
        var fault = faults[Int(drawn % UInt64(faults.count))]
        if target == StoreFaultTarget.receiptRefresh.rawValue, (drawn / UInt64(faults.count)) % 4 == 0 {
            fault = "cancelled"
        }
        let argument = fault == BackendFault.slow.rawValue && chance(0.5) ? pick(["2s", "10s"]) : nil
        return FaultPlan(rules: [FaultRule(target: target, fault: fault, argument: argument, frequency: frequency)])
    }

    // MARK: - Draws

    private mutating func chance(_ probability: Double) -> Bool {
        Double(random.next() % 1_000_000) < probability * 1_000_000
    }

    private mutating func pick<T>(_ items: [T]) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }
}
