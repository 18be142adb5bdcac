import Database

/// The App Store's records in an `appstore.sqlite`, opened to read and never to write: what
/// `check --ledger` holds the backend's ledger against.
public final class StoreRecords {
    private let database: Database

    /// Throws when the file cannot be read as the store's records (not SQLite, no transactions table).
    public init(readingOnly path: String) throws(DatabaseError) {
        database = try Database(path: path, readOnly: true)
        _ = try database.query("SELECT 1 FROM transactions LIMIT 1")
    }

    /// The latest transaction of each purchase, by original transaction id (a renewal's period, a refund).
    public func latestTransactions() throws(DatabaseError) -> [String: TransactionRecord] {
        var latest: [String: TransactionRecord] = [:]
        let rows = try database.query(
            """
            SELECT transaction_id, original_transaction_id, product_id, apple_id, device_id, purchase_ms, expires_ms,
                finished, revocation_ms FROM transactions ORDER BY purchase_ms, transaction_id
            """)
        for row in rows {
            var record = TransactionRecord(
                transactionIdentifier: row[0].string ?? "", originalTransactionIdentifier: row[1].string ?? "",
                productIdentifier: row[2].string ?? "", appleId: row[3].string ?? "", deviceId: row[4].string ?? "",
                purchaseDate: .init(milliseconds: row[5].int ?? 0),
                expiresDate: row[6].int.map { .init(milliseconds: $0) },
                finished: row[7].int == 1)
            record.revocationDate = row[8].int.map { .init(milliseconds: $0) }
            latest[record.originalTransactionIdentifier] = record
        }
        return latest
    }
}

extension StoreRecords {
    /// The payments of each purchase that named a customer, by original transaction id, oldest first: when each was
    /// made and its appAccountToken, lowercased. A move by purchase is to one of these customers.
    public func namedPayments() throws(DatabaseError) -> [String: [(purchaseMillis: Int64, token: String)]] {
        var payments: [String: [(purchaseMillis: Int64, token: String)]] = [:]
        for row in try database.query(
            """
            SELECT original_transaction_id, purchase_ms, app_account_token FROM transactions
                WHERE app_account_token IS NOT NULL ORDER BY purchase_ms, transaction_id
            """)
        {
            guard let original = row[0].string, let millis = row[1].int, let token = row[2].string else { continue }
            payments[original, default: []].append((millis, token.lowercased()))
        }
        return payments
    }
}

/// A server notification the App Store posted and has not delivered yet (a run stopped before it arrived): the next
/// run delivers it, so a ledger behind it is behind the news, not wrong.
public struct NewsOnItsWay: CustomStringConvertible, Sendable {
    public let name: String
    /// The purchase it is about; nil for a TEST.
    public let originalTransactionId: String?
    /// The attempts the server did not answer with a 2xx: Apple retries it (`NotificationRetry`).
    public var attempts = 0

    public var description: String {
        let about = originalTransactionId.map { "\(name) about purchase \($0)" } ?? name
        guard attempts > 0 else { return about }
        return "\(about), not answered \(attempts) time\(attempts == 1 ? "" : "s") (Apple retries it)"
    }
}

extension StoreRecords {
    /// The notifications on their way, in the order they were posted; none in a file written before they were kept.
    public func newsOnItsWay() throws(DatabaseError) -> [NewsOnItsWay] {
        let table = try database.query(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notifications_on_their_way'")
        guard !table.isEmpty else { return [] }
        // `attempts` is in a file written since Apple retries (session 30).
        let counted = try !database.query(
            "SELECT 1 FROM pragma_table_info('notifications_on_their_way') WHERE name = 'attempts'"
        ).isEmpty
        return try database.query(
            "SELECT name, original_transaction_id, \(counted ? "attempts" : "0") FROM notifications_on_their_way ORDER BY id"
        ).map {
            NewsOnItsWay(name: $0[0].string ?? "", originalTransactionId: $0[1].string, attempts: Int($0[2].int ?? 0))
        }
    }
}
