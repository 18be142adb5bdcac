import SimKernel
import WhiteLabel

/// Why a restore or transfer left a purchase where it was. Each code is part of the API.
public enum OwnershipRefusal: String, Error, Sendable, CaseIterable {
    /// The receipt was issued for another device than the one asking.
    case notThisDevice = "restore_not_this_device"
    /// A guest may never take a purchase from an account.
    case accountOwned = "restore_account_owned"
    /// The purchase already moved 3 times in the last 30 days.
    case limit = "restore_limit"
    /// The app's policy keeps purchases with their original owner.
    case keptWithOwner = "restore_kept_with_owner"
    /// The app's policy moves a purchase only when its owner has no active subscription.
    case ownerActive = "restore_owner_active"
    /// Another account owns it: the reader must confirm the move first.
    case needsConfirmation = "restore_needs_confirmation"

    public var status: Int {
        switch self {
        case .limit, .needsConfirmation: 409
        default: 403
        }
    }
}

/// The rules that decide whether a purchase may change hands (seed 003), as one pure function.
public enum OwnershipRules {
    /// At most this many moves in `window`, restores and new purchases counted together.
    public static let moveLimit = 3
    public static let window = SimDuration.days(30)

    /// What a restore (or transfer) should do with one purchase.
    public enum Decision: Equatable, Sendable {
        /// The caller already owns it.
        case alreadyYours
        /// Nobody owns it yet: it becomes the caller's (not a move).
        case claim
        /// It moves from its owner to the caller.
        case move
        case refuse(OwnershipRefusal)

        /// Someone else's: it would move, or the rules refuse. What the phone whose guest owns it, restoring again
        /// without that guest's token, takes back as it is (not a move).
        var movesOrRefuses: Bool {
            switch self {
            case .move, .refuse: true
            case .alreadyYours, .claim: false
            }
        }
    }

    /// The facts one decision needs.
    public struct Situation: Equatable, Sendable {
        public var ownerId: String?
        public var ownerKind: IdentityRecord.Kind?
        /// Whether the owner holds any active purchase (for "transfer only when inactive").
        public var ownerHasActivePurchase: Bool
        /// nil: a guest with no identity yet.
        public var callerId: String?
        public var callerKind: IdentityRecord.Kind
        /// Whether the receipt was issued for the device asking.
        public var receiptIsFromThisDevice: Bool
        public var movesInWindow: Int
        public var policy: RestorePolicy
        /// The reader confirmed moving a purchase linked to another account.
        public var confirmedMoveFromAccount: Bool

        public init(
            ownerId: String?, ownerKind: IdentityRecord.Kind?, ownerHasActivePurchase: Bool, callerId: String?,
            callerKind: IdentityRecord.Kind, receiptIsFromThisDevice: Bool, movesInWindow: Int, policy: RestorePolicy,
            confirmedMoveFromAccount: Bool
        ) {
            self.ownerId = ownerId
            self.ownerKind = ownerKind
            self.ownerHasActivePurchase = ownerHasActivePurchase
            self.callerId = callerId
            self.callerKind = callerKind
            self.receiptIsFromThisDevice = receiptIsFromThisDevice
            self.movesInWindow = movesInWindow
            self.policy = policy
            self.confirmedMoveFromAccount = confirmedMoveFromAccount
        }
    }

    public static func decide(_ situation: Situation) -> Decision {
        guard let owner = situation.ownerId else { return .claim }
        if owner == situation.callerId { return .alreadyYours }
        if !situation.receiptIsFromThisDevice { return .refuse(.notThisDevice) }
        if situation.ownerKind == .account && situation.callerKind == .anonymous { return .refuse(.accountOwned) }
        switch situation.policy {
        case .transfer: break
        case .keepWithOriginalOwner: return .refuse(.keptWithOwner)
        case .transferIfOwnerInactive: if situation.ownerHasActivePurchase { return .refuse(.ownerActive) }
        }
        // The limit before the reader's confirmation: "Move it?" asked of a move the limit then refused offered what
        // the server would not do (session 32).
        if situation.movesInWindow >= moveLimit { return .refuse(.limit) }
        if situation.ownerKind == .account && !situation.confirmedMoveFromAccount { return .refuse(.needsConfirmation) }
        return .move
    }
}
