import AppFlow
import BackendSim
import SimKernel
import StoreSim

/// Invariant 10, a paying reader keeps access: every paid subscription an anonymous identity owns is
/// held by a phone of the world; the article on screen loads when the levels unlock it; and after a
/// launch, a restart or a return to the foreground, the phone shows the levels its identity owns.
/// What a fault (or, for ownership, a kill) since the act explains is excused.
enum PayingCheck {
    static func violations(_ context: StepContext, interruptedAt: SimInstant?) -> [InvariantViolation] {
        InvariantViolation.checking(.payingKeepsAccess) {
            try orphans(context, interruptedAt: interruptedAt) + unreadContent(context)
                + levelsAfterLaunch(context, interruptedAt: interruptedAt)
        }
    }

    /// (a) Nothing paid belongs to an anonymous identity no phone keeps: that reader lost it for good.
    private static func orphans(_ context: StepContext, interruptedAt: SimInstant?) throws -> [InvariantViolation] {
        // Judged once the world settled: while the receipt's answer is on its way, the identity the server just made
        // is not on the phone yet (a false alarm, session 25: a step that stopped 2.7 s into the check).
        guard context.settled else { return [] }
        let world = context.world
        let ledger = world.backend.ledger
        let held = world.heldAnonymousIdentities
        var found: [InvariantViolation] = []
        for paid in context.paid {
            guard let owner = try ledger.purchase(paid.originalTransactionId)?.ownerId, !held.contains(owner),
                try ledger.identity(owner)?.kind == .anonymous
            else { continue }
            // A first claim is no move: when it got this owner is the ledger's to say, not the world's start (a
            // fault at any time before would excuse it).
            let movedAt = try ledger.ownedSince(paid.originalTransactionId) ?? .worldStart
            // Given by a receipt (a first claim or a move to who paid), not by a restore or a transfer.
            let lastMove = try ledger.moves().last { $0.originalTransactionId == paid.originalTransactionId }
            let byReceipt = lastMove.map { $0.at < movedAt || $0.via == .purchase } ?? true
            // A fault in the step that moved it, the app quit since or in that very step (the quit app asked
            // for it; its answer was lost with the app) unless it came by a receipt and the phone has started
            // again and sent that receipt again, or an error the reader was told since (the answer never came
            // back): the reader knows to try again, and a restore on that phone gets its identity back.
            let interrupted = interruptedAt.map { $0 >= context.stepBegan(containing: movedAt) } ?? false
            let resent = interrupted && byReceipt ? try resentSince(movedAt, madeFor: owner, context) : false
            let excused = interrupted && !resent
            if context.faultSince(context.stepBegan(containing: movedAt)) || excused
                || toldFailure(since: movedAt, world)
            {
                continue
            }
            found.append(
                InvariantViolation(
                    .payingKeepsAccess,
                    "\(paid.productId) (\(paid.originalTransactionId)), paid for, belongs to anonymous \(owner), "
                        + "which no phone keeps (phones keep \(WorldReading.list(held)))"))
        }
        return found
    }

    /// Whether the app on screen, started again since its quit lost a receipt's answer (at or after the step that
    /// gave `owner` the purchase), has settled with no fault since that quit: it sent the receipt again at launch,
    /// so the identity the server made for this phone is back on it.
    private static func resentSince(_ movedAt: SimInstant, madeFor owner: String, _ context: StepContext) throws
        -> Bool
    {
        let world = context.world
        guard context.settled, world.isAppRunning, let lost = world.receiptAnswerLost[world.deviceName],
            lost == world.lastAppQuit, lost >= context.stepBegan(containing: movedAt), !context.faultSince(lost)
        else { return false }
        return try world.backend.ledger.deviceOfAnonymousIdentity(owner) == world.device.queue.deviceId
    }

    /// Whether the reader was told, since `instant`, that a purchase, a restore or a sign-in failed.
    static func toldFailure(since instant: SimInstant, _ world: World) -> Bool {
        world.readerOutcomes.reversed().prefix { $0.at >= instant }.contains {
            switch $0.told {
            case .restore(.failed), .purchase(.failed), .purchase(.serverCheckFailed), .account(.failed): true
            default: false
            }
        }
    }

    /// (b) The article on screen, unlocked by the phone's levels, is loaded once the world settled.
    private static func unreadContent(_ context: StepContext) -> [InvariantViolation] {
        let world = context.world
        let state = world.appState
        guard context.settled, world.isAppRunning, state.alert == nil, case .content(let id) = state.route,
            let item = state.item(id), !item.requiredLevels.isEmpty, state.access.unlocks(item.requiredLevels)
        else { return [] }
        let shown: String
        switch state.fullContent[id] {
        case .loaded: return []
        case .failed(let message): shown = "\"\(message)\""
        case .loading, nil: shown = "no full text after every answer arrived"
        }
        // Opened in this step, it was the reader's ask now: only a fault since excuses it (a failure from before, never
        // asked again, does not).
        var asked = world.contentRequested(id) ?? context.began
        if context.step == .reader(.openContent(id)) { asked = max(asked, context.began) }
        if context.faultSince(asked) { return [] }
        return [
            InvariantViolation(
                .payingKeepsAccess,
                "\(world.deviceName) holds \(WorldReading.list(context.phoneLevels)), which unlocks \(id), but shows \(shown)"
            )
        ]
    }

