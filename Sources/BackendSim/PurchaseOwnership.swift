import Database
import SimKernel
import StoreSim

/// Seed 003: a new purchase (a switch of plan, a resubscription, an offer bought) whose appAccountToken
/// names another customer moves the purchase to them, whoever reports it — the app or Apple's
/// notification: on an Apple ID shared by the app's accounts, the subscription follows who paid. A
/// purchase with no token, a renewal, and a transaction reported again or late move nothing.
extension Backend {
    /// What the ownership rules need of one transaction.
    struct NewPurchase {
        let originalTransactionId: String
        let appAccountToken: String?
        /// `PURCHASE` or `RENEWAL`.
        let reason: String?
        let purchaseMillis: Int64
    }

    /// The customer a token names: the app asked for it in an access answer (`appAccountToken`).
    func payer(_ token: String?) throws -> IdentityRecord? {
        guard let token = token?.lowercased() else { return nil }
        if let id = try ledger.identityId(appAccountToken: token) { return try ledger.identity(id) }
        guard let id = try ledger.identityIds().first(where: { appAccountToken(for: $0) == token }) else {
            return nil
        }
        try ledger.remember(appAccountToken: token, of: id)
        return try ledger.identity(id)
    }

    /// Says, for the checks, that a report of the app's receipt names `record`: it is the backend's news now.
    func reported(_ record: TransactionRecord) {
        timeline.record(
            .purchaseReported(
                originalTransactionId: record.originalTransactionIdentifier, transactionId: record.transactionIdentifier
            ))
    }

    /// The identity a token names, read without writing (what the checks of the ledger ask).
    public func customer(namedBy token: String) throws(DatabaseError) -> String? {
        let token = token.lowercased()
        if let id = try ledger.identityId(appAccountToken: token) { return id }
        return try ledger.identityIds().first { appAccountToken(for: $0) == token }
    }

    /// Where a known purchase goes by who paid for its newest purchase, within the moves' rules: `follow` carries it
    /// out, `wouldFollow` only reads it (one decision, so the inspect and the restore cannot disagree).
    enum FollowDecision {
        case claim(by: String)
        case move(from: String, to: String)
        case refused(OwnershipRefusal)
        case stays
    }

    /// The decision for `purchase`; nil where who paid does not apply (a renewal, an unknown or older purchase, no
    /// customer named by its token).
    func followDecision(_ purchase: NewPurchase, at now: SimInstant) throws -> FollowDecision? {
        let id = purchase.originalTransactionId
        guard purchase.reason != "RENEWAL", let known = try ledger.purchase(id),
            purchase.purchaseMillis > (try ledger.ownerPurchaseMillis(id)),
            let payer = try payer(purchase.appAccountToken)
        else { return nil }
        guard let ownerId = known.ownerId else { return .claim(by: payer.id) }
        guard ownerId != payer.id else { return .stays }
        if try ledger.identity(ownerId)?.kind == .account && payer.kind == .anonymous { return .refused(.accountOwned) }
        if try ledger.moveCount(id, within: OwnershipRules.window, before: now) >= OwnershipRules.moveLimit {
            return .refused(.limit)
        }
        return .move(from: ownerId, to: payer.id)
    }

    /// What `follow` would do to a known purchase, read without writing: for the inspect a restore's ask is answered
    /// with (long fuzz seed 1410, session 223: "yours" told to the guest of a purchase the restore would hand to the
    /// account that paid for its newest purchase, refusing the guest).
    struct UnwrittenFollow {
        /// The customer it would go to.
        let payer: String
        /// A move (counted toward the limit), not a claim of a purchase nobody held.
        let moves: Bool
    }

    /// The follow `follow` would carry out, without writing: nil where the purchase would stay. The restore decides
    /// after its follow is written, so the inspect's decision counts this one's move (session 31).
    func wouldFollow(_ purchase: NewPurchase, at now: SimInstant) throws -> UnwrittenFollow? {
        switch try followDecision(purchase, at: now) {
        case .claim(let payer): UnwrittenFollow(payer: payer, moves: false)
        case .move(_, let payer): UnwrittenFollow(payer: payer, moves: true)
        case .refused, .stays, nil: nil
        }
    }

    /// Gives a known purchase to the customer who paid for its newest purchase, within the moves' rules;
    /// the refusal when it stays where it was. Runs inside the request's change.
    func follow(_ purchase: NewPurchase, at now: SimInstant) throws -> OwnershipRefusal? {
        let id = purchase.originalTransactionId
        guard let decision = try followDecision(purchase, at: now) else { return nil }
        try ledger.setOwnerPurchaseMillis(id, purchase.purchaseMillis)
        switch decision {
        case .claim(let payer):
            try ledger.claim(id, by: payer, at: now)
        case .move(let owner, let payer):
            try ledger.move(id, from: owner, to: payer, via: .purchase, at: now)
            timeline.log(.backend, "purchase \(id) follows who paid: \(owner) → \(payer)")
        case .refused(let refusal):
            return refusal
        case .stays:
            break
        }
        return nil
    }
}

extension Backend.NewPurchase {
    init(_ record: TransactionRecord) {
        self.init(
            originalTransactionId: record.originalTransactionIdentifier, appAccountToken: record.appAccountToken,
            reason: record.transactionReason, purchaseMillis: record.purchaseDate.milliseconds)
    }

    init(_ transaction: TransactionInfo) {
        self.init(
            originalTransactionId: transaction.originalTransactionId, appAccountToken: transaction.appAccountToken,
            reason: transaction.transactionReason, purchaseMillis: transaction.purchaseDate)
    }
}
