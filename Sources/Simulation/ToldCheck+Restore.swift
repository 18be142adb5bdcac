import AppFlow
import BackendSim
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9 for what a reader is told to do about a subscription held elsewhere: "use Restore purchase" only where
/// a restore here would not be refused by the move limit or the owner's policy (said by any purchase alert: session
/// 30), the move limit only where it is the reason, and "it stays where it was bought" (or with its owner, or with an
/// account) only where the policy or the owner says so (session 27).
extension ToldCheck {
    /// What a purchase's alert advises or blames, judged by its words whatever the path that chose them (session 30:
    /// "Use Restore purchase to get it back" of a check that failed after paying, past the move limit; "moves at most 3
    /// times in 30 days" of an offer code's charge that never moved): the move limit named must be the ledger's reason,
    /// and Restore advised (not "again later", which the limit judges) must be what a restore here would do. Judged
    /// after a fault too when the app heard the server say what a restore here would answer while the act ran.
    /// `spoken`: when the server spoke the answer to what a restore here would do that the app heard while the act ran.
    static func adviceViolation(_ outcome: ReaderOutcome, _ world: World, spoken: SimInstant? = nil) throws
        -> InvariantViolation?
    {
        guard case .purchase(let told) = outcome.told else { return nil }
        let signedIn = if case .account = outcome.identityWhenTold { true } else { false }
        guard let message = purchaseAlert(told, of: outcome.productId, signedIn: signedIn)?.message else {
            return nil
        }
        let advice = AdviceWords.of(message)
        if advice.movesLimit { return try limitViolation(outcome, world) }
        guard advice.restore else { return nil }
        return try restoreRefusedViolation(outcome, world, accountsAside: advice.logIn, spoken: spoken)
    }

