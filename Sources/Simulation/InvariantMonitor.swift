import AppFlow
import SimKernel
import StoreSim
import Subscriptions

/// What kind of step ran, for the checks that compare the world before and after it.
public enum MonitoredStep: Sendable, Equatable {
    case reader(ReaderAction)
    case restartApp
    /// Back to the foreground (after a kill, the app starts again).
    case foreground
    case kill
    /// A held payment goes through outside the app: a parent approves, an interrupted purchase is resolved.
    case paymentReleased
    case other
}

/// Watches a world step by step and reports every broken guarantee (`Invariant`): the state
/// after each step, and what changed across it (a charge, a cancellation, a restart).
public final class InvariantMonitor {
    private let world: World
    private var before: WorldReading
    private var step = MonitoredStep.other
    /// Whether the paywall must show exactly configured ∩ sold here: false once a products request
    /// failed, since the offers shown are what that answer had.
    private var offersExact = true
    /// How many of the timeline's recorded events were read.
    private var eventsRead = 0
    /// What the App Store's last answered products request returned to each phone: a payment is for one of them.
    private var returned: [String: (request: Int, products: Set<String>)] = [:]
    /// Apple's sheet was cancelled during the step, by the reader or by a fault.
    private var cancelled = false
    /// When a store fault last fired (its recorded event is the store's only record of it).
    private var lastStoreFault: SimInstant?
    /// When the app was last quit (kill or restart) with whatever it was waiting for.
    private var interruptedAt: SimInstant?
    private var stepBegan: SimInstant
    /// `world.launches` as the step began (`StepContext.launchesBefore`).
    private var launchesBefore: Int
    /// `world.receiptAccepted` as the step began (`StepContext.receiptsAcceptedBefore`).
    private var receiptsAcceptedBefore: [String: SimInstant]
    private var stepStarts: [SimInstant] = []
    private var told: ToldCheck
    private var charges: ChargeCheck
    private var moves: MoveCheck
    private var gate = GateCheck()
    private var restoreFirst = RestoreFirstCheck()
    /// Broken guarantees read off the store's events since the last `didRun`.
    private var found: [InvariantViolation] = []
    /// Phones that became active with Apple's price-consent sheet due, and when, until the sheet appears (20).
    private var consentDue: [String: SimInstant] = [:]
    private var priceEnds = PriceEndCheck()
    private var offerCharges = OfferChargeCheck()
    private var intros: IntroOfferCheck
    private var shownAlerts = ShownAlertCheck()
    private var toldAgain = ToldAgainCheck()
    private var askedForNothing: AskedForNothingCheck
    private let productNames: ProductNameCheck
    private var family = FamilyCheck()
    private var unsoldRenewals = UnsoldRenewalCheck()
    private var recoveries = RecoveryShownCheck()
    private var revokedShares = RevokedShareCheck()
    private var declines = DeclineToldCheck()
    private var cancelsTold = CancelToldCheck()
    /// Each phone's account session as the monitor last read it: its refresh token, and the start of the step it was
    /// first seen in (no later than the server issued it; one held when the monitor began counts as old).
    private var sessions: [String: (refreshToken: String, since: SimInstant)] = [:]
    /// A session refreshed within this long is never let lapse under a paying subscriber: the longest period the apps
    /// sell (a year) and Apple's billing retry after it. Refresh tokens of 30 days signed a monthly subscriber out at
    /// every renewal (session 32, h13 03).
    static let sessionOutlives = SimDuration.days(366) + AppStore.billingRetryLength

    public init(world: World) {
        self.world = world
        before = WorldReading(world)
        stepBegan = world.scheduler.now
        launchesBefore = world.launches
        receiptsAcceptedBefore = world.receiptAccepted
        told = ToldCheck(world: world)
        charges = ChargeCheck(world: world)
        moves = MoveCheck(world: world)
        intros = IntroOfferCheck(world: world)
        askedForNothing = AskedForNothingCheck(world: world)
        productNames = ProductNameCheck(world: world)
        if let token = before.refreshToken { sessions[before.device] = (token, SimInstant(milliseconds: 0)) }
        readEvents(judging: false)
    }

