import Database
import SimKernel

/// The App Store's own records in `appstore.sqlite` (or in memory): every charged transaction,
/// whether the app finished it, and the counter that numbers transactions.
final class StoreLedger {
    private let database: Database

    private static let migrations = [
        """
        CREATE TABLE transactions (
            transaction_id TEXT PRIMARY KEY,
            original_transaction_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            apple_id TEXT NOT NULL,
            device_id TEXT NOT NULL,
            purchase_ms INTEGER NOT NULL,
            expires_ms INTEGER,
            finished INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX transactions_by_apple_id ON transactions(apple_id, purchase_ms)
        """
    ]

    init(path: String?) throws(DatabaseError) {
        database = try Database(path: path)
        try database.migrate(Self.migrations)
    }

    func insert(_ record: TransactionRecord) throws(DatabaseError) {
        try database.run(
            """
            INSERT INTO transactions (transaction_id, original_transaction_id, product_id, apple_id, device_id,
                purchase_ms, expires_ms, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.transactionIdentifier), .text(record.originalTransactionIdentifier),
                .text(record.productIdentifier), .text(record.appleId), .text(record.deviceId),
                .integer(record.purchaseDate.milliseconds),
                record.expiresDate.map { .integer($0.milliseconds) } ?? .null,
                .integer(record.finished ? 1 : 0),
            ])
    }

    func markFinished(_ transactionIdentifier: String) throws(DatabaseError) {
        try database.run(
            "UPDATE transactions SET finished = 1 WHERE transaction_id = ?", [.text(transactionIdentifier)])
    }

    func transactions(appleId: String) throws(DatabaseError) -> [TransactionRecord] {
        try database.query(
            "SELECT * FROM transactions WHERE apple_id = ? ORDER BY purchase_ms, transaction_id", [.text(appleId)]
        ).map(Self.record)
    }

    func transaction(_ transactionIdentifier: String) throws(DatabaseError) -> TransactionRecord? {
        try database.query("SELECT * FROM transactions WHERE transaction_id = ?", [.text(transactionIdentifier)])
            .first.map(Self.record)
    }

    /// The number the next transaction takes: one past the highest so far.
    func nextTransactionNumber() throws(DatabaseError) -> Int64 {
        let rows = try database.query("SELECT COUNT(*) FROM transactions")
        return (rows.first?.first?.int ?? 0) + 1
    }

    private static func record(_ row: [SQLValue]) -> TransactionRecord {
        TransactionRecord(
            transactionIdentifier: row[0].string ?? "", originalTransactionIdentifier: row[1].string ?? "",
            productIdentifier: row[2].string ?? "", appleId: row[3].string ?? "", deviceId: row[4].string ?? "",
            purchaseDate: SimInstant(milliseconds: row[5].int ?? 0),
            expiresDate: row[6].int.map { SimInstant(milliseconds: $0) }, finished: row[7].int == 1)
    }
}
