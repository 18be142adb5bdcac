import AppFlow
import BackendSim
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9, what the reader is told is true: each purchase, restore and account outcome, once
/// the world settled on the phone it was told on, against the phone's levels, the App Store and
/// the owner's product → levels mapping. An outcome whose act a fault overlapped is excused, but for a restore said
/// to fail that the server made (`ToldCheck+Moves`) and a sign-in said to fail that it accepted (`ToldCheck+SignIn`).
struct ToldCheck {
    /// How many of the world's outcomes were taken; those taken wait here until the world settles.
    private var taken = 0
    private var waiting: [ReaderOutcome] = []
    /// The profile's list and Apple's manage sheet last judged: each is judged as it arrives, since a change made
    /// outside the app later (a code redeemed on the App Store) is news the phone has not been told (fuzz seed 3).
    /// Both are judged again when their screen comes up (opening the profile asks the server again).
    private var renewalsJudged: (list: SubscriptionList?, sheet: [ManagedSubscription]?, screen: ScreenID?)

    init(world: World) {
        taken = world.readerOutcomes.count
    }

    mutating func check(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        waiting += world.readerOutcomes[taken...]
        taken = world.readerOutcomes.count
        // At any step, settled or not: a profile opened before the server's answer came is what the reader reads.
        if let past = Self.pastDateViolation(world) { return [past] }
        guard context.settled else { return [] }
        defer { waiting = [] }
        // A restart or another phone since: the app that was told is gone, and with it what it showed.
        guard world.isAppRunning else { return [] }
        let here = waiting.filter { $0.device == world.deviceName && $0.launch == world.currentLaunch }
        let state = world.appState
        let screen = world.visibleScreenID
        let cameUp = screen != renewalsJudged.screen
        let fresh = (
            list: cameUp || state.subscriptionList != renewalsJudged.list,
            sheet: cameUp || state.manageSheet != renewalsJudged.sheet
        )
        renewalsJudged = (state.subscriptionList, state.manageSheet, screen)
        let renewal =
            context.faultSince(context.began)
            ? nil
            : Self.readingLedger { try Self.renewalViolation(world, profile: fresh.list, manageSheet: fresh.sheet) }
        // Every "Move it" of the phone's own subscription the reader reads, wherever it is (session 33).
        let moveOffer = Self.readingLedger { try Self.moveOfferViolation(world) }
        return here.compactMap { outcome in
            // Whatever the faults: only an acceptance the app took counts (`ToldCheck+SignIn`).
            if let signIn = Self.signInViolation(outcome, world) { return signIn }
            // "Found meanwhile: what it gives is unlocked", whatever the faults (`ToldCheck+FoundMeanwhile`).
            if let unfounded = Self.readingLedger({ try Self.foundMeanwhileViolation(outcome, context) }) {
                return unfounded
            }
            // "Your payment went through", whatever the faults: a failed check almost always comes of one, so judged
            // only without one it was never judged (session 44's walk: said of a free trial).
            if let unpaid = Self.wentThroughViolation(outcome, world) { return unpaid }
            // A fault that lost a restore's answer does not make "could not be restored" true of what it moved.
            guard !context.faultSince(outcome.began) else {
                if let moved = Self.readingLedger({ try Self.restoredWhileToldFailed(outcome, context) }) {
                    return moved
                }
                // Nor does a failed check make "use Restore purchase" true, where the app heard the server say what a
                // restore here would answer while the act ran (`spokenWhileRan`), or could have asked it: the faults
                // were the receipt check's own (session 30); or had nothing to ask it with, the phone's receipt missing
                // (its read, its refresh): the advice was the app's guess, of a payment carried on as of one on screen
                // (session 32: a parent's approval with no receipt told to restore past the move limit).
                // "Use Restore purchase" of a subscription the server said is held elsewhere is said only of the
                // server's answer on a restore here, heard: unheard, the app says it could not be checked (session
                // 37), so such advice is judged whatever the faults (a guess of it is a regression); so is that of a
                // failed check Apple charged nothing new for (found-by-hand/548).
                let spoken = Self.spokenWhileRan(outcome, world)
                guard spoken != nil || Self.onlyReceiptFaults(since: outcome.began, world) || Self.saidOfHeld(outcome)
                else { return nil }
                return Self.readingLedger { try Self.adviceViolation(outcome, world, spoken: spoken) }
            }
            return violation(outcome, alone: here.count == 1, context)
        } + (renewal.map { [$0] } ?? []) + (moveOffer.map { [$0] } ?? [])
    }