    /// Call before a step runs; `waits` false when the next step comes without waiting for this one's answers.
    public func willRun(_ step: MonitoredStep, waits: Bool = true) {
        self.step = step
        before = WorldReading(world)
        stepBegan = world.scheduler.now
        launchesBefore = world.launches
        receiptsAcceptedBefore = world.receiptAccepted
        stepStarts.append(stepBegan)
        readEvents()
        cancelled = false
        moves.willRun(step, waits: waits, world: world)
        gate.willRun(step, world: world)
        restoreFirst.willRun(world: world, began: stepBegan)
        revokedShares.willRun(world, began: stepBegan)
        if step == .restartApp || step == .kill { interruptedAt = stepBegan }
    }

    /// Call once the step has run and the world settled: every guarantee broken now.
    public func didRun() -> [InvariantViolation] {
        readEvents()
        // Whatever the step was (a restart, a kill, a new phone, a family member's phone), an app quit during it
        // lost the answers it waited for.
        if let quit = world.lastAppQuit, quit >= stepBegan { interruptedAt = stepBegan }
        let lastFault = [lastStoreFault, world.lastBackendFault].compactMap { $0 }.max()
        let outcomes = world.readerOutcomes
        for outcome in outcomes[min(before.outcomes, outcomes.count)...] where outcome.device == world.deviceName {
            restoreFirst.paymentsRefused(outcome, world: world, lastFault: lastFault)
        }
        let context = StepContext(
            world: world, step: step, began: stepBegan, launchesBefore: launchesBefore,
            receiptsAcceptedBefore: receiptsAcceptedBefore, lastFault: lastFault, stepStarts: stepStarts,
            paid: world.paidSubscriptions, charged: world.chargedTransactions)
        let after = WorldReading(world, charged: context.charged)
        defer { noteSession(after) }
        // In this order, as the checks run; gathered once, not by `+` (a new array for each of the twenty checks,
        // almost all of them empty, after every step).
        let parts: [[InvariantViolation]] = [
            world.stateViolations(offersExact: offersExact, paid: context.paid),
            transitionViolations(after, charged: context.charged),
            told.check(context), shownAlerts.check(context), PurchaseToldCheck.violations(context),
            toldAgain.check(context), cancelsTold.check(context, toldSince: before.outcomes),
            productNames.check(context), unsoldRenewals.check(context), TrialToldCheck.violations(context),
            recoveries.check(context), ProfileOwnersCheck.violations(context),
            PayingCheck.violations(context, interruptedAt: interruptedAt), RenewalReachesCheck.violations(context),
            charges.check(context), declines.check(context), askedForNothing.check(context), intros.check(context),
            moves.check(context), family.check(context), revokedShares.check(context),
            gate.check(),
            RefundCheck.violations(context), LevelsEndCheck.violations(context),
            ShownLevelsCheck.violations(context), restoreFirst.check(),
            SubscriberPageCheck.violations(context),
            AccountRequiredCheck.violations(context), WaitingCheck.violations(context),
            MoveQuestionCheck.violations(context), takeFound(),
            consentViolations(),
        ]
        var all: [InvariantViolation] = []
        for part in parts where !part.isEmpty {
            if all.isEmpty { all = part } else { all += part }
        }
        return all
    }

    private func takeFound() -> [InvariantViolation] {
        defer { found = [] }
        return found
    }

