import SimKernel
import StoreSim

/// Bodies shared by the endpoints that answer with an identity and its levels.
extension Backend {
    struct IdentityBody: Encodable {
        let id: String
        let kind: String
        let token: String?
        let email: String?
        /// The UUID the app sets on its payments (`applicationUsername`) so a purchase follows who paid.
        var appAccountToken: String?
    }

    struct AccessBody: Encodable {
        let identity: IdentityBody
        let levels: [String]
        /// When those levels could first end by themselves (`Backend.levelsUntil`).
        var levelsUntil: Int64?
        /// The identity's purchases (original transaction ids) that give it levels now: the app tells a purchase
        /// that unlocked something from one that did not while other purchases hold levels.
        var granting: [String] = []
        /// Purchases in the receipt that stay with another customer.
        var ownedElsewhere: [String] = []
        var restored: [String] = []
        var refused: [RefusedBody] = []
        /// The first refusal's code, when the answer is a refusal after the rest was applied.
        var error: String?
        /// Those of `granting` a family member pays for, shared with the Apple ID (Apple's FAMILY_SHARED); nil when
        /// none is: the app tells what came back as the profile does, a share from the family, not "your
        /// subscription is back" (session 33: the organiser restoring a member's plan was told it was theirs).
        var sharedByFamily: [String]?
        /// A guest's: until when a move of its purchases to an account would be refused for the move limit
        /// (`transferRefusedUntil`); absent when it would be made, and for an account.
        var transferRefusedUntil: Int64?
    }

    struct RefusedBody: Encodable {
        let originalTransactionId: String
        let error: String
    }

    /// An access answer (`HandWrittenAnswer`: by hand when all its text is ASCII).
    static func response(_ status: Int, _ answer: AccessBody) -> HTTPResponse {
        JSONBody.response(status, answer)
    }

    struct ReceiptRequest: Decodable {
        let receipt: String
        var confirmMoveFromAccount: Bool?

        /// The request a body holds. A plain one (a receipt needing no unescaping, as the app sends) is
        /// read by finding the receipt's bounds: `JSONDecoder` took a multi-megabyte receipt character by
        /// character. Anything else is `JSONDecoder`'s to accept or refuse.
        static func decode(
            from request: HTTPRequest, issued: (UnsafeRawBufferPointer) -> String? = { _ in nil }
        ) throws(APIError) -> ReceiptRequest {
            if let known = recognised(request.body, issued: issued) { return known }
            if let members = QuickJSON.object(request.body), case .string(let receipt)? = members["receipt"] {
                switch members["confirmMoveFromAccount"] {
                case nil where members.count == 1: return ReceiptRequest(receipt: receipt)
                case .null? where members.count == 2: return ReceiptRequest(receipt: receipt)
                case .bool(let confirm)? where members.count == 2:
                    return ReceiptRequest(receipt: receipt, confirmMoveFromAccount: confirm)
                default: break
                }
            }
            return try JSONBody.decode(ReceiptRequest.self, from: request)
        }
    }

    /// The caller's identity and levels, after asking Apple about lapsed renewals. Called once per
    /// request, inside the request's `ledgerChange`, so what Apple said lands with the rest or not at all.
    func accessBody(_ identity: IdentityRecord, newToken: Bool) throws -> AccessBody {
        let purchases = try refreshLapsedRenewals(of: identity.id)
        // Only an account has an email: `createAccount` writes the one row, for a new account identity.
        let email = identity.kind == .account ? try ledger.email(of: identity.id) : nil
        var body = AccessBody(
            identity: IdentityBody(
                id: identity.id, kind: identity.kind.rawValue, token: newToken ? token(for: identity) : nil,
                email: email, appAccountToken: appAccountToken(for: identity.id)),
            levels: levels(in: purchases), levelsUntil: levelsUntil(in: purchases), granting: granting(in: purchases),
            sharedByFamily: sharedByFamily(in: purchases))
        if identity.kind == .anonymous { body.transferRefusedUntil = try transferRefusedUntil(purchases) }
        return body
    }

    /// The store's records of a receipt's purchases, once the receipt is proven to be this app's,
    /// and the device it was issued for: the latest transaction of each purchase, which carries
    /// Apple's current truth (a renewal, an upgrade, a resubscription after a refund).
    /// Applying every transaction in turn wrote the expiry back to the first period and forward
    /// again (two audit rows per renewal) each time a receipt was reported again.
    /// With them, each subscription's renewal state by original transaction id.
    func verifiedReceipt(_ receipt: String) throws(APIError) -> VerifiedReceipt {
        switch store.verifyReceiptLatest(receipt, expecting: environment) {
        case .invalid(let status):
            timeline.log(.backend, "App Store refused the receipt: \(status.rawValue)")
            throw .unprocessable(status == .sandboxReceiptSentToProduction ? "receipt_sandbox" : "receipt_invalid")
        case .valid(let payload, let transactions, let pendingRenewals):
            guard payload.bundleId == bundleId else { throw .unprocessable("receipt_other_app") }
            let renewals = Dictionary(pendingRenewals.map { ($0.originalTransactionId, $0) }) { _, last in last }
            return VerifiedReceipt(
                payload: payload, records: transactions, renewals: renewals)
        }
    }

