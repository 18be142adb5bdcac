import SimKernel
import StoreSim

/// `POST /v1/restores/inspect`, `POST /v1/restores` and `POST /v1/transfers`: restore as
/// reconciliation. The ownership rules decide each purchase (`OwnershipRules`); refusals come back
/// with their code after the rest of the request is applied, and every move is recorded.
extension Backend {
    struct InspectBody: Encodable {
        let purchases: [InspectedPurchase]
    }

    struct InspectedPurchase: Encodable {
        let originalTransactionId: String
        let productId: String
        let active: Bool
        /// `you`, `anonymous`, `account` or `nobody`.
        let owner: String
        /// Whether a restore would give it to the caller (after confirming, for another account's).
        let restorable: Bool
        let refusal: String?
        /// True for a family member's purchase shared with the Apple ID (FAMILY_SHARED), left out otherwise: a guest's
        /// purchase is checked for the family's share of its group before paying (session 34).
        var familyShared: Bool? = nil
        /// Its product's subscription group, from the catalog: the App Store's answers to the phone may leave the
        /// product out (a plan not sold in its storefront), and the app judges a restore here by group (long fuzz seed
        /// 1940). Left out for a product the catalog does not know.
        var subscriptionGroupIdentifier: String? = nil
    }

    struct TransferRequest: Decodable {
        let anonymousToken: String
    }

    /// The device the app says it runs on: a restore may move purchases only with that device's receipt.
    static let deviceHeader = "X-Device-Id"