    /// (c) After the app starts or comes back, it shows the levels of every paid subscription its identity owns.
    private static func levelsAfterLaunch(_ context: StepContext, interruptedAt: SimInstant?) throws
        -> [InvariantViolation]
    {
        let world = context.world
        guard context.step == .restartApp || context.step == .foreground, context.settled, world.isAppRunning,
            !context.faultSince(context.began)
        else { return [] }
        let identity = world.appState.access.identity
        let ownerId: String?
        switch identity {
        case .none: ownerId = nil
        case .anonymous(let id): ownerId = id
        case .account(let email): ownerId = try world.backend.ledger.identityId(email: email)
        }
        guard let ownerId else { return [] }
        let rows = try world.backend.ledger.purchasesWithAppleCheck(ownedBy: ownerId)
        let owned = Set(rows.map(\.purchase.originalTransactionId))
        // Apple's last change to a purchase (an upgrade, a renewal) that a fault since may have kept from the
        // backend, which has not heard from Apple about it after: the phone shows what the backend knows until
        // it asks Apple (its daily reconciliation, a receipt, a restore).
        let heard = Dictionary(
            rows.map { ($0.purchase.originalTransactionId, max($0.purchase.appleSignedMillis, $0.appleChecked)) },
            uniquingKeysWith: max)
        let paid = context.paid.filter { subscription in
            guard owned.contains(subscription.originalTransactionId) else { return false }
            let id = subscription.originalTransactionId
            let latest = context.charged.filter { $0.originalTransactionIdentifier == id }
                .max { $0.purchaseDate < $1.purchaseDate }
            guard let latest, context.faultSince(latest.purchaseDate) else { return true }
            // Heard from Apple after the change: strictly, for news signed in the change's own millisecond may
            // predate it (a refund's notification, then a parent's approval, seed 9 of the long run), unless the
            // backend's state already holds the period the change paid for.
            if (heard[id] ?? 0) > latest.purchaseDate.milliseconds { return true }
            let row = rows.first { $0.purchase.originalTransactionId == id }?.purchase
            return row.map { Self.holds($0, latest) } ?? true
        }
        let expected = Set(paid.flatMap { context.levels(of: $0.productId) ?? [] })
        guard !expected.isSubset(of: context.phoneLevels) else { return [] }
        // A move to this owner, or any change to a purchase it owns (a first claim, Apple's new state), that
        // landed during this step, the app quit before it, was asked for by the quit app or came unasked (a
        // restore in flight at a restart, a notification): the new launch may have read the levels before it,
        // and nothing tells a phone of a change it did not ask for until it asks again (the profile, the
        // foreground). Except what the server had done when it last accepted a receipt of this phone in this step:
        // the launch knows that by now, from that answer or, when the quit lost it, from sending it again.
        if let interruptedAt, context.began >= interruptedAt {
            let known = context.receiptAcceptedDuring(on: world.deviceName)
            let unknownSince = known.map { SimInstant(milliseconds: $0.milliseconds + 1) } ?? context.began
            if try changed(owned, toOrOf: ownerId, since: unknownSince, world) { return [] }
        }
        // The app asked in this step, and the change came after the server's answer (a notification entered a
        // purchase for the account, seed 2493): the phone learns it when it next asks.
        if let heard = world.words.saidAt(on: world.deviceName, identityId: ownerId),
            heard >= context.began.milliseconds,
            try changed(owned, toOrOf: ownerId, since: SimInstant(milliseconds: heard + 1), world)
        {
            return []
        }
        return [
            InvariantViolation(
                .payingKeepsAccess,
                "after the app started or came back, \(WorldReading.describe(identity)) owns \(paid.map(\.productId).joined(separator: ", ")), "
                    + "paid for, but \(world.deviceName) shows \(WorldReading.list(context.phoneLevels)), not \(WorldReading.list(expected))"
            )
        ]
    }

    /// Whether the backend's purchase already gives what `charge` paid for: its product, unrevoked, until its end.
    private static func holds(_ purchase: PurchaseRecord, _ charge: TransactionRecord) -> Bool {
        guard !purchase.revoked, purchase.productId == charge.productIdentifier else { return false }
        guard let paidUntil = charge.expiresDate else { return true }
        return purchase.expires.map { $0 >= paidUntil } ?? true
    }

    /// Whether, since `instant`, the ledger moved one of `owned` to `ownerId` or changed one of them.
    private static func changed(_ owned: Set<String>, toOrOf ownerId: String, since instant: SimInstant, _ world: World)
        throws -> Bool
    {
        let ledger = world.backend.ledger
        return try ledger.moves().contains {
            $0.to == ownerId && $0.at >= instant && owned.contains($0.originalTransactionId)
        }
            || !(try ledger.purchasesChanged(since: instant)).isDisjoint(with: owned)
    }
}
