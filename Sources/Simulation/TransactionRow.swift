import BackendSim
import SimKernel
import StoreSim

/// One row of the transaction inspector: a transaction of the reader's Apple ID, or a payment the store
/// holds, as the App Store and the backend's ledger know it at one instant.
public struct TransactionRow: Equatable, Sendable {
    /// The transaction id, or the held payment's handle (`ask-to-buy-2`).
    public let id: String
    public let product: String
    /// "active", "past period", "refunded/revoked", "asks a parent", "lapsed"…
    public let state: String
    public let expires: SimInstant?
    /// nil where it means nothing: a past period, a one-time purchase, a held payment.
    public let autoRenew: Bool?
    /// Who owns it in the backend's ledger: an account's email, an anonymous identity, or nobody yet.
    public let owner: String
    /// The phone it was bought on, or asked on.
    public let device: String
    public let controls: [TransactionControl]
    /// A held payment or a lapsed request: nothing bought yet, only asked ("bought on iphone" of a request waiting
    /// for a parent, session 28).
    public var isRequest = false
}

extension World {
    /// The reader's held payments, its lapsed requests, then every transaction newest first: what the inspector lists.
    public var transactionRows: [TransactionRow] {
        let held = pendingPayments.map { payment in
            TransactionRow(
                id: payment.identifier, product: payment.product.productIdentifier,
                state: payment.kind == .askToBuy ? "asks a parent" : "interrupted", expires: nil,
                autoRenew: nil, owner: "—", device: deviceName(ofStoreDevice: payment.deviceId) ?? payment.deviceId,
                controls: payment.kind == .askToBuy ? [.approve, .decline] : [.resolveInterrupted], isRequest: true)
        }
        // A request no parent answered in time: listed, with nothing to press (`A` on it approved a lapsed request).
        let lapsed = store.lapsedRequests.filter { $0.appleId == options.appleId }.reversed().map { request in
            TransactionRow(
                id: request.identifier, product: request.product.productIdentifier, state: "lapsed",
                expires: request.lapsedAt, autoRenew: nil, owner: "—",
                device: deviceName(ofStoreDevice: request.deviceId) ?? request.deviceId, controls: [], isRequest: true)
        }
        let subscriptions = Dictionary(
            store.subscriptions(appleId: appleId).map { ($0.originalTransactionId, $0) },
            uniquingKeysWith: { a, _ in a })
        let charged = store.transactions(appleId: appleId).reversed().map { record in
            row(record, subscription: subscriptions[record.originalTransactionIdentifier])
        }
        // A family member's shares, which only Apple's REVOKE takes back (the inspector said "No transactions yet").
        let shared = store.familySharedTransactions(appleId: appleId).reversed().map { record in
            row(record, subscription: nil)
        }
        return held + lapsed + charged + shared
    }

    private func row(_ record: TransactionRecord, subscription: SubscriptionRecord?) -> TransactionRow {
        let isCurrent = subscription?.latestTransactionId == record.transactionIdentifier
        let state: String
        if record.revocationDate != nil {
            // The store keeps one revocation date for a refund and a Family Sharing revoke alike.
            state = "refunded/revoked"
        } else if record.isUpgraded {
            state = "upgraded"
        } else if let subscription, isCurrent {
            state = Self.describe(subscription.state)
        } else {
            state = subscription == nil ? "purchased" : "past period"
        }
        var controls: [TransactionControl] = []
        // An own purchase is refunded (a revoke of it is a refund too), unless it has nothing left to refund (replaced
        // by an upgrade, or a free trial); a share is revoked.
        if record.revocationDate == nil {
            controls =
                record.isFamilyShared ? [.revoke] : AppStore.notRefundable(record) == nil ? [.refund, .revoke] : []
        }
        if isCurrent, subscription?.state.isEntitled == true, record.revocationDate == nil { controls.append(.expire) }
        return TransactionRow(
            id: record.transactionIdentifier, product: record.productIdentifier, state: state,
            expires: isCurrent ? subscription?.expiresDate : record.expiresDate,
            autoRenew: isCurrent ? subscription?.autoRenew : nil,
            owner: owner(of: record.originalTransactionIdentifier),
            device: deviceName(ofStoreDevice: record.deviceId) ?? record.deviceId, controls: controls)
    }

    private static func describe(_ state: SubscriptionState) -> String {
        switch state {
        case .active: "active"
        case .expired: "expired"
        case .billingRetry: "billing retry"
        case .gracePeriod: "grace period"
        case .revoked: "revoked"
        }
    }

    /// The owner the backend's ledger names; a ledger that cannot be read says so in the row and on the timeline.
    private func owner(of original: String) -> String {
        do {
            guard let ownerId = try backend.ledger.purchase(original)?.ownerId else { return "nobody yet" }
            if let email = try backend.ledger.email(of: ownerId) { return email }
            // Whole: "anon-000001" and "anon-000002" cut to 8 characters read alike, and a move did not show (session 26).
            return "anonymous \(ownerId)"
        } catch {
            report("error: cannot read the ledger's owner of \(original): \(error)", from: .control)
            return "unreadable"
        }
    }
}
