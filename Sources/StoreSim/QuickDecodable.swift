import SimKernel

/// A payload `NotificationCodec` reads with `QuickJSON` first.
protocol QuickDecodable: Decodable {
    /// nil when the fields are not all there in plain form: the caller decodes with `JSONDecoder`.
    init?(quick fields: inout QuickFields)
}

extension TransactionInfo: QuickDecodable {
    init?(quick json: inout QuickFields) {
        guard let environment = json.raw("environment", as: StoreEnvironment.self) else { return nil }
        self.init(
            transactionId: json.string("transactionId"), originalTransactionId: json.string("originalTransactionId"),
            productId: json.string("productId"), bundleId: json.string("bundleId"), environment: environment,
            purchaseDate: json.integer("purchaseDate"), originalPurchaseDate: json.integer("originalPurchaseDate"),
            expiresDate: json.optionalInteger("expiresDate"), revocationDate: json.optionalInteger("revocationDate"),
            revocationReason: json.optionalInteger("revocationReason").map { Int($0) },
            inAppOwnershipType: json.string("inAppOwnershipType"),
            appAccountToken: json.optionalString("appAccountToken"),
            deviceId: json.string("deviceId"), signedDate: json.integer("signedDate"),
            subscriptionGroupIdentifier: json.optionalString("subscriptionGroupIdentifier"),
            transactionReason: json.optionalString("transactionReason"),
            offerType: json.optionalInteger("offerType").map { Int($0) }, isUpgraded: json.optionalBool("isUpgraded"),
            type: json.optionalString("type"), offerDiscountType: json.optionalString("offerDiscountType"))
    }
}

extension RenewalInfo: QuickDecodable {
    init?(quick json: inout QuickFields) {
        self.init(
            originalTransactionId: json.string("originalTransactionId"), productId: json.string("productId"),
            autoRenewProductId: json.string("autoRenewProductId"),
            autoRenewStatus: Int(json.integer("autoRenewStatus")),
            isInBillingRetryPeriod: json.bool("isInBillingRetryPeriod"),
            gracePeriodExpiresDate: json.optionalInteger("gracePeriodExpiresDate"),
            expirationIntent: json.optionalInteger("expirationIntent").map { Int($0) },
            priceIncreaseStatus: json.optionalInteger("priceIncreaseStatus").map { Int($0) },
            renewalDate: json.optionalInteger("renewalDate"), signedDate: json.integer("signedDate"),
            offerType: json.optionalInteger("offerType").map { Int($0) })
    }
}

extension NotificationPayload: QuickDecodable {
    init?(quick json: inout QuickFields) {
        var data = json.object("data")
        guard let type = json.raw("notificationType", as: NotificationType.self),
            let environment = data.raw("environment", as: StoreEnvironment.self)
        else { return nil }
        let contents = NotificationData(
            bundleId: data.string("bundleId"), environment: environment,
            signedTransactionInfo: data.optionalString("signedTransactionInfo"),
            signedRenewalInfo: data.optionalString("signedRenewalInfo"),
            status: data.optionalInteger("status").map { Int($0) })
        guard !data.failed else { return nil }
        self.init(
            notificationType: type, subtype: json.optionalRaw("subtype", as: NotificationSubtype.self),
            notificationUUID: json.string("notificationUUID"), version: json.string("version"),
            signedDate: json.integer("signedDate"), data: contents)
    }
}
