/// One subscription in a status answer (`LastTransactionsItem`).
public struct LastTransactionStatus: Codable, Equatable, Sendable {
    /// 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public var status: Int
    public var originalTransactionId: String
    public var signedTransactionInfo: String
    public var signedRenewalInfo: String
}

/// The subscriptions of one group in a status answer (`SubscriptionGroupIdentifierItem`).
public struct SubscriptionGroupStatus: Codable, Equatable, Sendable {
    public var subscriptionGroupIdentifier: String
    public var lastTransactions: [LastTransactionStatus]
}

/// Apple's answer to "Get All Subscription Statuses" (`StatusResponse`).
public struct SubscriptionStatusResponse: Codable, Equatable, Sendable {
    public var environment: StoreEnvironment
    public var bundleId: String
    public var data: [SubscriptionGroupStatus]
}

extension AppStore {
    /// `GET /inApps/v1/transactions/{transactionId}` (Get Transaction Info): the latest transaction of a
    /// purchase, signed — what the server reads of a purchase that is not a subscription. Nil when unknown.
    public func signedLatestTransaction(originalTransactionId: String) -> String? {
        guard
            let latest = logged(
                "read the transactions of \(originalTransactionId)",
                { try ledger.transactions(originalTransactionId: originalTransactionId) })?.last
        else { return nil }
        return sign(transactionInfo(latest))
    }

    /// `GET /inApps/v1/subscriptions/{transactionId}`: every subscription of the customer who made
    /// `originalTransactionId` (any of their transaction ids works), grouped by subscription group, each
    /// with its status and its latest signed transaction and renewal info, the family's shares with it
    /// (`sharedStatuses`). Nil for an unknown id.
    public func subscriptionStatuses(originalTransactionId: String) -> SubscriptionStatusResponse? {
        guard
            let known = logged(
                "read transaction \(originalTransactionId)", { try ledger.transaction(originalTransactionId) }) ?? nil,
            let subscriptions = logged(
                "read the subscriptions of \(known.appleId)", { try ledger.subscriptions(appleId: known.appleId) })
        else { return nil }
        var items: [(latest: TransactionRecord, subscription: SubscriptionRecord)] = []
        for subscription in subscriptions {
            let read = logged("read transaction \(subscription.latestTransactionId)") {
                try ledger.transaction(subscription.latestTransactionId)
            }
            guard let latest = read ?? nil else { continue }
            items.append((latest, subscription))
        }
        guard
            let shares = logged("read the family shares of \(known.appleId)", { try sharedStatuses(of: known.appleId) })
        else { return nil }
        var groups: [SubscriptionGroupStatus] = []
        for (latest, subscription) in items + shares {
            let groupId = subscription.groupId
            let item = LastTransactionStatus(
                status: subscription.state.rawValue, originalTransactionId: subscription.originalTransactionId,
                signedTransactionInfo: sign(transactionInfo(latest)),
                signedRenewalInfo: sign(renewalInfo(subscription)))
            if let index = groups.firstIndex(where: { $0.subscriptionGroupIdentifier == groupId }) {
                groups[index].lastTransactions.append(item)
            } else {
                groups.append(SubscriptionGroupStatus(subscriptionGroupIdentifier: groupId, lastTransactions: [item]))
            }
        }
        return SubscriptionStatusResponse(environment: environment, bundleId: bundleId, data: groups)
    }
}
