import BackendSim
import SimKernel
import StoreSim
import Subscriptions

/// Invariant 9 for what a guest is told to do about a subscription held elsewhere: "use Restore purchase to bring it
/// here" only where a restore here would not be refused by the move limit or the owner's policy, and "it stays where
/// it was bought" (or with its owner, or with an account) only where the policy or the owner says so (session 27).
extension ToldCheck {
    /// A guest told to restore (Apple's "already subscribed", or a charge that went to another's subscription) while
    /// the Apple ID's subscription of the group, held by another guest, moved the limit's times in the window, or the
    /// policy keeps it with its owner.
    static func restoreRefusedViolation(_ outcome: ReaderOutcome, _ world: World) throws -> InvariantViolation? {
        guard case .account = outcome.identityWhenTold else {
            guard let refusal = try guestRestoreRefusal(outcome, world) else { return nil }
            return InvariantViolation(
                .toldIsTrue,
                "\(world.deviceName) was told \(describe(outcome.told)) with \"use Restore purchase\", but a restore "
                    + "here is refused: \(refusal)")
        }
        return nil
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

    /// Why a restore by this phone's guest would be refused for a purchase of the outcome's group another guest
    /// holds, as the ownership rules decide it when told; nil when it would move (or none is held so), or when another
    /// active purchase of the group, the Apple ID's own or a family member's shared with it, would come here: the
    /// restore then brings the group's access (long fuzz seed 1293: the reader's monthly past the move limit beside a
    /// family share of the yearly, which a restore here moves).
    private static func guestRestoreRefusal(_ outcome: ReaderOutcome, _ world: World) throws -> String? {
        let catalog = world.store.catalog
        guard let productId = outcome.productId, let group = catalog.spec(for: productId)?.subscriptionGroup else {
            return nil
        }
        let ledger = world.backend.ledger
        let guest = world.device.storage.anonymousIdentity?.id
        let policy = world.config.backend.restorePolicy ?? .transfer
        let moves = try ledger.moves()
        let records =
            world.store.transactions(appleId: world.appleId)
            + world.store.familySharedTransactions(appleId: world.appleId)
        let originals = Set(
            records.filter { catalog.spec(for: $0.productIdentifier)?.subscriptionGroup == group }
                .map(\.originalTransactionIdentifier))
        var refusal: String?
        for original in originals.sorted() {
            guard let purchase = try ledger.purchase(original), purchase.isActive(at: outcome.at) else { continue }
            // Nobody's or this guest's already: a restore here brings it.
            guard let owner = purchase.ownerId, owner != guest else { return nil }
            guard try ledger.identity(owner)?.kind == .anonymous else { continue }
            let inWindow = moves.filter {
                $0.originalTransactionId == original && $0.at <= outcome.at
                    && $0.at.milliseconds > outcome.at.milliseconds - OwnershipRules.window.milliseconds
            }
            let decision = OwnershipRules.decide(
                OwnershipRules.Situation(
                    ownerId: owner, ownerKind: .anonymous,
                    ownerHasActivePurchase: try ledger.purchases(ownedBy: owner).contains {
                        $0.isActive(at: outcome.at)
                    },
                    callerId: guest, callerKind: .anonymous, receiptIsFromThisDevice: true,
                    movesInWindow: inWindow.count, policy: policy, confirmedMoveFromAccount: false))
            guard case .refuse(let reason) = decision else { return nil }
            refusal = refusal ?? "\(original) → \(reason.rawValue)"
        }
        return refusal
    }
}