    /// What Apple's verifyReceipt says of a receipt, as the endpoints use it.
    struct VerifiedReceipt {
        /// The signed receipt: its device verification says which device it was issued for.
        let payload: ReceiptPayload
        /// The latest transaction of each purchase.
        let records: [TransactionRecord]
        let renewals: [String: RenewalInfo]

        /// A purchase as Apple describes it now, for the ledger.
        func purchase(_ record: TransactionRecord, owner: String?) -> PurchaseRecord {
            var purchase = PurchaseRecord(
                originalTransactionId: record.originalTransactionIdentifier, productId: record.productIdentifier,
                ownerId: owner, deviceId: record.deviceId, expires: record.expiresDate)
            purchase.revoked = record.revocationDate != nil
            purchase.familyShared = record.isFamilyShared
            let renewal = renewals[record.originalTransactionIdentifier]
            if let renewal { purchase.apply(renewal) }
            purchase.learnTrial(record.isTrialPeriod, next: renewal)
            return purchase
        }
    }

    /// Writes what the store says of a purchase (its product, expiry, revocation, billing retry and
    /// grace period) over the ledger's, when they differ: a refunded purchase bought again gives access
    /// again, and one in Apple's grace period keeps it even if the ledger missed the notification.
    func refresh(
        _ known: PurchaseRecord, from receipt: VerifiedReceipt, _ record: TransactionRecord, at now: SimInstant
    )
        throws
    {
        var updated = receipt.purchase(record, owner: known.ownerId)
        updated.appleSignedMillis = known.appleSignedMillis
        if receipt.renewals[record.originalTransactionIdentifier] == nil {
            updated.billingIssue = known.billingIssue
            updated.graceExpires = known.graceExpires
            updated.autoRenew = known.autoRenew
            updated.priceConsentPending = known.priceConsentPending
            updated.renewsAs = known.renewsAs
        }
        updated.deviceId = known.deviceId
        updated.familyShared = known.familyShared
        guard updated != known else { return }
        // This is Apple's word as of now: a notification signed earlier arriving later is older news.
        updated.appleSignedMillis = max(known.appleSignedMillis, now.milliseconds)
        let state =
            updated.revoked
            ? "revoked"
            : updated.graceExpires.map { "in grace until \($0)" }
                ?? "expires \(record.expiresDate.map(\.description) ?? "never")"
        try ledger.applyAppleState(updated, at: now, why: "\(record.productIdentifier) \(state)")
    }
}

/// `POST /v1/receipts`: the app reports a receipt after paying. Each purchase nobody owns becomes the
/// caller's (an anonymous identity is created for a caller without one); a purchase someone owns moves
/// nothing: a receipt sent again, by a second device or after a renewal, never changes an owner.
extension Backend {
    func validateReceipt(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let caller = try authenticate(request)
            let body = try ReceiptRequest.decode(from: request, issued: store.issuedReceipt(matching:))
            let receipt = try verifiedReceipt(body.receipt)
            let now = clock()
            var refusal = APIError.unprocessable("nothing_to_validate")
            let applied = try ledgerChange { () throws -> AccessBody? in
                var owner = caller
                var elsewhere: [String] = []
                var refused: [RefusedBody] = []
                for record in receipt.records {
                    let id = record.originalTransactionIdentifier
                    reported(record)
                    if let known = try ledger.purchase(id) {
                        try refresh(known, from: receipt, record, at: now)
                        // A new purchase follows who paid (its appAccountToken), within the moves' rules.
                        if let refusal = try follow(NewPurchase(record), at: now) {
                            refused.append(RefusedBody(originalTransactionId: id, error: refusal.rawValue))
                        }
                        let current = try ledger.purchase(id)?.ownerId
                        if owner == nil, current != nil, restoresAreIdempotentPerDevice,
                            let kept = try identityCreated(on: request, owning: ledger.purchase(id))
                        {
                            // The phone this identity was made for reports the receipt again without it (the
                            // answer was lost: the app died, a timeout): it gets its identity back.
                            owner = kept
                            continue
                        }
                        if current == nil {
                            let identity =
                                try owner ?? ledger.createAnonymousIdentity(at: now, deviceId: device(of: request))
                            owner = identity
                            try ledger.claim(id, by: identity.id, at: now)
                        } else if current != owner?.id {
                            elsewhere.append(id)
                        }
                        continue
                    }
                    // A purchase nobody has is the customer's its appAccountToken names, or the caller's.
                    let payer = try payer(record.appAccountToken)
                    let identity =
                        try payer ?? owner ?? ledger.createAnonymousIdentity(at: now, deviceId: device(of: request))
                    if payer == nil { owner = identity }
                    try ledger.insert(
                        receipt.purchase(record, owner: identity.id), at: now, actor: identity.id,
                        ownerPurchaseMillis: record.purchaseDate.milliseconds)
                    if identity.id != owner?.id { elsewhere.append(id) }
                }
                guard let owner else {
                    // The Apple ID already pays, for an identity this phone does not hold. What Apple's receipt
                    // said stays written (a resubscription under that purchase is a real charge): refused after.
                    if !elsewhere.isEmpty { refusal = APIError.conflict("purchase_owned_elsewhere") }
                    return nil
                }
                var answer = try accessBody(owner, newToken: caller == nil)
                answer.ownedElsewhere = elsewhere
                answer.refused = refused
                return answer
            }
            guard var answer = applied else { throw refusal }
            // A customer's own new purchase left where it was: refused after the rest was applied.
            answer.error = answer.refused.first?.error
            let status = answer.refused.first.flatMap { OwnershipRefusal(rawValue: $0.error)?.status } ?? 200
            return Self.response(status, answer)
        }
    }
}