    /// What the store did since the last reading: a fault (a failed products request), a cancelled payment,
    /// a payment taken (judged by the gate check, except what came before the monitor started).
    private func readEvents(judging: Bool = true) {
        let events = world.timeline.events
        for recorded in events[eventsRead...] {
            switch recorded.event {
            case .faultFired(let side, let target):
                cancelsTold.faultFired(target, at: recorded.time)
                guard side == .store else { break }
                lastStoreFault = recorded.time
                if target == StoreFaultTarget.productsRequest.rawValue {
                    offersExact = false
                    unsoldRenewals.productsFaultFired(at: recorded.time)
                }
            case .paymentCancelled: cancelled = true
            case .purchaseReported(_, let transactionId): moves.reported(transactionId, at: recorded.time)
            case .productsReturned(let deviceId, let productIds, let request, _):
                // The newest request's answer, as the app keeps it: an older one landing later is dropped.
                if request >= returned[deviceId]?.request ?? 0 { returned[deviceId] = (request, Set(productIds)) }
            case .paymentAdded(let productId, let deviceId, let receipt):
                if judging, let sellable = returned[deviceId]?.products, !sellable.contains(productId) {
                    // Seed 001: the wrapper "resolves the configured identifier to a fetched SKProduct" before
                    // adding the payment; a product the store's last answer left out has its own failure path.
                    found.append(
                        InvariantViolation(
                            .paywallOffers,
                            "the app on \(deviceId) handed Apple a payment for \(productId), which the App Store's "
                                + "last products answer to that phone did not return"))
                }
                if judging {
                    gate.paymentAdded(productId, deviceId: deviceId, world: world, how: .queue)
                    let lastFault = [lastStoreFault, world.lastBackendFault].compactMap { $0 }.max()
                    restoreFirst.paymentAdded(
                        productId, deviceId: deviceId, receipt: receipt, at: recorded.time, world: world,
                        lastFault: lastFault)
                }
            case .sheetSwitchCharges(let productId, let deviceId):
                if judging { gate.paymentAdded(productId, deviceId: deviceId, world: world, how: .sheetSwitch) }
            case .receiptRefreshStarted(let deviceId, let alreadyRunning) where judging && alreadyRunning > 0:
                // Seed 001: "queues pending refresh completions behind one active request".
                found.append(
                    InvariantViolation(
                        .receiptRefreshOnce,
                        "the app on \(deviceId) asked Apple for a receipt while \(alreadyRunning) of its own "
                            + "requests had not answered"))
            case .paymentNotAllowed(let deviceId) where judging:
                // Seed 000: "Before handing over to Apple, the service checks that this iPhone is allowed to make
                // payments".
                found.append(
                    InvariantViolation(
                        .paymentsAllowedFirst,
                        "the app on \(deviceId) handed Apple a payment while the phone could not make payments"))
            case .paywallClosedElsewhere(let deviceId, let detail) where judging,
                .subscriberNotOnProfile(let deviceId, let detail) where judging:
                found.append(InvariantViolation(.subscriberPage, "on \(deviceId), \(detail)"))
            case .transferNotOffered(let deviceId, let detail) where judging:
                found.append(InvariantViolation(.transferOffered, "on \(deviceId), \(detail)"))
            case .manageSheetUntrue(let deviceId, let detail) where judging:
                found.append(InvariantViolation(.sheetsTellTheTruth, "on \(deviceId), \(detail)"))
            case .sheetOpenedOnMoney(let deviceId, let detail) where judging:
                found.append(InvariantViolation(.strayKeyMovesNoMoney, "on \(deviceId), \(detail)"))
            case .becameActive(let deviceId, consentDue: true) where judging:
                consentDue[deviceId] = recorded.time
            case .priceConsentShown(let deviceId):
                consentDue[deviceId] = nil
            case .parentalGateShown(let deviceId, let question):
                gate.shown(question, deviceId: deviceId)
            case .renewalProductChosen, .renewalCharged, .endedForPrice, .priceRaised:
                if case .renewalCharged(let original, _, _, _) = recorded.event {
                    recoveries.renewed(original, at: recorded.time)
                }
                if let broken = priceEnds.read(recorded.event, judging: judging) { found.append(broken) }
            case .offerPaymentConfirmed, .confirmedPaymentCharged:
                if let broken = offerCharges.read(recorded.event, judging: judging) { found.append(broken) }
            case .askToBuyDeclined(let deviceId, let productId):
                if judging { declines.declined(productId, deviceId: deviceId, at: recorded.time, world: world) }
            case .receiptRefreshCancelled(let deviceId, let askedAt):
                cancelsTold.refreshCancelled(deviceId: deviceId, askedAt: askedAt)
            case .paymentFailed(let deviceId, _, _): cancelsTold.paymentFailed(deviceId: deviceId, at: recorded.time)
            case .receiptRefreshStarted, .becameActive, .paymentNotAllowed, .paymentCharged,
                .paywallClosedElsewhere, .subscriberNotOnProfile, .transferNotOffered, .manageSheetUntrue,
                .sheetOpenedOnMoney, .subscriptionExpired:
                break
            }
        }
        eventsRead = events.count
    }

