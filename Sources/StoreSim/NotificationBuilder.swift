import Database
import SimKernel
import WhiteLabel

/// A subscription's renewal as a notification's renewal info tells it: what the server can know of what comes next.
struct RenewalTold: Equatable, CustomStringConvertible {
    let autoRenew: Bool
    let autoRenewProductId: String
    let priceIncreaseStatus: Int?

    init(_ subscription: SubscriptionRecord) {
        autoRenew = subscription.autoRenew
        autoRenewProductId = subscription.autoRenewProductId
        priceIncreaseStatus = subscription.priceIncreaseStatus
    }

    var description: String {
        "\(autoRenew ? "renews as" : "ends as") \(autoRenewProductId)"
            + (priceIncreaseStatus == 0 ? ", a raised price waiting" : "")
    }
}

/// Builds the signed V2 notifications, transaction info and renewal info the store sends and answers with.
extension AppStore {
    /// Posts a notification about `record` (and its subscription), signed now.
    func notify(
        _ type: NotificationType, _ subtype: NotificationSubtype?, _ record: TransactionRecord,
        _ subscription: SubscriptionRecord?, ownership: String? = nil
    ) {
        // Nobody reads a notification with no endpoint: it is still posted (the same draws, the same
        // timeline), but nothing in it is signed.
        let read = notificationEndpoint != nil
        let payload = NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: nextUUID(), version: "2.0",
            signedDate: notificationSignedDate(),
            data: NotificationData(
                bundleId: bundleId, environment: environment,
                signedTransactionInfo: read ? sign(transactionInfo(record, ownership: ownership)) : nil,
                signedRenewalInfo: read ? subscription.map { sign(renewalInfo($0)) } : nil,
                status: subscription?.state.rawValue))
        post(payload, about: record.originalTransactionIdentifier)
        if let subscription { renewalsTold[subscription.originalTransactionId] = RenewalTold(subscription) }
        // Whatever changed the purchaser's purchase changes what the family shares of it.
        if !record.isFamilyShared {
            logged("share \(record.originalTransactionIdentifier) with the family") {
                try shareWithFamily(
                    record.originalTransactionIdentifier, purchaser: record.appleId, told: (type, subtype))
            }
        }
    }

    /// How `subscription`'s renewal differs from what the server was last told of it, nil when it does not (or when
    /// nothing of it was told this run). Apple tells every change: an offer code that renews into another plan told
    /// nothing, and the profile said the old plan renews while Apple's sheet said it switches (session 24).
    public func untoldRenewalChange(_ subscription: SubscriptionRecord) -> String? {
        guard let told = renewalsTold[subscription.originalTransactionId] else { return nil }
        let now = RenewalTold(subscription)
        guard now != told else { return nil }
        return "Apple changed the renewal of \(subscription.originalTransactionId) (\(told) → \(now)) without telling "
            + "the server"
    }

    /// Apple's signing time for a notification: now, and after every one signed before, so two notifications
    /// of one virtual instant still say which is newer; the backend applies the newest, and a tie let an
    /// older snapshot (auto-renew off, built before a revocation in the same millisecond) undo the revocation.
    func notificationSignedDate() -> Int64 {
        lastNotificationSigned = max(scheduler.now.milliseconds, lastNotificationSigned + 1)
        return lastNotificationSigned
    }

    /// Apple's "Request a Test Notification": a TEST about no transaction, to prove the address works.
    public func requestTestNotification() {
        log("test notification requested")
        post(
            NotificationPayload(
                notificationType: .test, subtype: nil, notificationUUID: nextUUID(), version: "2.0",
                signedDate: notificationSignedDate(),
                data: NotificationData(
                    bundleId: bundleId, environment: environment, signedTransactionInfo: nil, signedRenewalInfo: nil,
                    status: nil)),
            about: nil)
    }

    /// A notification about the subscription's latest transaction.
    func notifyLatest(
        _ type: NotificationType, _ subtype: NotificationSubtype?, _ subscription: SubscriptionRecord
    ) throws(DatabaseError) {
        guard let record = try ledger.transaction(subscription.latestTransactionId) else { return }
        notify(type, subtype, record, subscription)
    }

    /// `ownership` overrides the record's own (`inAppOwnershipType`, PURCHASED when it has none).
    func transactionInfo(_ record: TransactionRecord, ownership: String? = nil) -> TransactionInfo {
        let spec = catalog.spec(for: record.productIdentifier)
        let first =
            logged("read the first transaction of \(record.originalTransactionIdentifier)") {
                try ledger.firstTransaction(originalTransactionId: record.originalTransactionIdentifier)
            } ?? nil
        return TransactionInfo(
            transactionId: record.transactionIdentifier, originalTransactionId: record.originalTransactionIdentifier,
            productId: record.productIdentifier, bundleId: bundleId, environment: environment,
            purchaseDate: record.purchaseDate.milliseconds,
            originalPurchaseDate: (first?.purchaseDate ?? record.purchaseDate).milliseconds,
            expiresDate: record.expiresDate?.milliseconds, revocationDate: record.revocationDate?.milliseconds,
            revocationReason: record.revocationReason,
            inAppOwnershipType: ownership ?? record.inAppOwnershipType ?? FamilySharing.purchased,
            appAccountToken: record.appAccountToken,
            deviceId: record.deviceId, signedDate: scheduler.now.milliseconds,
            subscriptionGroupIdentifier: spec?.subscriptionGroup, transactionReason: record.transactionReason,
            offerType: record.offerType, isUpgraded: record.isUpgraded ? true : nil,
            type: spec.map { Self.typeName($0.type) },
            offerDiscountType: record.isTrialPeriod ? TransactionInfo.freeTrial : nil)
    }

    func renewalInfo(_ subscription: SubscriptionRecord) -> RenewalInfo {
        RenewalInfo(
            originalTransactionId: subscription.originalTransactionId, productId: subscription.productId,
            autoRenewProductId: subscription.autoRenewProductId, autoRenewStatus: subscription.autoRenew ? 1 : 0,
            isInBillingRetryPeriod: subscription.state == .billingRetry || subscription.state == .gracePeriod,
            gracePeriodExpiresDate: subscription.gracePeriodExpiresDate?.milliseconds,
            expirationIntent: subscription.expirationIntent, priceIncreaseStatus: subscription.priceIncreaseStatus,
            renewalDate: subscription.expiresDate.milliseconds, signedDate: scheduler.now.milliseconds,
            offerType: nextOfferType(subscription))
    }

    /// A UUID unique on this store's records: its last 12 hex digits are a serial kept in `appstore.sqlite`,
    /// so a reopened folder never names a new notification as an old one; the rest comes from the seeded
    /// generator, so the same seed names an ephemeral world's notifications alike (and draws as before).
    /// A serial that cannot be written is logged, and the UUID is then all unguessable bytes (the OS's for a
    /// state folder): the backend would take a repeated UUID for a duplicate and drop the news. Its serial digits
    /// then start at 8…f, a serial no store reaches: a reopened folder compares the ledger's highest serial with
    /// the store's (`StateKinship`), and a random one would read as news the store never numbered.
    func nextUUID() -> String {
        let serial = logged("number a notification") { try ledger.nextSerial("notification") }
        let drawn = random.bytes(16)
        guard let serial else {
            var bytes = keys.unguessableBytes(16)
            bytes[10] |= 0x80
            return Self.uuid(bytes)
        }
        return Self.uuid(drawn: drawn, serial: serial)
    }

    /// The first 20 hex digits of `drawn` (the 16 bytes `hex(16)` drew before), then `serial`'s lowest 48
    /// bits in 12: written as bytes, one String where there were forty.
    static func uuid(drawn: [UInt8], serial: Int64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var uuid = [UInt8]()
        uuid.reserveCapacity(36)
        for index in 0..<32 {
            let nibble =
                index < 20
                ? (index % 2 == 0 ? drawn[index / 2] >> 4 : drawn[index / 2] & 0xF)
                : UInt8(truncatingIfNeeded: UInt64(bitPattern: serial) >> (4 * UInt64(31 - index)) & 0xF)
            if index == 8 || index == 12 || index == 16 || index == 20 { uuid.append(UInt8(ascii: "-")) }
            uuid.append(digits[Int(nibble)])
        }
        return String(decoding: uuid, as: UTF8.self)
    }

    private static func typeName(_ kind: StoreProductSpec.Kind) -> String {
        switch kind {
        case .autoRenewable: "Auto-Renewable Subscription"
        case .nonRenewing: "Non-Renewing Subscription"
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        }
    }
}