/// `GET /v1/me`: the caller's identity, levels and subscriptions.
extension Backend {
    struct MeBody: Encodable {
        let identity: IdentityBody
        let levels: [String]
        let levelsUntil: Int64?
        let subscriptions: [SubscriptionBody]
        /// A guest's, as `AccessBody.transferRefusedUntil`.
        var transferRefusedUntil: Int64?
    }

    struct SubscriptionBody: Encodable {
        /// Which purchase: the phone tells one of the Apple ID's subscriptions from another of the same product
        /// (a family member's share beside their own).
        let originalTransactionId: String
        let productId: String
        let expires: Int64?
        let active: Bool
        let autoRenew: Bool
        /// Apple could not charge; access continues through the grace period.
        let billingIssue: Bool
        /// Apple waits for consent to a raised price: true, else absent (nil).
        var priceConsentPending: Bool? = nil
        /// The plan Apple renews it as, when a change waits for the next renewal; else absent.
        var renewsAs: String? = nil
        /// Its product's subscription group; absent for a product of none.
        var subscriptionGroupIdentifier: String? = nil
        /// A family member's purchase shared with the Apple ID: true, else absent (nil).
        var familyShared: Bool? = nil
        /// Its period now is a free trial, the plan's price charged at `expires` (StoreKit's `offerDiscountType`
        /// FREE_TRIAL): true, else absent (nil).
        var inFreeTrial: Bool? = nil
    }

    /// `askingApple`: `POST /v1/me/sync`, after the reader changed something on Apple's sheet: Apple's records of every
    /// purchase the identity owns are read first, so the answer does not wait for Apple's notification.
    func me(_ request: HTTPRequest, askingApple: Bool = false) -> HTTPResponse {
        answering {
            guard let identity = try authenticate(request) else { throw APIError.unauthorized("token_missing") }
            let now = clock()
            let body = try ledgerChange { () throws -> MeBody in
                if askingApple {
                    for purchase in try ledger.purchases(ownedBy: identity.id) {
                        _ = try reconcile(
                            purchase, now: now,
                            why: "asked by the app (a change on Apple's sheet, or a share Apple took back)")
                    }
                }
                let access = try accessBody(identity, newToken: false)
                return MeBody(
                    identity: access.identity, levels: access.levels, levelsUntil: access.levelsUntil,
                    subscriptions: try subscriptions(ownedBy: identity.id, at: now),
                    transferRefusedUntil: access.transferRefusedUntil)
            }
            return JSONBody.response(200, body)
        }
    }

    /// The purchases `identityId` owns, as the phone lists them.
    func subscriptions(ownedBy identityId: String, at now: SimInstant) throws -> [SubscriptionBody] {
        try ledger.purchases(ownedBy: identityId).map {
            SubscriptionBody(
                originalTransactionId: $0.originalTransactionId, productId: $0.productId,
                expires: $0.expires?.milliseconds, active: $0.isActive(at: now),
                // In grace, or past it while Apple still retries (auto-renew on): the reader can fix or cancel it.
                autoRenew: $0.autoRenew,
                billingIssue: $0.billingIssue && !$0.revoked && ($0.isActive(at: now) || $0.autoRenew),
                priceConsentPending: $0.priceConsentPending && $0.autoRenew ? true : nil,
                renewsAs: $0.autoRenew ? $0.renewsAs : nil,
                subscriptionGroupIdentifier: subscriptionGroups[$0.productId],
                familyShared: $0.familyShared ? true : nil, inFreeTrial: $0.inFreeTrial && !$0.revoked ? true : nil)
        }
    }
}