    /// 20, seed 001's "price-consent presentation is checked when the app becomes active": the app asks as it
    /// launches or returns, so by the step's end the sheet has appeared on every phone it was due on.
    private func consentViolations() -> [InvariantViolation] {
        defer { consentDue = [:] }
        return consentDue.sorted { $0.key < $1.key }.map { deviceId, at in
            InvariantViolation(
                .priceConsentAsked,
                "the app on \(deviceId) became active at \(at) with a price increase waiting for consent, "
                    + "and Apple's consent sheet never appeared")
        }
    }

    /// Another transaction of the same subscription group that was paying for the instant `record` was
    /// charged at: bought before, not yet over, not refunded or revoked by then, not replaced by an upgrade.
    private func paidAlready(when record: TransactionRecord, among transactions: [TransactionRecord])
        -> TransactionRecord?
    {
        let catalog = world.store.catalog
        guard let group = catalog.spec(for: record.productIdentifier)?.subscriptionGroup else { return nil }
        let at = record.purchaseDate
        return transactions.first { other in
            other.transactionIdentifier != record.transactionIdentifier && !other.isUpgraded
                && catalog.spec(for: other.productIdentifier)?.subscriptionGroup == group && other.purchaseDate <= at
                && (other.expiresDate.map { $0 > at } ?? false) && (other.revocationDate.map { $0 > at } ?? true)
        }
    }

    /// Whether the alert up now answers another act told during the step (a log-in, a restore, a purchase
    /// nobody on screen waited for), with the purchase on screen told nothing but "cancelled": then it is that
    /// act's, not the cancel's.
    private func alertIsAnotherActs(after before: WorldReading) -> Bool {
        let outcomes = world.readerOutcomes.dropFirst(before.outcomes)
        let purchaseError = outcomes.contains {
            if case .purchase(let outcome) = $0.told, !$0.carriedOn { outcome != .cancelled } else { false }
        }
        let otherAct = outcomes.contains { if case .purchase = $0.told { $0.carriedOn } else { true } }
        return otherAct && !purchaseError
    }

    private func transitionViolations(_ after: WorldReading, charged transactions: [TransactionRecord])
        -> [InvariantViolation]
    {
        var found: [InvariantViolation] = []
        for charge in after.transactions.subtracting(before.transactions).sorted() {
            guard let record = transactions.first(where: { $0.transactionIdentifier == charge }),
                record.transactionReason == "PURCHASE",
                let paid = paidAlready(when: record, among: transactions.filter { $0.appleId == record.appleId })
            else { continue }
            found.append(
                InvariantViolation(
                    .noDoubleCharge,
                    "charged for \(record.productIdentifier) (transaction \(charge)) while \(paid.productIdentifier) "
                        + "(transaction \(paid.transactionIdentifier)) of the same group was paid for until \(paid.expiresDate.map(\.description) ?? "ever")"
                ))
        }
        // A payment cancelled by the reader, or one whose cancellation reached the app while the reader did nothing
        // of their own that may answer with an alert (a second tap on an offer is refused with one, rightly).
        // Cancel on Apple's price-increase sheet cancels no payment: one on its way may then answer (seed 6080).
        let readerActed = if case .reader = step { true } else { false }
        let cancellation = cancelled && (step == .reader(.cancelPayment) || !readerActed)
        if cancellation, !before.alert, let alert = world.screen.alert, !alertIsAnotherActs(after: before) {
            found.append(
                InvariantViolation(
                    .onePaymentAtATime, "a cancelled payment showed an alert: \"\(alert.title)\": \(alert.message)"))
        }
        // 13, as the sheet appears: Apple decides its terms then, and a charge later may change what it
        // would decide (a trial used), not what the reader read on it.
        if world.isAppRunning, !before.sheet, after.sheet, after.transactions == before.transactions {
            found += world.sheetViolations() + world.shownPriceViolations()
        }
        found += signedOutInSilence(after)
        // A restart, or the app started again after a kill: the phone's anonymous identity is on its disk.
        let relaunched = step == .restartApp || (step == .foreground && !before.running)
        if relaunched, case .anonymous(let id) = before.identity {
            let granted: Set<String>
            do {
                granted = Set(try world.backend.levels(of: id))
            } catch {
                return found + [
                    InvariantViolation(.survivesRestartAndAds, "the levels of anonymous \(id) cannot be read: \(error)")
                ]
            }
            let kept = before.levels.intersection(granted).subtracting(pastTheirEnd(of: id))
            if after.identity != before.identity {
                found.append(
                    InvariantViolation(
                        .survivesRestartAndAds,
                        "the anonymous identity \(id) was lost when the app started again (now \(WorldReading.describe(after.identity)))"
                    ))
            } else if !kept.isSubset(of: after.levels) {
                found.append(
                    InvariantViolation(
                        .survivesRestartAndAds,
                        "levels \(WorldReading.list(kept)) of anonymous \(id) were lost when the app started again (now \(WorldReading.list(after.levels)))"
                    ))
            }
        }
        return found
    }
}

