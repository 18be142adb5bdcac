import SimKernel

/// A payload the store signs, written by hand in `JSONEncoder`'s sorted-keys form (`CanonicalJSONTests`
/// proves the bytes are the same).
public protocol CanonicalJSONWritable {
    func write(to writer: inout CanonicalJSONWriter)
}

extension CanonicalJSONWritable {
    public var canonicalJSON: [UInt8] {
        var writer = CanonicalJSONWriter()
        write(to: &writer)
        return writer.bytes
    }
}

extension TransactionInfo: CanonicalJSONWritable {
    public func write(to writer: inout CanonicalJSONWriter) {
        writer.object { json in
            json.string("appAccountToken", appAccountToken)
            json.string("bundleId", bundleId)
            json.string("deviceId", deviceId)
            json.string("environment", environment.rawValue)
            json.integer("expiresDate", expiresDate)
            json.string("inAppOwnershipType", inAppOwnershipType)
            json.bool("isUpgraded", isUpgraded)
            json.string("offerDiscountType", offerDiscountType)
            json.integer("offerType", offerType)
            json.integer("originalPurchaseDate", originalPurchaseDate)
            json.string("originalTransactionId", originalTransactionId)
            json.string("productId", productId)
            json.integer("purchaseDate", purchaseDate)
            json.integer("revocationDate", revocationDate)
            json.integer("revocationReason", revocationReason)
            json.integer("signedDate", signedDate)
            json.string("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
            json.string("transactionId", transactionId)
            json.string("transactionReason", transactionReason)
            json.string("type", type)
        }
    }
}

extension RenewalInfo: CanonicalJSONWritable {
    public func write(to writer: inout CanonicalJSONWriter) {
        writer.object { json in
            json.string("autoRenewProductId", autoRenewProductId)
            json.integer("autoRenewStatus", autoRenewStatus)
            json.integer("expirationIntent", expirationIntent)
            json.integer("gracePeriodExpiresDate", gracePeriodExpiresDate)
            json.bool("isInBillingRetryPeriod", isInBillingRetryPeriod)
            json.integer("offerType", offerType)
            json.string("originalTransactionId", originalTransactionId)
            json.integer("priceIncreaseStatus", priceIncreaseStatus)
            json.string("productId", productId)
            json.integer("renewalDate", renewalDate)
            json.integer("signedDate", signedDate)
        }
    }
}

extension NotificationPayload: CanonicalJSONWritable {
    public func write(to writer: inout CanonicalJSONWriter) {
        writer.object { json in
            json.object("data") { data in
                data.string("bundleId", self.data.bundleId)
                data.string("environment", self.data.environment.rawValue)
                data.string("signedRenewalInfo", self.data.signedRenewalInfo)
                data.string("signedTransactionInfo", self.data.signedTransactionInfo)
                data.integer("status", self.data.status)
            }
            json.string("notificationType", notificationType.rawValue)
            json.string("notificationUUID", notificationUUID)
            json.integer("signedDate", signedDate)
            json.string("subtype", subtype?.rawValue)
            json.string("version", version)
        }
    }
}

extension ReceiptPayload.InAppPurchase: CanonicalJSONWritable {
    public func write(to writer: inout CanonicalJSONWriter) {
        writer.object { json in
            json.string("appAccountToken", appAccountToken)
            json.integer("cancellationDate", cancellationDate)
            json.integer("expiresDate", expiresDate)
            json.string("inAppOwnershipType", inAppOwnershipType)
            json.bool("isInIntroOfferPeriod", isInIntroOfferPeriod)
            json.string("originalTransactionId", originalTransactionId)
            json.string("productId", productId)
            json.integer("purchaseDate", purchaseDate)
            json.string("transactionId", transactionId)
        }
    }
}

/// A receipt's payload; `ReceiptMemo` writes its shell (an empty `inApp`) this way and each entry apart.
extension ReceiptPayload: CanonicalJSONWritable {
    public func write(to writer: inout CanonicalJSONWriter) {
        writer.object { json in
            json.string("bundleId", bundleId)
            json.integer("creationDate", creationDate)
            json.string("deviceVerification", deviceVerification)
            json.string("deviceVerificationNonce", deviceVerificationNonce)
            json.string("environment", environment.rawValue)
            json.array("inApp", inApp) { json, purchase in purchase.write(to: &json) }
        }
    }
}