extension Backend.IdentityBody {
    /// The identity's members, keys sorted.
    func write(to json: inout CanonicalJSONWriter) {
        json.object("identity") { body in
            body.string("appAccountToken", appAccountToken)
            body.string("email", email)
            body.string("id", id)
            body.string("kind", kind)
            body.string("token", token)
        }
    }

    var texts: [String?] { [appAccountToken, email, id, kind, token] }
}

extension Backend.AccessBody: HandWrittenAnswer {
    func write(to json: inout CanonicalJSONWriter) {
        json.object { json in
            json.string("error", error)
            json.array("granting", granting) { $0.element($1) }
            identity.write(to: &json)
            json.array("levels", levels) { $0.element($1) }
            json.integer("levelsUntil", levelsUntil)
            json.array("ownedElsewhere", ownedElsewhere) { $0.element($1) }
            json.array("refused", refused) { json, refusal in
                json.object { body in
                    body.string("error", refusal.error)
                    body.string("originalTransactionId", refusal.originalTransactionId)
                }
            }
            json.array("restored", restored) { $0.element($1) }
            if let sharedByFamily { json.array("sharedByFamily", sharedByFamily) { $0.element($1) } }
            json.integer("transferRefusedUntil", transferRefusedUntil)
        }
    }

    var texts: [String?] {
        [error] + granting + identity.texts + levels + ownedElsewhere + restored
            + refused.flatMap { [$0.error, $0.originalTransactionId] } + (sharedByFamily ?? [])
    }
}

extension Backend.MeBody: HandWrittenAnswer {
    func write(to json: inout CanonicalJSONWriter) {
        json.object { json in
            identity.write(to: &json)
            json.array("levels", levels) { $0.element($1) }
            json.integer("levelsUntil", levelsUntil)
            Backend.SubscriptionBody.write(subscriptions, to: &json)
            json.integer("transferRefusedUntil", transferRefusedUntil)
        }
    }

    var texts: [String?] { identity.texts + levels + subscriptions.flatMap(\.texts) }
}

extension Backend.SubscriptionBody {
    /// The `subscriptions` member of an answer, keys sorted.
    static func write(_ subscriptions: [Self], to json: inout CanonicalJSONWriter) {
        json.array("subscriptions", subscriptions) { json, subscription in
            json.object { body in
                body.bool("active", subscription.active)
                body.bool("autoRenew", subscription.autoRenew)
                body.bool("billingIssue", subscription.billingIssue)
                body.integer("expires", subscription.expires)
                if subscription.familyShared == true { body.bool("familyShared", true) }
                if subscription.inFreeTrial == true { body.bool("inFreeTrial", true) }
                body.string("originalTransactionId", subscription.originalTransactionId)
                if subscription.priceConsentPending == true { body.bool("priceConsentPending", true) }
                body.string("productId", subscription.productId)
                if let renewsAs = subscription.renewsAs { body.string("renewsAs", renewsAs) }
                if let group = subscription.subscriptionGroupIdentifier {
                    body.string("subscriptionGroupIdentifier", group)
                }
            }
        }
    }

    var texts: [String?] { [originalTransactionId, productId, renewsAs, subscriptionGroupIdentifier] }
}

/// The request read from a body exactly as the app writes it around a receipt the store just issued
/// (`{"receipt":"…"}`, after `"confirmMoveFromAccount":BOOL,` or not): a JWS holds nothing JSON
/// escapes, so that receipt is the string, and no copy of its megabytes is made.
extension Backend.ReceiptRequest {
    static let prefixes: [(bytes: [UInt8], confirm: Bool?)] = [
        (Array(#"{"receipt":""#.utf8), nil),
        (Array(#"{"confirmMoveFromAccount":true,"receipt":""#.utf8), true),
        (Array(#"{"confirmMoveFromAccount":false,"receipt":""#.utf8), false),
    ]

    static func recognised(_ body: [UInt8], issued: (UnsafeRawBufferPointer) -> String?) -> Self? {
        guard body.count > 2, body[body.count - 2] == UInt8(ascii: "\""), body[body.count - 1] == UInt8(ascii: "}"),
            let prefix = prefixes.first(where: { body.starts(with: $0.bytes) }), body.count >= prefix.bytes.count + 2
        else { return nil }
        return body.withUnsafeBytes { raw in
            issued(UnsafeRawBufferPointer(rebasing: raw[prefix.bytes.count..<(body.count - 2)])).map {
                Self(receipt: $0, confirmMoveFromAccount: prefix.confirm)
            }
        }
    }
}