extension InvariantMonitor {
    /// 7 asks only for the levels the backend's word still covers: the levels of the last answer this phone heard
    /// about `id`, when that answer's end (`levelsUntil`) had passed as the launch failed to reach the server (a
    /// fault or a give-up during this step), are off on invariant 1's rule until the server answers, and come back
    /// then; the identity stays and nothing paid is lost. The app dropping levels still within their end, or after
    /// the server answered (a newer word, with a later end), still breaks it (fuzz seeds 4112, 4117, 4119).
    private func pastTheirEnd(of id: String) -> Set<String> {
        guard let fault = world.lastBackendFault, fault >= stepBegan,
            let end = world.words.until(on: world.deviceName, identityId: id), end <= fault.milliseconds
        else { return [] }
        return world.words.levels(on: world.deviceName, identityId: id)
    }

    /// 10: a signed-in reader leaves the account only by logging out, or is told the server ended the session: a
    /// paying reader signed out in silence finds their articles locked with no reason given (session 21).
    private func signedOutInSilence(_ after: WorldReading) -> [InvariantViolation] {
        guard case .account(let email) = before.identity, after.running, after.device == before.device else {
            return []
        }
        if case .account = after.identity { return [] }
        let outcomes = world.readerOutcomes
        let told = outcomes[min(before.outcomes, outcomes.count)...].contains { outcome in
            outcome.device == after.device
                && (outcome.told == .account(.loggedOut) || outcome.told == .account(.sessionEnded(email: email)))
        }
        guard told else {
            return [
                InvariantViolation(
                    .payingKeepsAccess,
                    "\(after.device) was signed out of \(email) (now \(WorldReading.describe(after.identity))) and "
                        + "the reader was told nothing")
            ]
        }
        return endedWithoutTheServer(email, after)
    }

    /// "Your session ended" is the server's word: a session the server would still renew was ended by the phone (a
    /// refresh that timed out signed the reader out until session 23), unless an injected 401 answered its refresh.
    /// Judged by what the server did to the session the phone held as the step began, not by that one token: the
    /// server ends a session only by time, so one with a token it would still trade, the phone's token within its
    /// expiry, was never ended; a phone that spent its own token by trading one it had replaced, a step or more before
    /// its refusal (found-by-hand/515), held a live session (`Backend.sessionLives`).
    private func endedWithoutTheServer(_ email: String, _ after: WorldReading) -> [InvariantViolation] {
        let outcomes = world.readerOutcomes
        let loggedOut = outcomes[min(before.outcomes, outcomes.count)...].contains {
            $0.device == after.device && $0.told == .account(.loggedOut)
        }
        guard !loggedOut, let refreshToken = before.refreshToken else { return [] }
        // An injected 401 stood in for the server: the phone heard a refusal.
        if let refused = world.lastRefreshRefusedByFault, refused >= stepBegan { return [] }
        return InvariantViolation.checking(.payingKeepsAccess) {
            guard try world.backend.sessionLives(refreshToken: refreshToken) else {
                return try lapsedUnderAPayer(email, refreshToken, after)
            }
            // The token held as the step began would not be traded: the phone spent it itself (515's way).
            let spent =
                try world.backend.holdsSession(refreshToken: refreshToken)
                ? "" : " (the phone's refresh token was spent by a trade of one it had replaced)"
            return [
                InvariantViolation(
                    .payingKeepsAccess,
                    "\(after.device) was told its session as \(email) ended, but the server still holds it\(spent)")
            ]
        }
    }

