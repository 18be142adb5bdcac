import SimKernel
import StoreSim

/// `POST /v1/notifications/apple`: App Store Server Notifications V2. The server applies what Apple
/// signed — the transaction and the renewal info — and Apple's signing time orders them: a duplicate
/// (same UUID) applies nothing, and an older notification never overwrites a newer state.
extension Backend {
    struct NotificationRequest: Decodable {
        let signedPayload: String
    }

    struct NotificationAnswer: Encodable {
        /// `applied`, `duplicate` or `stale`.
        let result: String
    }

    func receiveNotification(_ request: HTTPRequest) -> HTTPResponse {
        answering {
            let body = try JSONBody.decode(NotificationRequest.self, from: request)
            let key = store.verifyingKey
            guard let payload = NotificationCodec.open(NotificationPayload.self, from: body.signedPayload, with: key),
                let transaction = NotificationCodec.open(
                    TransactionInfo.self, from: payload.data.signedTransactionInfo, with: key)
            else { throw APIError.badRequest("signature_invalid") }
            guard payload.data.bundleId == bundleId, transaction.bundleId == bundleId else {
                throw APIError.badRequest("notification_other_app")
            }
            guard payload.data.environment == environment else { throw APIError.badRequest("notification_environment") }
            let renewal = payload.data.signedRenewalInfo.flatMap {
                NotificationCodec.open(RenewalInfo.self, from: $0, with: key)
            }
            let result = try ledgerChange { try apply(payload, transaction: transaction, renewal: renewal) }
            timeline.log(
                .backend,
                "notification \(payload.notificationType.rawValue)\(payload.subtype.map { "/\($0.rawValue)" } ?? "") "
                    + "\(transaction.originalTransactionId): \(result)")
            return JSONBody.response(200, NotificationAnswer(result: result))
        }
    }

    private func apply(_ payload: NotificationPayload, transaction: TransactionInfo, renewal: RenewalInfo?) throws
        -> String
    {
        let now = clock()
        if try ledger.notificationSeen(payload.notificationUUID) { return "duplicate" }
        let id = transaction.originalTransactionId
        var purchase =
            try ledger.purchase(id)
            ?? PurchaseRecord(
                originalTransactionId: id, productId: transaction.productId, ownerId: nil,
                deviceId: transaction.deviceId, expires: nil)
        let isNew = try ledger.purchase(id) == nil
        let isStale = !isNew && payload.signedDate < purchase.appleSignedMillis
        let summary = NotificationSummary(
            uuid: payload.notificationUUID, originalTransactionId: id, type: payload.notificationType.rawValue,
            subtype: payload.subtype?.rawValue, signedMillis: payload.signedDate)
        _ = try ledger.recordNotification(summary, applied: !isStale, at: now)
        if isStale { return "stale" }

        purchase.productId = transaction.productId
        purchase.expires = transaction.expiresDate.map { SimInstant(milliseconds: $0) }
        purchase.revoked = transaction.revocationDate != nil
        if let renewal { purchase.apply(renewal) }
        if payload.notificationType == .gracePeriodExpired { purchase.graceExpires = nil }
        if payload.notificationType == .didRenew { purchase.billingIssue = false }
        purchase.appleSignedMillis = payload.signedDate
        let why = "\(payload.notificationType.rawValue)\(payload.subtype.map { "/\($0.rawValue)" } ?? "")"
        if isNew {
            try ledger.insert(purchase, at: now, actor: "app-store")
        } else {
            try ledger.applyAppleState(purchase, at: now, why: why)
        }
        return "applied"
    }
}

extension PurchaseRecord {
    /// Apple's renewal state of the subscription: billing retry, the grace period's end, auto-renew.
    mutating func apply(_ renewal: RenewalInfo) {
        billingIssue = renewal.isInBillingRetryPeriod
        graceExpires = renewal.gracePeriodExpiresDate.map { SimInstant(milliseconds: $0) }
        autoRenew = renewal.autoRenewStatus == 1
    }
}