    /// Whether the outcome speaks of a subscription the server said someone else holds, or of a failed check of one
    /// Apple charged nothing new for (held somewhere, maybe elsewhere: found-by-hand/548), and so comes of the server's
    /// answer on what a restore here would do, heard (`PurchaseOutcome.toldUnchecked` tells it otherwise).
    static func saidOfHeld(_ outcome: ReaderOutcome) -> Bool {
        switch outcome.told {
        case .purchase(.alreadySubscribedOnAppleId), .purchase(.chargedForAnotherOwner), .purchase(.notConfirmed): true
        default: false
        }
    }

    /// When the server spoke the last answer to what a restore here would do that the app took while the outcome's act
    /// ran, to the reader told; nil if none. Counted from the tap where the phone started it: an answer handed at that
    /// very instant, to the act before, is not this act's (default fuzz seed 4391, long 1410: "a restore here would be
    /// refused" told, then the next purchase's check failed with no way to ask, the receipt missing or the server
    /// unreachable, and what the server said an act ago may have changed since; the app is judged on what it heard
    /// while it ran). And about the reader told: a purchase a parent approved after the account logged out is told to
    /// the guest, and the answer the app took while the account was signed in spoke of the account (fuzz seed 4393).
    /// A purchase carried on has no tap to count from: its act is dated from Apple's charge, maybe months back, and an
    /// answer heard since may be a restore's of long ago (long fuzz seed 1410, session 223: its own ask timed out); it
    /// is judged after a fault only where the faults were the receipt check's own.
    static func spokenWhileRan(_ outcome: ReaderOutcome, _ world: World) -> SimInstant? {
        guard let inspected = world.restoreInspected[outcome.device],
            outcome.identityWhenBegan == outcome.identityWhenTold, inspected.identity == outcome.identityWhenTold,
            let since = outcome.inspectAnswersSinceBegan, since > 0
        else { return nil }
        return inspected.spoken
    }

    /// Whether every fault fired since `instant` was the server's receipt check's (`receipts …`), or took the phone's
    /// receipt away (`receipt missing`, a failed `receipt-refresh`): the app could still ask the server anything else,
    /// or had no receipt to ask it with, so nothing it could have heard to go by. (A forged receipt is one to ask with.)
    /// A request the app gave up on at its timeout is a fault on it as one fired there is (`lastBackendFault`): an
    /// inspect that flaky latency made too late went unheard, and the app's "use Restore purchase" was its guess, as
    /// under a fault on `restores` (default fuzz seed 4941, session 613: judged as heard, no fault having fired). The
    /// guess left is a failed check's "use Restore purchase to get it back" (seed 000's way back); one of a
    /// subscription held elsewhere is told as not checked now (session 37), and judged (`saidOfHeld`).
    private static func onlyReceiptFaults(since instant: SimInstant, _ world: World) -> Bool {
        if let gaveUp = world.lastGiveUpBesideReceipts, gaveUp >= instant { return false }
        let timeline = world.timeline
        return timeline.events.reversed().prefix { $0.time >= instant }.allSatisfy { recorded in
            guard case .faultFired(let side, let target) = recorded.event else { return true }
            switch (side, target) {
            case (.backend, "receipts"), (.store, "receipt-refresh"): return true
            case (.store, "receipt"):
                return timeline.entries.indices.contains(recorded.entry)
                    && timeline.entries[recorded.entry].text.hasSuffix("missing")
            default: return false
            }
        }
    }