    /// Seed 001: "a paying user … should simply retain the access they purchased". A session the server let lapse
    /// with time under a reader the phone showed levels, though the phone had it refreshed less than
    /// `sessionOutlives` ago: time alone signed a paying subscriber out.
    private func lapsedUnderAPayer(_ email: String, _ refreshToken: String, _ after: WorldReading) throws
        -> [InvariantViolation]
    {
        // A world told to keep sessions shorter (`refresh-token-lifetime`: the scenarios found when they lasted 30 days)
        // chose it; the server's own lifetime is what this holds.
        guard world.options.refreshTokenLifetime == nil, !before.levels.isEmpty, let session = sessions[after.device],
            session.refreshToken == refreshToken,
            world.scheduler.now - session.since < Self.sessionOutlives,
            try world.backend.sessionLapsed(refreshToken: refreshToken)
        else { return [] }
        return [
            InvariantViolation(
                .payingKeepsAccess,
                "\(after.device) was signed out of \(email), with \(before.levels.sorted().joined(separator: ", ")), "
                    + "by time alone: the server let its session lapse \(world.scheduler.now - session.since) after the "
                    + "phone had it (a paying subscriber's outlives a year and Apple's billing retry)")
        ]
    }

    /// A refresh token the phone on screen holds that the monitor had not seen: new in this step at the earliest.
    private func noteSession(_ after: WorldReading) {
        guard let token = after.refreshToken else { return sessions[after.device] = nil }
        if sessions[after.device]?.refreshToken != token { sessions[after.device] = (token, stepBegan) }
    }
}

/// What the monitor compares across a step.
struct WorldReading {
    /// The phone on screen.
    let device: String
    let identity: AccessSnapshot.Identity
    let levels: Set<String>
    let alert: Bool
    let transactions: Set<String>
    /// Apple's sheet is up on the phone.
    let sheet: Bool
    /// The app runs on the phone on screen (false after a kill: its last state is frozen).
    let running: Bool
    /// How many outcomes the app had told the reader.
    let outcomes: Int
    /// The refresh token of the phone's account session, when signed in.
    let refreshToken: String?

    /// `charged`: `world.chargedTransactions`, when the caller has just read it.
    init(_ world: World, charged: [TransactionRecord]? = nil) {
        let state = world.appState  // read once: each reading is a copy of the whole state
        device = world.deviceName
        identity = state.access.identity
        levels = Set(state.access.levels.map(\.rawValue))
        // The screen's alert is the state's: no screen built to read it. One waiting beneath Apple's sheet is up too:
        // it is back when the sheet closes, a Cancel's included (session 32).
        alert = state.alert != nil || (state.paymentSheet != nil && !state.alertsWaiting.isEmpty)
        sheet = world.device.queue.sheet != nil
        running = world.isAppRunning
        transactions = world.chargedIds.ids(of: charged ?? world.chargedTransactions)
        outcomes = world.readerOutcomes.count
        refreshToken = if case .account = identity { world.device.storage.accountSession?.refreshToken } else { nil }
    }

    /// Who the phone says the reader is, in words.
    static func describe(_ identity: AccessSnapshot.Identity) -> String {
        switch identity {
        case .none: "a reader with no identity yet"
        case .anonymous(let id): "anonymous \(id)"
        case .account(let email): "account \(email)"
        }
    }

    /// A screen of the app, in words.
    static func describe(_ route: AppState.Route) -> String {
        if case .content(let id) = route { return "content \(id)" }
        return "\(route)"
    }

    static func list(_ levels: Set<String>) -> String {
        levels.isEmpty ? "none" : levels.sorted().joined(separator: ", ")
    }
}
