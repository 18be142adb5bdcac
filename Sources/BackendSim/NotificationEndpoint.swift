import FoundationEssentials
import Signing
import SimKernel
import StoreSim

/// `POST /v1/notifications/apple`: App Store Server Notifications V2. The server applies what Apple
/// signed — the transaction and the renewal info — and Apple's signing time orders them: a duplicate
/// (same UUID) applies nothing, and an older notification never overwrites a newer state. Apple retries
/// anything but a 2xx for days, so a TEST or a type this server does not know is recorded and answered 200;
/// only a signature that does not hold is refused as such.
extension Backend {
    struct NotificationRequest: Decodable {
        let signedPayload: String
    }

    struct NotificationAnswer: Encodable {
        /// `applied`, `duplicate`, `stale`, `test` or `ignored`.
        let result: String
    }

    /// The fields every notification has, whatever its type: enough to recognise and record it.
    struct NotificationEnvelope: Decodable {
        struct AppData: Decodable {
            let bundleId: String
            let environment: String
        }
        let notificationType: String
        let subtype: String?
        let notificationUUID: String
        let signedDate: Int64
        let data: AppData

        var name: String { notificationType + (subtype.map { "/\($0)" } ?? "") }
    }

    func receiveNotification(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let signedPayload = try Self.signedPayload(of: request)
            let key = store.verifyingKey
            guard let bytes = SignedEnvelope.open(signedPayload, with: key) else {
                throw APIError.badRequest("signature_invalid")
            }
            // Decoded once: a payload of a type this server knows has every field the envelope has; only
            // one it does not know is read again for the envelope alone.
            let payload = NotificationCodec.decode(NotificationPayload.self, from: bytes)
            guard let envelope = payload.map(NotificationEnvelope.init) ?? Self.envelope(bytes) else {
                throw APIError.badRequest("body_malformed")
            }
            guard envelope.data.bundleId == bundleId else { throw APIError.badRequest("notification_other_app") }
            guard envelope.data.environment == environment.rawValue else {
                throw APIError.badRequest("notification_environment")
            }
            guard let payload, payload.notificationType != .test, let signed = payload.data.signedTransactionInfo
            else {
                // TEST, or news this server does not act on (an unknown type or subtype): kept, not applied.
                let result = payload?.notificationType == .test ? "test" : "ignored"
                return try record(envelope, result: result)
            }
            // The outer signature covers the signed fields inside it: one verification per notification.
            guard let transaction = NotificationCodec.openEnclosed(TransactionInfo.self, from: signed) else {
                throw APIError.badRequest("signature_invalid")
            }
            guard transaction.bundleId == bundleId else { throw APIError.badRequest("notification_other_app") }
            var renewal: RenewalInfo?
            if let signedRenewal = payload.data.signedRenewalInfo {
                guard let opened = NotificationCodec.openEnclosed(RenewalInfo.self, from: signedRenewal) else {
                    throw APIError.badRequest("signature_invalid")
                }
                renewal = opened
            }
            let result = try ledgerChange { try apply(payload, transaction: transaction, renewal: renewal) }
            timeline.log(
                .backend,
                "notification \(envelope.name) \(transaction.originalTransactionId): "
                    + said(result, uuid: envelope.notificationUUID))
            return Self.answer(result)
        }
    }

    /// `signedPayload` of the body. The App Store's exact form (`{"signedPayload":"JWS"}`, a JWS having no
    /// character JSON escapes) is read in place; anything else goes through the decoder.
    private static func signedPayload(of request: HTTPRequest) throws(APIError) -> String {
        let body = request.body
        let head = Array(#"{"signedPayload":""#.utf8)
        if body.count > head.count + 2, body.starts(with: head), body.suffix(2).elementsEqual(#""}"#.utf8) {
            let value = body[head.count..<(body.count - 2)]
            // Text JSON holds as it is (no quote, backslash, control or non-ASCII byte) reads as the decoder
            // would read it; checked eight bytes at a time (a call per byte was 2 % of a renewal).
            if value.withUnsafeBufferPointer({ PlainJSONText.isPlain($0) }) {
                return String(decoding: value, as: UTF8.self)
            }
        }
        return try JSONBody.decode(NotificationRequest.self, from: request).signedPayload
    }

    private static func envelope(_ bytes: [UInt8]) -> NotificationEnvelope? {
        try? JSONDecoder().decode(NotificationEnvelope.self, from: Data(bytes))
    }

    /// The answers, encoded once: there are five.
    private static let answers: [String: HTTPResponse] = Dictionary(
        uniqueKeysWithValues: ["applied", "duplicate", "stale", "test", "ignored"].map {
            ($0, JSONBody.response(200, NotificationAnswer(result: $0)))
        })

    private static func answer(_ result: String) -> HTTPResponse {
        answers[result] ?? JSONBody.response(200, NotificationAnswer(result: result))
    }

    /// Records a notification that changes no purchase, answering 200 so Apple does not retry it.
    private func record(_ envelope: NotificationEnvelope, result: String) throws -> HTTPResponse {
        let summary = NotificationSummary(
            uuid: envelope.notificationUUID, originalTransactionId: "", type: envelope.notificationType,
            subtype: envelope.subtype, signedMillis: envelope.signedDate)
        let now = clock()
        let answer = try ledgerChange { () throws -> String in
            guard try ledger.recordNotification(summary, result: result, at: now) else { return "duplicate" }
            try ledger.audit(
                at: now, actor: "app-store", action: "notification.\(result)",
                detail: "\(envelope.name) \(envelope.notificationUUID)")
            return result
        }
        timeline.log(.backend, "notification \(envelope.name): \(said(answer, uuid: envelope.notificationUUID))")
        return Self.answer(answer)
    }

    /// The timeline's words for an answer's code: a notification sent again read ": stale" or ": duplicate" with no
    /// word of whether its news was applied (session 28). A duplicate says what became of the first one received.
    private func said(_ result: String, uuid: String) -> String {
        switch result {
        case "stale": return "stale, older than the latest word from Apple the server holds: nothing changed"
        case "duplicate":
            let first: String?
            do {
                first = try ledger.notificationResult(uuid)
            } catch {
                first = nil
            }
            return first == "applied" ? "duplicate, already applied" : "duplicate, already received: nothing changed"
        default: return result
        }
    }

    private func apply(_ payload: NotificationPayload, transaction: TransactionInfo, renewal: RenewalInfo?) throws
        -> String
    {
        let now = clock()
        let id = transaction.originalTransactionId
        let known = try ledger.purchase(id)
        var purchase =
            known
            ?? PurchaseRecord(
                originalTransactionId: id, productId: transaction.productId, ownerId: nil,
                deviceId: transaction.deviceId, expires: nil)
        if known == nil { purchase.familyShared = transaction.inAppOwnershipType == FamilySharing.familyShared }
        let isStale = known != nil && payload.signedDate < purchase.appleSignedMillis
        let summary = NotificationSummary(
            uuid: payload.notificationUUID, originalTransactionId: id, type: payload.notificationType.rawValue,
            subtype: payload.subtype?.rawValue, signedMillis: payload.signedDate)
        // Recorded first, in one statement: a UUID seen before is a duplicate and changes nothing.
        guard try ledger.recordNotification(summary, result: isStale ? "stale" : "applied", at: now) else {
            return "duplicate"
        }
        if isStale { return "stale" }

        let why = "\(payload.notificationType.rawValue)\(payload.subtype.map { "/\($0.rawValue)" } ?? "")"
        if let known, transaction.revocationDate != nil, Self.isAboutAnEarlierPeriod(transaction, than: known) {
            // A refund of a period already over: Apple keeps the current one, and so does the ledger, if the period it
            // knows is Apple's current one. News lost on its way (a refund, a resubscription) may have left it an
            // older period than the one revoked (seed 6129): Apple's status says.
            try ledger.refundChanged(id, revoked: false, why: why, transactionId: transaction.transactionId, at: now)
            _ = try reconcile(
                try ledger.purchase(id) ?? known, now: now, why: "an earlier period revoked: is the one known running?")
            return "applied"
        }
        purchase.productId = transaction.productId
        purchase.expires = transaction.expiresDate.map { SimInstant(milliseconds: $0) }
        purchase.revoked = transaction.revocationDate != nil
        if let renewal { purchase.apply(renewal) }
        purchase.learnTrial(transaction.offerDiscountType == TransactionInfo.freeTrial, next: renewal)
        if payload.notificationType == .gracePeriodExpired { purchase.graceExpires = nil }
        if payload.notificationType == .didRenew { purchase.billingIssue = false }
        purchase.appleSignedMillis = payload.signedDate
        if known == nil {
            try ledger.insert(purchase, at: now, actor: "app-store", askedApple: false)
        } else {
            try ledger.applyAppleState(purchase, at: now, why: why, known: known)
        }
        if payload.notificationType == .refund || payload.notificationType == .revoke, purchase.revoked {
            // The revoked period may be one that just ended, its renewal's news not heard yet (or signed before the
            // revocation, so stale; seed 2485 for a REVOKE): Apple's status says whether a period runs now.
            _ = try reconcile(
                purchase, now: now,
                why: "\(payload.notificationType == .refund ? "refunded" : "revoked"), is a period running now?")
        }
        // Apple's news of a new purchase moves it to who paid, as the app's report would.
        timeline.record(.purchaseReported(originalTransactionId: id, transactionId: transaction.transactionId))
        if let refusal = try follow(NewPurchase(transaction), at: now) {
            timeline.log(.backend, "purchase \(id) stays with its owner: \(refusal.rawValue)")
        }
        return "applied"
    }
}

