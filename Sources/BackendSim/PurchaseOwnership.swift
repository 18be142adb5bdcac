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

    /// The customer `follow` would give a known purchase to, without writing: nil where it would stay. For the inspect
    /// a restore's ask is answered with (long fuzz seed 1410, session 223: "yours" told to the guest of a purchase the
    /// restore would hand to the account that paid for its newest purchase, refusing the guest).
    func wouldFollow(_ purchase: NewPurchase, at now: SimInstant) throws -> String? {
        let id = purchase.originalTransactionId
        guard purchase.reason != "RENEWAL", let known = try ledger.purchase(id),
            purchase.purchaseMillis > (try ledger.ownerPurchaseMillis(id)),
            let payer = try payer(purchase.appAccountToken)
        else { return nil }
        guard let ownerId = known.ownerId else { return payer.id }
        guard ownerId != payer.id,
            !(try ledger.identity(ownerId)?.kind == .account && payer.kind == .anonymous),
            try ledger.moveCount(id, within: OwnershipRules.window, before: now) < OwnershipRules.moveLimit
        else { return nil }
        return payer.id
    }

    /// Gives a known purchase to the customer who paid for its newest purchase, within the moves' rules;
    /// the refusal when it stays where it was. Runs inside the request's change.
    func follow(_ purchase: NewPurchase, at now: SimInstant) throws -> OwnershipRefusal? {
        let id = purchase.originalTransactionId
        guard purchase.reason != "RENEWAL", let known = try ledger.purchase(id),
            purchase.purchaseMillis > (try ledger.ownerPurchaseMillis(id)),
            let payer = try payer(purchase.appAccountToken)
        else { return nil }
        try ledger.setOwnerPurchaseMillis(id, purchase.purchaseMillis)
        guard let ownerId = known.ownerId else {
            try ledger.claim(id, by: payer.id, at: now)
            return nil
        }
        guard ownerId != payer.id else { return nil }
        if try ledger.identity(ownerId)?.kind == .account && payer.kind == .anonymous { return .accountOwned }
        if try ledger.moveCount(id, within: OwnershipRules.window, before: now) >= OwnershipRules.moveLimit {
            return .limit
        }
        try ledger.move(id, from: ownerId, to: payer.id, via: .purchase, at: now)
        timeline.log(.backend, "purchase \(id) follows who paid: \(ownerId) → \(payer.id)")
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