    func inspectRestore(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let caller = try authenticate(request)
            let body = try ReceiptRequest.decode(from: request, issued: store.issuedReceipt(matching:))
            let receipt = try verifiedReceipt(body.receipt)
            let now = clock()
            let purchases = try receipt.records.map { record -> InspectedPurchase in
                let known = try ledger.purchase(record.originalTransactionIdentifier)
                // Apple's record no app reported yet is nobody's in the ledger (its owner is said as the ledger holds
                // it: fuzz seed 2448), but a restore enters it as the customer's its appAccountToken names first, and
                // decides on them: another's, it may be refused (a guest told "restorable" of an account's purchase,
                // session 30).
                var decided = known
                // A known one the restore reports first follows who paid before it is decided (`restore`), so
                // it is decided, and its owner said, as that payer's here too.
                var followed: UnwrittenFollow?
                if restoresFollowWhoPaid, var stored = known, let follow = try wouldFollow(NewPurchase(record), at: now)
                {
                    stored.ownerId = follow.payer
                    (decided, followed) = (stored, follow)
                }
                if known == nil, let token = record.appAccountToken, let payer = try customer(namedBy: token),
                    payer != caller?.id
                {
                    decided = receipt.purchase(record, owner: payer)
                }
                // Apple's word, not the ledger's: a notification the backend missed must not hide a purchase.
                let active = receipt.purchase(record, owner: nil).isActive(at: now)
                var decision = try decide(
                    decided, caller: caller, receipt: receipt.payload, request: request, confirmed: true,
                    after: followed, active: active)
                // The phone the purchase's guest was made for gets it back, as `restore` hands it back under any
                // policy: "stays where it was bought" said on that very phone was untrue (session 30).
                if caller == nil, decision.movesOrRefuses, restoresAreIdempotentPerDevice,
                    try identityCreated(on: request, owning: decided) != nil
                {
                    decision = .move
                }
                let owner: String
                let ownerId = followed?.payer ?? known?.ownerId
                if ownerId == nil {
                    owner = "nobody"
                } else if ownerId == caller?.id {
                    owner = "you"
                } else {
                    owner = try ownerId.flatMap { try ledger.identity($0) }?.kind.rawValue ?? "nobody"
                }
                var refusal: String?
                if case .refuse(let reason) = decision { refusal = reason.rawValue }
                return InspectedPurchase(
                    originalTransactionId: record.originalTransactionIdentifier, productId: record.productIdentifier,
                    active: active, owner: owner, restorable: refusal == nil && decision != .alreadyYours,
                    refusal: refusal, familyShared: record.isFamilyShared ? true : nil,
                    subscriptionGroupIdentifier: subscriptionGroups[record.productIdentifier])
            }
            return JSONBody.response(200, InspectBody(purchases: purchases))
        }
    }

    func restore(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let caller = try authenticate(request)
            let body = try ReceiptRequest.decode(from: request, issued: store.issuedReceipt(matching:))
            let receipt = try verifiedReceipt(body.receipt)
            let now = clock()
            var retrying = false
            // Whether every ended purchase was a family member's share: the reader's own subscription did not end.
            var endedOnlyShared = true
            let result = try ledgerChange { () throws -> (AccessBody?, [RefusedBody], Bool) in
                var owner = caller
                var restored: [String] = []
                var refused: [RefusedBody] = []
                var ended: [String] = []
                for record in receipt.records {
                    let id = record.originalTransactionIdentifier
                    reported(record)
                    var known = try ledger.purchase(id)
                    // Entered by this restore as the caller's own (its appAccountToken names them): restored to them.
                    var enteredAsCallers = false
                    if let stored = known {
                        try refresh(stored, from: receipt, record, at: now)
                        // A new purchase this restore reports first follows who paid, as a receipt check's does
                        // (seed 003: "whoever reports it"); the restore is then decided on its new owner.
                        if restoresFollowWhoPaid, let refusal = try follow(NewPurchase(record), at: now) {
                            timeline.log(.backend, "purchase \(id) stays with its owner: \(refusal.rawValue)")
                        }
                        known = try ledger.purchase(id)
                    } else {
                        // Apple's record, not yet reported by any app: it enters the ledger as the customer's its
                        // appAccountToken names (seed 003, as a receipt check or a notification enters it), else
                        // unclaimed; its own first transaction reported later moves nothing.
                        let payer = try payer(record.appAccountToken)
                        let purchase = receipt.purchase(record, owner: payer?.id)
                        try ledger.insert(
                            purchase, at: now, actor: payer?.id ?? "restore",
                            ownerPurchaseMillis: record.purchaseDate.milliseconds)
                        known = purchase
                        enteredAsCallers = payer != nil && payer?.id == owner?.id
                    }
                    // Ended by Apple's word (expired, revoked, past its grace): nothing to give, so nothing moves.
                    // Moving it spent one of its three moves on a restore that restored nothing, and a guest's
                    // three such taps on new phones left a resubscription paid for on a fourth unrestorable there.
                    let asApple = receipt.purchase(record, owner: nil)
                    if !enteredAsCallers, !asApple.isActive(at: now) {
                        ended.append(id)
                        if !record.isFamilyShared { endedOnlyShared = false }
                        // Past its grace, Apple still retries the payment: not over, and the reader can fix it.
                        if asApple.billingIssue, asApple.autoRenew, !asApple.revoked { retrying = true }
                        continue
                    }
                    let decision = try decide(
                        known, caller: owner, receipt: receipt.payload, request: request,
                        confirmed: body.confirmMoveFromAccount ?? false)
                    if owner == nil, decision.movesOrRefuses, restoresAreIdempotentPerDevice,
                        let kept = try identityCreated(on: request, owning: known)
                    {
                        // The same phone restoring the same receipt again (a second tap, an answer lost on the
                        // way): the identity it was given the first time is handed back; nothing moves twice. Under
                        // any policy: a purchase kept with its original owner is this phone's guest's (session 25:
                        // a lost answer left it refused "on the phone that bought it" for good).
                        owner = kept
                        restored.append(id)
                        continue
                    }
                    switch decision {
                    case .alreadyYours:
                        if enteredAsCallers { restored.append(id) }
                    case .claim, .move:
                        let identity =
                            try owner ?? ledger.createAnonymousIdentity(at: now, deviceId: device(of: request))
                        owner = identity
                        if decision == .claim {
                            try ledger.claim(id, by: identity.id, at: now)
                        } else {
                            try ledger.move(id, from: known?.ownerId, to: identity.id, via: .restore, at: now)
                        }
                        restored.append(id)
                    case .refuse(let reason):
                        refused.append(RefusedBody(originalTransactionId: id, error: reason.rawValue))
                    }
                }
                guard let owner else { return (nil, refused, !ended.isEmpty) }
                var answer = try accessBody(owner, newToken: caller == nil)
                answer.restored = restored
                // Only ended purchases, and nothing held: "nothing valid to restore", as a guest hears it.
                if restored.isEmpty, refused.isEmpty, !ended.isEmpty, answer.levels.isEmpty { return (nil, [], true) }
                return (answer, refused, !ended.isEmpty)
            }
            let (access, refused, anyEnded) = result
            guard var answer = access else {
                if let first = refused.first { return JSONBody.response(statusOf(first.error), ["error": first.error]) }
                // "Has ended" of a subscription Apple still retries told a new phone the opposite of the first one's
                // "update your payment method" (session 25).
                // A family share taken back (sharing off, the member gone, the purchase refunded) or ended with the
                // purchaser's: "your subscription has ended" told a member of the organiser's running one (session 42).
                let ending = endedOnlyShared ? "family_share_ended" : "nothing_valid_to_restore"
                let code = retrying ? "payment_retrying" : anyEnded ? ending : "nothing_to_restore"
                return JSONBody.response(404, ["error": code])
            }
            answer.refused = refused
            answer.error = refused.first?.error
            return JSONBody.response(refused.first.map { statusOf($0.error) } ?? 200, answer)
        }
    }

    /// Moves every purchase of an anonymous identity to the signed-in account (after a log-in or
    /// "account required after subscribing"). Never from an account to a guest: the caller must be an account.
    func transfer(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            guard let caller = try authenticate(request) else { throw APIError.unauthorized("token_missing") }
            guard caller.kind == .account else { throw APIError.forbidden("account_required") }
            let body = try JSONBody.decode(TransferRequest.self, from: request)
            let claims: TokenClaims
            do {
                // The phone's own anonymous token, maybe a year old: authentic is enough to prove it holds it.
                claims = try tokens.verify(body.anonymousToken, now: clock(), acceptingExpired: true)
            } catch {
                throw APIError.unauthorized((error as? TokenAuthority.Refusal)?.rawValue ?? "token_invalid")
            }
            guard claims.kind == .anonymous else { throw APIError.forbidden("restore_account_owned") }
            let now = clock()
            let moved = try ledgerChange { () throws -> (AccessBody?, Bool) in
                var restored: [String] = []
                var refused: [RefusedBody] = []
                var ended = false
                // As they stand after asking Apple about any that lapsed without news.
                for listed in try refreshLapsedRenewals(of: claims.sub) {
                    let id = listed.originalTransactionId
                    // A family member's share stands on another's purchase: Apple's REVOKE of it (a refund, sharing
                    // turned off, the member leaving) may still be on its way. Moved unasked, it gave the account the
                    // share's levels after Apple took it back, and the app that had asked kept them (long fuzz 1967).
                    guard let purchase = try askedOfApple(listed, beforeMovingFrom: claims.sub, at: now) else {
                        continue
                    }
                    // Ended (expired, refunded, past its grace): nothing to give, so it stays with the guest. Moving
                    // it spent one of its three moves while the phone said nothing valid was moved (session 24).
                    if transfersMoveOnlyActive, !purchase.isActive(at: now) {
                        ended = true
                        continue
                    }
                    if try ledger.moveCount(id, within: OwnershipRules.window, before: now) >= OwnershipRules.moveLimit
                    {
                        refused.append(RefusedBody(originalTransactionId: id, error: OwnershipRefusal.limit.rawValue))
                        continue
                    }
                    try ledger.move(id, from: claims.sub, to: caller.id, via: .transfer, at: now)
                    restored.append(id)
                }
                // Nothing moved nor refused: the guest holds only ended purchases, or none. Asked again after an
                // earlier move's answer was lost (a kill, a restart while it travelled), it answers as that move did:
                // what went from this guest to this account and still gives it access, so the phone tells what moved
                // (guessing from the account's whole list told a share's move as the reader's own plan: fuzz long
                // 1645). With none, "All set" would speak of a move that did not happen.
                if restored.isEmpty, refused.isEmpty {
                    restored = try ledger.purchasesMoved(from: claims.sub, to: caller.id).filter { id in
                        guard let purchase = try ledger.purchase(id) else { return false }
                        return purchase.ownerId == caller.id && purchase.isActive(at: now)
                    }
                    if restored.isEmpty { return (nil, ended) }
                }
                var answer = try accessBody(caller, newToken: false)
                answer.restored = restored
                answer.refused = refused
                return (answer, ended)
            }
            guard var answer = moved.0 else {
                return JSONBody.response(404, ["error": moved.1 ? "nothing_valid_to_move" : "nothing_to_move"])
            }
            answer.error = answer.refused.first?.error
            return JSONBody.response(answer.refused.first.map { statusOf($0.error) } ?? 200, answer)
        }
    }

    /// A family share as Apple holds it now, before a transfer moves it (`reconcile`); nil when Apple's answer moved it
    /// away from the guest. Any other purchase as listed: the reader's own, whose news the phone itself brings.
    private func askedOfApple(_ purchase: PurchaseRecord, beforeMovingFrom guest: String, at now: SimInstant) throws
        -> PurchaseRecord?
    {
        guard purchase.familyShared, purchase.isActive(at: now),
            try reconcile(purchase, now: now, why: "a family share about to move to an account")
        else { return purchase }
        let fresh = try ledger.purchase(purchase.originalTransactionId)
        return fresh?.ownerId == guest ? fresh : nil
    }

    /// Until when `POST /v1/transfers` would refuse to move anything of the guest `purchases` (theirs, as just read)
    /// for the move limit, in milliseconds: every one it would move has moved `OwnershipRules.moveLimit` times in the
    /// window, and the first to fall under the limit does so then. Nil when it would move something, or has nothing
    /// to move. Told the phone so it offers no move the server refuses (a sign-in's "Move it?" past the limit).
    func transferRefusedUntil(_ purchases: [PurchaseRecord]) throws -> Int64? {
        let now = clock()
        var until: Int64?
        for purchase in purchases where !transfersMoveOnlyActive || purchase.isActive(at: now) {
            let times = try ledger.moveTimes(
                purchase.originalTransactionId, within: OwnershipRules.window, before: now)
            guard times.count >= OwnershipRules.moveLimit else { return nil }
            // The move whose ageing out leaves one under the limit.
            let frees = times[times.count - OwnershipRules.moveLimit].milliseconds + OwnershipRules.window.milliseconds
            until = min(until ?? frees, frees)
        }
        return until
    }

    /// The anonymous identity that owns `purchase`, when it was created for the device asking.
    func identityCreated(on request: HTTPRequest, owning purchase: PurchaseRecord?) throws -> IdentityRecord? {
        guard let ownerId = purchase?.ownerId, let device = device(of: request),
            try ledger.deviceOfAnonymousIdentity(ownerId) == device
        else { return nil }
        return try ledger.identity(ownerId)
    }

    /// The device a request says it comes from.
    func device(of request: HTTPRequest) -> String? {
        request.headers[Self.deviceHeader].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `follow`: one the inspect read and did not write, counted as the restore counts the one it writes before
    /// deciding: its move toward the limit (the inspect said "restorable" where the restore, one move later, refused
    /// for the limit: session 31). `active`: the purchase runs by Apple's word (the receipt in hand), as the restore
    /// learns by asking Apple first, so its owner (or payer) holds an active purchase even where the ledger has not
    /// heard of the renewal yet ("Move it?" asked of a move the restore refused `restore_owner_active`: seed 4948).
    private func decide(
        _ purchase: PurchaseRecord?, caller: IdentityRecord?, receipt: ReceiptPayload, request: HTTPRequest,
        confirmed: Bool, after follow: UnwrittenFollow? = nil, active: Bool = false
    ) throws -> OwnershipRules.Decision {
        guard let purchase, let ownerId = purchase.ownerId else { return .claim }
        let now = clock()
        let owner = try ledger.identity(ownerId)
        let moves = try ledger.moveCount(purchase.originalTransactionId, within: OwnershipRules.window, before: now)
        let ownerActive = try ledger.purchases(ownedBy: ownerId).contains { $0.isActive(at: now) }
        return OwnershipRules.decide(
            OwnershipRules.Situation(
                ownerId: ownerId, ownerKind: owner?.kind,
                ownerHasActivePurchase: ownerActive || active,
                callerId: caller?.id, callerKind: caller?.kind ?? .anonymous,
                receiptIsFromThisDevice: receipt.wasIssued(for: request.headers[Self.deviceHeader]),
                movesInWindow: moves + (follow?.moves == true ? 1 : 0),
                policy: restoresKeepThePolicy ? restorePolicy : .transfer, confirmedMoveFromAccount: confirmed))
    }

    private func statusOf(_ code: String) -> Int {
        OwnershipRefusal(rawValue: code)?.status ?? 403
    }
}