    /// A reader told to restore while a restore here is refused: the Apple ID's active subscription of the group,
    /// held by someone else, moved the limit's times in the window, or the policy keeps it with its owner, or (to a
    /// guest) an account holds it. `accountsAside`: the words send a guest to log in to an account that holds it.
    static func restoreRefusedViolation(
        _ outcome: ReaderOutcome, _ world: World, accountsAside: Bool = true, spoken: SimInstant? = nil
    ) throws -> InvariantViolation? {
        guard let refusal = try restoreRefusal(outcome, world, accountsAside: accountsAside, spoken: spoken) else {
            return nil
        }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)) with \"use Restore purchase\", but a restore "
                + "here is refused: \(refusal)")
    }
    /// "Move it to this account?" (a restore that found another account's subscription, or a purchase that stopped
    /// before paying for one) offers a move the reader's "Move it" then asks the server for: untrue where the server
    /// would refuse it, the move limit reached or the policy keeping it (session 32: asked past the limit, the server
    /// checking the confirmation first). Of the purchase's group, or of any for a restore's.
    static func moveOfferedViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        guard
            let refusal = try restoreRefusal(
                outcome, world, accountsAside: false, spoken: spokenWhileRan(outcome, world), anyGroup: true)
        else { return nil }
        return InvariantViolation(
            .toldIsTrue,
            "\(world.deviceName) was told \(describe(outcome.told)), asked to move it here, but the move is refused: "
                + refusal)
    }

    /// "It stays where it was bought" (or with its owner, or with an account): someone else holds the Apple ID's
    /// purchase, and the restore policy (or the owner's kind) keeps it there.
    static func keptViolation(_ why: MoveRefusal, _ outcome: ReaderOutcome, _ world: World) throws
        -> InvariantViolation?
    {
        if let elsewhere = try heldElsewhereViolation(outcome, world) { return elsewhere }
        let policy = world.config.backend.restorePolicy ?? .transfer
        let holds =
            switch why {
            case .keptWithOwner: policy == .keepWithOriginalOwner
            case .ownerActive: policy == .transferIfOwnerInactive
            case .accountOwned, .limit: true
            }
        guard !holds else { return nil }
        return InvariantViolation(
            .toldIsTrue, "\(world.deviceName) was told \(describe(outcome.told)), but the restore policy is \(policy)")
    }

    /// Why a restore by the reader (the account told, else the phone's guest) would be refused for a purchase of the
    /// outcome's group someone else holds, as the ownership rules decide it when told; nil when it would move (or
    /// none is held so), or when another active purchase of the group, the Apple ID's own or a family member's shared
    /// with it, would come here: the restore then brings the group's access (long fuzz seed 1293: the reader's monthly
    /// past the move limit beside a family share of the yearly, which a restore here moves). Active by Apple's word,
    /// as the restore judges it: a resubscription whose check failed is news the ledger has not heard (session 30).
    /// A purchase that moved after the server `spoken` its answer the app heard, before the reader was told, is not
    /// judged: the server's word was of the owner then (long fuzz seed 1410: Apple's news of a resubscription moved it
    /// to the account that paid while "a restore here brings it" travelled to the guest), nor one the server changed
    /// since (long fuzz seed 2186).
    /// `anyGroup`: an outcome with no product (a restore's) is judged over every group's purchases.
    private static func restoreRefusal(
        _ outcome: ReaderOutcome, _ world: World, accountsAside: Bool, spoken: SimInstant?, anyGroup: Bool = false
    ) throws -> String? {
        let catalog = world.store.catalog
        let group = outcome.productId.flatMap { catalog.spec(for: $0)?.subscriptionGroup }
        guard group != nil || (anyGroup && outcome.productId == nil) else { return nil }
        let ledger = world.backend.ledger
        let caller: (id: String?, kind: IdentityRecord.Kind) =
            if case .account(let email) = outcome.identityWhenTold {
                (try ledger.identityId(email: email), .account)
            } else {
                (world.device.storage.anonymousIdentity?.id, .anonymous)
            }
        let policy = world.config.backend.restorePolicy ?? .transfer
        let moves = try ledger.moves()
        // Apple's records as they were when told: a renewal after the telling is not the newest purchase a restore then
        // would report, nor a refund after it an end (long 2400: a telling `without waiting` judged after `advance 8d`).
        let records =
            (world.store.transactions(appleId: world.appleId)
            + world.store.familySharedTransactions(appleId: world.appleId)).filter { $0.purchaseDate <= outcome.at }
        let inGroup = records.filter {
            group == nil || catalog.spec(for: $0.productIdentifier)?.subscriptionGroup == group
        }
        let entitled = entitledWhen(outcome.at, records, world)
        var refusal: String?
        for original in Set(inGroup.map(\.originalTransactionIdentifier)).sorted() {
            guard let purchase = try ledger.purchase(original),
                purchase.isActive(at: outcome.at) || entitled.contains(original)
            else { continue }
            if let spoken,
                moves.contains(where: {
                    $0.originalTransactionId == original && $0.at > spoken && $0.at <= outcome.at
                })
            {
                continue
            }
            // Nor one that moved after the telling, before the check: its owner, and who paid for it unheard, are read
            // now, its moves up to the telling, so a follow of who paid written after the telling would count in neither
            // (long fuzz seed 2249) and a move away would be judged as if made before.
            if moves.contains(where: { $0.originalTransactionId == original && $0.at > outcome.at }) { continue }
            // Nor one the server changed after it spoke (a resubscription, a refund): its word was of the purchase then
            // (long fuzz seed 2186: a code redeemed while Apple's sheet was up made the phone's guest's subscription,
            // revoked when the check before paying spoke, active again, which a restore by the account leaves with it).
            if let spoken,
                let changed = try ledger.lastChanged(
                    original, before: SimInstant(milliseconds: outcome.at.milliseconds + 1)),
                changed > spoken
            {
                continue
            }
            // Nobody's or the reader's already: a restore here brings it. So does a guest made for this phone whose
            // answer it never heard, to a phone without one (the restore hands it back under any policy).
            guard var owner = purchase.ownerId, owner != caller.id else { return nil }
            if caller.id == nil, try ledger.deviceOfAnonymousIdentity(owner) == world.device.queue.deviceId {
                return nil
            }
            var ownerKind = try ledger.identity(owner)?.kind
            var inWindow = moves.filter {
                $0.originalTransactionId == original && $0.at <= outcome.at
                    && $0.at.milliseconds > outcome.at.milliseconds - OwnershipRules.window.milliseconds
            }.count
            // The restore reports Apple's newest purchase of it first, which follows who paid (seed 003).
            if let payer = try newPayer(of: original, inGroup, owner: owner, ownerKind, inWindow, world) {
                guard payer.id != caller.id else { return nil }
                (owner, ownerKind, inWindow) = (payer.id, payer.kind, inWindow + 1)
            }
            if accountsAside, caller.kind == .anonymous, ownerKind == .account { continue }
            let decision = OwnershipRules.decide(
                OwnershipRules.Situation(
                    ownerId: owner, ownerKind: ownerKind,
                    ownerHasActivePurchase: try ledger.purchases(ownedBy: owner).contains {
                        $0.isActive(at: outcome.at)
                    },
                    callerId: caller.id, callerKind: caller.kind, receiptIsFromThisDevice: true,
                    movesInWindow: inWindow, policy: policy, confirmedMoveFromAccount: true))
            guard case .refuse(let reason) = decision else { return nil }
            refusal = refusal ?? "\(original) → \(reason.rawValue)"
        }
        return refusal
    }

    /// What Apple entitled the Apple ID to at `at`, from its records dated by then: a period paid for that had not
    /// ended nor been refunded, or a billing retry's grace under way then and now (its period over by `at`).
    private static func entitledWhen(_ at: SimInstant, _ records: [TransactionRecord], _ world: World) -> Set<String> {
        let paid = records.filter {
            ($0.expiresDate.map { $0 > at } ?? true) && ($0.revocationDate.map { $0 > at } ?? true)
        }
        let inGrace = world.store.subscriptions(appleId: world.appleId).filter {
            $0.state == .gracePeriod && $0.expiresDate <= at && ($0.gracePeriodExpiresDate.map { $0 > at } ?? false)
        }
        return Set(paid.map(\.originalTransactionIdentifier) + inGrace.map(\.originalTransactionId))
    }

    /// The customer `original`'s newest purchase names, where reporting it moves the purchase to them (`follow`): a
    /// new purchase, not a renewal, newer than the one that last decided its owner, within the move limit, never from
    /// an account to a guest.
    private static func newPayer(
        of original: String, _ records: [TransactionRecord], owner: String, _ ownerKind: IdentityRecord.Kind?,
        _ inWindow: Int, _ world: World
    ) throws -> (id: String, kind: IdentityRecord.Kind?)? {
        let ledger = world.backend.ledger
        guard
            let newest = records.filter({ $0.originalTransactionIdentifier == original && !$0.isFamilyShared })
                .max(by: { $0.purchaseDate < $1.purchaseDate }),
            newest.transactionReason != "RENEWAL", let token = newest.appAccountToken,
            newest.purchaseDate.milliseconds > (try ledger.ownerPurchaseMillis(original)),
            let payer = try world.backend.customer(namedBy: token), payer != owner,
            inWindow < OwnershipRules.moveLimit
        else { return nil }
        let kind = try ledger.identity(payer)?.kind
        if ownerKind == .account, kind == .anonymous { return nil }
        return (payer, kind)
    }
}