extension Backend.NotificationEnvelope {
    init(_ payload: NotificationPayload) {
        self.init(
            notificationType: payload.notificationType.rawValue, subtype: payload.subtype?.rawValue,
            notificationUUID: payload.notificationUUID, signedDate: payload.signedDate,
            data: AppData(bundleId: payload.data.bundleId, environment: payload.data.environment.rawValue))
    }
}

extension Backend {
    /// A refunded transaction is an earlier period than the one the ledger holds (its expiry is before
    /// the ledger's): its refund is not the subscription's state now.
    static func isAboutAnEarlierPeriod(_ transaction: TransactionInfo, than known: PurchaseRecord) -> Bool {
        guard let theirs = transaction.expiresDate, let ours = known.expires, !known.revoked else { return false }
        return theirs < ours.milliseconds
    }
}

extension PurchaseRecord {
    /// Apple's renewal state of the subscription: billing retry, the grace period's end, auto-renew.
    mutating func apply(_ renewal: RenewalInfo) {
        billingIssue = renewal.isInBillingRetryPeriod
        graceExpires = renewal.gracePeriodExpiresDate.map { SimInstant(milliseconds: $0) }
        autoRenew = renewal.autoRenewStatus == 1
        // Apple renews an offer's period next at the offer's price whatever the consent: the raise ends nothing
        // until then ("ends unless you agree" of an introductory price Apple renewed, session 27).
        priceConsentPending = renewal.priceIncreaseStatus == 0 && renewal.offerType == nil
        renewsAs = renewal.autoRenewProductId == renewal.productId ? nil : renewal.autoRenewProductId
    }

    /// Whether its period now is a free trial that ends in a charge, as Apple's sheet says it: the transaction's offer
    /// cost nothing (`freeTrial`), and the renewal info, where Apple gave one, prices the next period at no offer's.
    /// Every writer of Apple's word sets it (receipt check, restore, notification, status), so a renewal clears it.
    mutating func learnTrial(_ freeTrial: Bool, next renewal: RenewalInfo?) {
        inFreeTrial = freeTrial && renewal?.offerType == nil
    }
}