    private func violation(_ outcome: ReaderOutcome, alone: Bool, _ context: StepContext) -> InvariantViolation? {
        if let charged = Self.chargedWhileToldNot(outcome, context.world) { return charged }
        if let advice = Self.readingLedger({
            try Self.adviceViolation(outcome, context.world, spoken: Self.spokenWhileRan(outcome, context.world))
        }) {
            return advice
        }
        // True when told, or true now: the reader may have logged out since, in the same step.
        let levels = context.phoneLevels.union(outcome.levelsWhenTold)
        let world = context.world
        switch outcome.told {
        case .purchase(.purchased), .purchase(.confirmedAfterAll):
            // The plan the purchase is on now: its levels are what the reader holds.
            let bought = outcome.productId.flatMap { context.levels(of: context.planNow(of: $0)) } ?? []
            guard bought.isEmpty ? levels.isEmpty : !bought.isSubset(of: levels) else { return nil }
            return told("\"purchased\" (\(outcome.productId ?? "?"))", wanted: bought, levels: levels)
        case .account(.transferred), .account(.nothingValidToMove):
            if let moved = Self.readingLedger({ try Self.transferViolation(outcome, world) }) { return moved }
            guard case .account(.transferred) = outcome.told else { return nil }
            // Moved, and said whose: the family's share is not "your subscription" (session 34).
            guard levels.isEmpty else { return Self.readingLedger { try Self.whoPaysToldViolation(outcome, world) } }
            return told(Self.describe(outcome.told), wanted: [], levels: levels)
        case .purchase(.restoredInsteadOfCharging), .purchase(.sharedInsteadOfCharging), .restore(.restored),
            .restore(.sharedByFamily):
            guard levels.isEmpty else {
                return Self.readingLedger { try Self.whoPaysToldViolation(outcome, world) }
            }
            return told(Self.describe(outcome.told), wanted: [], levels: levels)
        case .restore(.partlyRestored(let refusal, _)):
            // Back, and the rest refused: each half as it is judged alone (session 30), who pays for the part back too.
            if levels.isEmpty { return told(Self.describe(outcome.told), wanted: [], levels: levels) }
            if let whose = Self.readingLedger({ try Self.whoPaysToldViolation(outcome, world) }) { return whose }
            switch RestoreOutcome.refusal(refusal) {
            case .linkedToAnotherAccount: return Self.readingLedger { try Self.heldElsewhereViolation(outcome, world) }
            case .limitReached: return Self.readingLedger { try Self.limitViolation(outcome, world) }
            default: return nil
            }
        case .restore(.paymentRetrying):
            // "Apple is still trying" of an Apple ID none of whose subscriptions Apple retries, nor its family
            // purchaser's it shares, when told (the retry may end before the step does: long fuzz seed 1038).
            guard !(outcome.appleRetriedWhenTold ?? world.appleRetries) else { return nil }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(Self.describe(outcome.told)), but Apple retries no subscription of "
                    + world.appleId)
        case .restore(.nothingToRestore), .restore(.nothingValidToRestore), .restore(.familyShareEnded):
            if let moved = Self.movedByARestoreOfNothing(outcome, world) { return moved }
            // What was being paid for when the restore began must have been found; a charge after it (a new
            // subscription, or a resubscription under a refunded one's original id) is later news.
            let charged = world.store.transactions(appleId: world.appleId)
            let began = outcome.began
            // The subscription's transaction paying then is the latest bought before it: an upgrade replaced the
            // one before it (whose period, refunded pro rata, still runs on paper), a refund of it ended both.
            let paid = context.paid.filter { subscription in
                let latest = charged.filter {
                    $0.originalTransactionIdentifier == subscription.originalTransactionId && $0.purchaseDate < began
                }.max { ($0.purchaseDate, $0.transactionIdentifier) < ($1.purchaseDate, $1.transactionIdentifier) }
                guard let latest else { return false }
                return (latest.expiresDate.map { $0 > began } ?? true)
                    && (latest.revocationDate.map { $0 > began } ?? true)
            }
            // A family member's phone restores what the family shares with it too.
            let now = world.scheduler.now
            // Its period running, or the purchaser's subscription in its grace period (a member who joined then was
            // told there was nothing valid to restore, session 24).
            let shared = world.store.familySharedTransactions(appleId: world.appleId).filter {
                $0.purchaseDate < outcome.began && $0.revocationDate == nil
                    && (($0.expiresDate.map { $0 > now } ?? true)
                        || world.store.shareGivesAccess($0.originalTransactionIdentifier))
            }
            // A charge of a sheet this phone confirmed, landing while the restore ran, is not later news: the app heard
            // of it before it spoke ("nothing to restore" over the article it had just unlocked, session 26).
            let phone = world.device.queue.deviceId
            let chargedDuring = Set(
                world.timeline.events.reversed().prefix { $0.time >= outcome.began }.compactMap { recorded in
                    if case .paymentCharged(phone, let id) = recorded.event, recorded.time <= outcome.at {
                        id
                    } else {
                        nil
                    }
                })
            if let charge = charged.first(where: {
                chargedDuring.contains($0.transactionIdentifier) && $0.revocationDate == nil
                    && ($0.expiresDate.map { $0 > outcome.at } ?? true)
            }) {
                return InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName) was told \(Self.describe(outcome.told)), but Apple charged it for "
                        + "\(charge.productIdentifier) (transaction \(charge.transactionIdentifier)) while the restore ran"
                )
            }
            guard !paid.isEmpty || !shared.isEmpty else { return nil }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(Self.describe(outcome.told)), but \(world.appleId) "
                    + (paid.isEmpty ? "is shared " : "pays for ")
                    + (paid.isEmpty
                    ? shared.map { "\($0.productIdentifier) (\($0.originalTransactionIdentifier))" }
                    : paid.map { "\($0.productId) (\($0.originalTransactionId))" }).joined(separator: ", "))
        case .restore(.alreadySubscribed):
            if levels.isEmpty { return told(Self.describe(outcome.told), wanted: [], levels: levels) }
            if let missing = Self.paidLevelsMissing(outcome, levels, context) { return missing }
            // "You are already subscribed" of levels the server no longer gave (a share revoked, a refund: the phone's
            // levels were old news, session 25), judged at the instant told or of the server's last answer with levels
            // since the restore began (a refund landing while that answer travels makes it old news, not a lie: 3934).
            guard outcome.serverGrantedWhenTold == false else { return nil }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(Self.describe(outcome.told)), but the server granted the reader no "
                    + "level then")
        case .account(.failed):
            if let partly = Self.readingLedger({ try Self.transferViolation(outcome, world) }) { return partly }
            return Self.readingLedger { try Self.transferredWhileToldFailed(outcome, world) }
        case .account(.signedIn(_, moveRefusedUntil: .some)):
            return Self.readingLedger { try Self.moveWaitViolation(outcome, world) }
        case .purchase(.failed), .restore(.failed):
            if let nowhere = Self.readingLedger({ try Self.wentToAccountViolation(outcome, world) }) { return nowhere }
            // "Could not complete the payment" alone, over levels the phone gained while the purchase ran: true, but the
            // reader holds a subscription and is not told (session 32: held before the tap, heard of during it).
            if outcome.told == .purchase(.storeFailed), outcome.identityWhenBegan == outcome.identityWhenTold,
                case let found = outcome.levelsWhenTold.subtracting(outcome.levelsBefore), !found.isEmpty
            {
                return InvariantViolation(
                    .toldIsTrue,
                    "\(world.deviceName) was told \(Self.describe(outcome.told)) alone, but showed "
                        + "\(WorldReading.list(found)) gained while it ran")
            }
            if let moved = Self.readingLedger({ try Self.restoredWhileToldFailed(outcome, context) }) { return moved }
            if let held = Self.readingLedger({ try Self.heldWhileToldFailed(outcome, context) }) { return held }
            // Access gained while the act failed, with nothing else in the step that could have given it (a charge, an
            // earlier purchase's receipt the server accepted meanwhile: its check had timed out, session 25; a sign-in
            // to an account that holds the levels while Apple's sheet was up, long fuzz seed 1031; a purchase the
            // reader held before the act, heard of during it: long fuzz seed 1422).
            let gained = levels.subtracting(outcome.levelsBefore)
            guard alone, !gained.isEmpty,
                outcome.identityWhenBegan == outcome.identityWhenTold,
                !world.store.transactions(appleId: world.appleId).contains(where: { $0.purchaseDate >= outcome.began }),
                (world.receiptAccepted[world.deviceName].map { $0 < outcome.began }) ?? true
            else { return nil }
            do {
                if try Self.heldBeforeTheAct(gained, outcome, context) { return nil }
                // Said found meanwhile: what the reader holds, paid before the tap, however it came while the act ran.
                if outcome.told == .purchase(.storeFailedBesideLevelsFound),
                    try Self.foundWhileItRan(gained, outcome, context)
                {
                    return nil
                }
            } catch {
                return InvariantViolation(.toldIsTrue, "cannot be checked, the ledger cannot be read: \(error)")
            }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(Self.describe(outcome.told)) but holds \(WorldReading.list(levels)) "
                    + "(before: \(WorldReading.list(outcome.levelsBefore)))")
        case .purchase(.ownedByAnotherAccount(let canMove)):
            // A purchase carried on (a parent's approval of another account's request) is not this reader's payment.
            if !outcome.carriedOn, let charged = Self.chargedWhileToldAlreadyPaid(outcome, world) { return charged }
            if canMove, let ended = Self.readingLedger({ try Self.moveOfEndedViolation(outcome, world) }) {
                return ended
            }
            if canMove, let refused = Self.readingLedger({ try Self.moveOfferedViolation(outcome, world) }) {
                return refused
            }
            return Self.readingLedger { try Self.heldElsewhereViolation(outcome, world) }
        case .purchase(.chargedForAnotherOwner):
            return Self.readingLedger { try Self.heldElsewhereViolation(outcome, world) }
        case .purchase(.heldElsewhereUnchecked(let charged, _)):
            // Held elsewhere, and (not charged) already paid for: the facts the server said, its restore's unheard.
            if !charged, let paid = Self.alreadyPaysViolation(outcome, world) { return paid }
            return Self.readingLedger { try Self.heldElsewhereViolation(outcome, world) }
        case .restore(.confirmMoveFromAnotherAccount):
            if let ended = Self.readingLedger({ try Self.moveOfEndedViolation(outcome, world) }) { return ended }
            if let refused = Self.readingLedger({ try Self.moveOfferedViolation(outcome, world) }) { return refused }
            return Self.readingLedger { try Self.heldElsewhereViolation(outcome, world) }
        case .restore(.linkedToAnotherAccount):
            return Self.readingLedger { try Self.heldElsewhereViolation(outcome, world) }
        case .restore(.limitReached), .purchase(.heldElsewhere(.limit, _)):
            return Self.readingLedger { try Self.limitViolation(outcome, world) }
        case .purchase(.heldElsewhere(let why, _)):
            return Self.readingLedger { try Self.keptViolation(why, outcome, world) }
        case .purchase(.planChangeSetElsewhere(let why)):
            if let paid = Self.alreadyPaysViolation(outcome, world) { return paid }
            if why == .limit { return Self.readingLedger { try Self.limitViolation(outcome, world) } }
            return Self.readingLedger { try Self.keptViolation(why, outcome, world) }
        case .purchase(.alreadySubscribedOnAppleId):
            // Both say "use Restore purchase" (`adviceViolation`), a plan change set at the renewal too (session 28).
            return Self.alreadyPaysViolation(outcome, world)
        case .purchase(.subscriptionNotActive):
            return Self.notActiveViolation(outcome, context)
        case .purchase(.refused(.paymentsNotAllowed)):
            return Self.paymentsOffViolation(outcome, world)
        default:
            return nil
        }
    }

    /// "You are already subscribed" leaves nothing the Apple ID paid for when the restore began out of reach: a phone
    /// holding one subscription group's level was told so while the Apple ID paid for the other group's, whose level
    /// never arrived (session 27).
    static func paidLevelsMissing(_ outcome: ReaderOutcome, _ levels: Set<String>, _ context: StepContext)
        -> InvariantViolation?
    {
        let world = context.world
        let charged = world.store.transactions(appleId: world.appleId)
        for subscription in context.paid {
            guard
                charged.contains(where: {
                    $0.originalTransactionIdentifier == subscription.originalTransactionId
                        && $0.purchaseDate < outcome.began
                }),
                let missing = context.levels(of: subscription.productId)?.subtracting(levels), !missing.isEmpty
            else { continue }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)), but \(world.appleId) pays for "
                    + "\(subscription.productId) (\(subscription.originalTransactionId)), whose "
                    + "\(WorldReading.list(missing)) the reader lacks")
        }
        return nil
    }

    /// "Your payment went through" is true only if Apple charged the Apple ID money for the product while the act
    /// ran: a free trial's start, a transaction that cost nothing, is no payment (session 44's walk, hand-01c).
    /// A renewal counts: StoreKit 1 answers a payment for a plan already paid for with the latest transaction,
    /// so one renewed while the act ran is what the app sees, and money did move for the product then.
    static func wentThroughViolation(_ outcome: ReaderOutcome, _ world: World) -> InvariantViolation? {
        guard case .purchase(let told) = outcome.told, told.saysPaymentWentThrough else { return nil }
        let charged = world.store.transactions(appleId: world.appleId).filter { record in
            !record.isFamilyShared && record.purchaseDate >= outcome.began
                && (outcome.productId.map { record.productIdentifier == $0 } ?? true)
        }
        guard !charged.contains(where: { $0.price != 0 }) else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told the payment for \(outcome.productId ?? "the offer") went through, "
                + (charged.isEmpty
                    ? "but the App Store charged nothing for it"
                    : "but the App Store started a free trial, which cost nothing"))
    }

    /// "This Apple ID already pays for another account's subscription" (and "Move it?") speaks of what was paid
    /// before: told of a purchase Apple charged this phone for while the act ran, it hid the charge. A signed-in
    /// reader's resubscription that moved too often to follow who paid was asked "Move it?" as if nothing had been
    /// charged (session 24). ("Already subscribed, not charged again" may follow another payment's charge in the
    /// same moments, an interrupted one resolved: it is judged by `alreadyPaysViolation`.)
    static func chargedWhileToldAlreadyPaid(_ outcome: ReaderOutcome, _ world: World) -> InvariantViolation? {
        let catalog = world.store.catalog
        guard let productId = outcome.productId, let group = catalog.spec(for: productId)?.subscriptionGroup else {
            return nil
        }
        let phone = world.device.queue.deviceId
        // Only a charge for a sheet this phone confirmed during the act is this act's: a code redeemed on the App Store
        // meanwhile, a parent's approval, an interrupted payment resolved during it, charge without this tap.
        let chargedNow = world.timeline.events.reversed().prefix { $0.time >= outcome.began }.compactMap { recorded in
            if case .paymentCharged(phone, let id) = recorded.event, recorded.time <= outcome.at { id } else { nil }
        }
        guard !chargedNow.isEmpty,
            let charged = world.store.transactions(appleId: world.appleId).first(where: { record in
                chargedNow.contains(record.transactionIdentifier)
                    && catalog.spec(for: record.productIdentifier)?.subscriptionGroup == group
            })
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)) as if nothing was charged, but Apple charged "
                + "\(world.appleId) for \(charged.productIdentifier) (transaction \(charged.transactionIdentifier))")
    }

    /// "This device is not allowed to make payments" is true only if Screen Time had them off when it was said.
    static func paymentsOffViolation(_ outcome: ReaderOutcome, _ world: World) -> InvariantViolation? {
        guard outcome.couldPayWhenTold else { return nil }
        return InvariantViolation(
            .toldIsTrue, "\(outcome.device) was told it cannot make payments, but payments were allowed on it")
    }

    /// A claim the ledger cannot be read to judge has not been seen true: a violation that says why.
    private static func readingLedger(_ judge: () throws -> InvariantViolation?) -> InvariantViolation? {
        do {
            return try judge()
        } catch {
            return InvariantViolation(.toldIsTrue, "cannot be checked, the ledger cannot be read: \(error)")
        }
    }

    /// `wanted` empty: any level would do, and the phone holds none.
    /// "Nothing to restore" changes nothing: a restore that moved a purchase (an ended one, to a new guest) spent one
    /// of its three moves, and a guest's taps on new phones left a resubscription unrestorable (session 23).
    private static func movedByARestoreOfNothing(_ outcome: ReaderOutcome, _ world: World) -> InvariantViolation? {
        let moves: [OwnershipMove]
        do {
            moves = try world.backend.ledger.moves()
        } catch {
            return InvariantViolation(.toldIsTrue, "cannot be checked, the ledger cannot be read: \(error)")
        }
        let bought = Set(world.store.transactions(appleId: world.appleId).map(\.originalTransactionIdentifier))
        guard
            let moved = moves.last(where: {
                $0.via == .restore && bought.contains($0.originalTransactionId) && $0.at >= outcome.began
                    && $0.at <= outcome.at
            })
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)), but the restore moved "
                + "\(moved.originalTransactionId) to \(moved.to)")
    }

    /// "Nothing valid to move" is true only if the transfer moved nothing: moving an ended purchase spent one of its
    /// three moves on nothing (session 24). ("Now on your account" may follow an earlier move whose answer was late.)
    private static func transferViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        if case .account(.failed(let message)) = outcome.told, message.contains("stays on this phone"),
            let guest = outcome.transferFrom,
            let move = try world.backend.ledger.moves().last(where: {
                $0.via == .transfer && $0.from == guest && $0.at >= outcome.began && $0.at <= outcome.at
            })
        {
            // "Stays on this phone" of a transfer that moved part of it (session 34).
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told its subscription stays on this phone, but the transfer moved "
                    + "\(move.originalTransactionId) to \(move.to)")
        }
        guard outcome.told == .account(.nothingValidToMove),
            let move = try world.backend.ledger.moves().last(where: {
                $0.via == .transfer && $0.at >= outcome.began && $0.at <= outcome.at
            })
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told there was nothing valid to move, but the transfer moved "
                + "\(move.originalTransactionId) to \(move.to)")
    }

    private func told(_ what: String, wanted: Set<String>, levels: Set<String>) -> InvariantViolation {
        let holds = wanted.isEmpty ? "no level" : "\(WorldReading.list(levels)), not \(WorldReading.list(wanted))"
        return InvariantViolation(.toldIsTrue, "the reader was told \(what) but the phone holds \(holds)")
    }

    static func describe(_ told: ReaderOutcome.Told) -> String {
        switch told {
        case .purchase(let outcome): "purchase \(outcome)"
        case .restore(let outcome): "restore: \"\(outcome.message)\""
        case .account(let outcome): "account \(outcome)"
        }
    }
}
