import Database
import FoundationEssentials
import SimKernel

/// The App Store's own records in `appstore.sqlite` (or in memory): every charged transaction,
/// whether the app finished it, the counter that numbers transactions, and each subscription's state.
final class StoreLedger {
    let database: Database
    /// Transactions as last read, per Apple ID and per subscription, kept in step with this file's writes
    /// (a new row is added, a changed one replaced) so a step never reads a long history again; other
    /// writes drop them. The store writes outside SQL transactions (nothing rolls back) and one process
    /// owns a folder, so the kept lists are what a read would return. Every change to them, a list read and
    /// kept included, moves `appleIdListsVersion`, which keeps `keptCharged`'s answer honest.
    private var byAppleId: [String: [TransactionRecord]] = [:] { didSet { appleIdListsVersion &+= 1 } }
    private var byOriginal: [String: [TransactionRecord]] = [:]
    /// Moves with every change to `byAppleId` (`ChargedKept`).
    private(set) var appleIdListsVersion: UInt64 = 0
    /// `AppStore.chargedTransactions(of:)`'s last complete answer (`ChargedKept`).
    var chargedKept: ChargedKept?
    /// Per Apple ID, how many leading records of its kept list are as they were when a receipt last listed
    /// them (`transactionsForReceipt`): the store builds again only the entries after them.
    private var unchangedSinceReceipt: [String: Int] = [:]
    /// A paywall's products each ask for their Apple ID's subscriptions (intro and win-back eligibility).
    private var subscriptionsKept = KeptAnswer<String, [SubscriptionRecord]>()
    /// The invariant monitor asks for the family and its sharing after every step.
    var familyMembersKept = KeptAnswer<String, [String]>()
    var familySharingKept = KeptAnswer<String, Bool>()
    /// The largest rowid of `transactions`, once read (`nextTransactionNumber`).
    private var highestRowid: Int64?
    /// Apple IDs who may have a family (`familyAppleIds()` in StoreLedger+Family), once read.
    var knownFamilyAppleIds: Set<String>?

    /// Every other write to the `transactions` table calls this, in this file and in its extensions.
    func transactionsChanged() {
        byAppleId.removeAll(keepingCapacity: true)
        byOriginal.removeAll(keepingCapacity: true)
        unchangedSinceReceipt.removeAll()
    }

    /// Runs `body`, the writes of one scheduler event, as one commit: a charge releases its held payment and
    /// writes its transaction and subscription together (one write lock, one commit's frames), and a kill
    /// leaves the held payment or the charge, never both or neither. `body` handles each statement's failure
    /// as it does outside a transaction: what succeeded is committed, unless the disk refused one (`body`
    /// answers its `StorageFailure`): then none is, for the rest would be half of the event (h3 03). Inside an
    /// open transaction `body` joins it; when none can be opened it runs as it would without one. Answers the
    /// error that lost the writes (the commit failed, or SQLite rolled the transaction back after a failed
    /// statement), the kept copies then dropped, for they may hold rows the file does not.
    func inOneCommit(_ body: () -> StorageFailure?) -> DatabaseError? {
        guard !database.inTransaction else {
            _ = body()
            return nil
        }
        do {
            try database.begin()
        } catch {
            // Not opened (the file is busy): each write commits on its own and reports its own failure.
            _ = body()
            return nil
        }
        let refused = body()
        do throws(DatabaseError) {
            // SQLITE_ABORT: the transaction was given up.
            if let refused {
                throw DatabaseError(code: 4, message: "rolled back after a write failed", storage: refused)
            }
            try database.commit()
            return nil
        } catch {
            var failure = error
            if database.inTransaction {
                do {
                    try database.rollback()
                } catch {
                    failure = DatabaseError(
                        code: failure.code, message: "\(failure.message); rolling back failed too: \(error.message)",
                        storage: failure.storage ?? error.storage)
                }
            }
            forgetKept()
            return failure
        }
    }

    /// Drops everything kept from the file's rows, to be read again: after writes the file may not hold.
    private func forgetKept() {
        transactionsChanged()
        subscriptionsRead.removeAll()
        highestRowid = nil
        knownFamilyAppleIds = nil
        appleIdsCharged = nil
        // A block of serials reserved in the lost commit is not reserved on disk: numbering on from it handed out ids
        // past the file's, read at the next open as news the store never numbered (session 29). The event's
        // notifications were taken back with it, so the block is reserved again.
        reservedSerials.removeAll()
    }

    /// A kept list of `appleId` changed at `index` (or is no longer kept: nil).
    private func appleIdChanged(_ appleId: String, at index: Int?) {
        guard let index, let unchanged = unchangedSinceReceipt[appleId] else {
            unchangedSinceReceipt[appleId] = nil
            return
        }
        unchangedSinceReceipt[appleId] = min(unchanged, index)
    }

    /// The Apple ID's transactions, and how many leading ones are as they were at this call's last answer
    /// for it (0 the first time, or after the list was dropped).
    func transactionsForReceipt(appleId: String) throws(DatabaseError) -> (records: [TransactionRecord], unchanged: Int)
    {
        let records = try transactions(appleId: appleId)
        let unchanged = min(unchangedSinceReceipt[appleId] ?? 0, records.count)
        unchangedSinceReceipt[appleId] = records.count
        return (records, unchanged)
    }

    /// A row changed: its copy in the kept lists of its Apple ID and subscription replaced by the row as read
    /// now (by its key). When it cannot be read, the lists are dropped and the next read of them meets (and
    /// reports) the error. A new row is kept as inserted (`insert`).
    private func kept(written transactionIdentifier: String) {
        do {
            guard let record = try transaction(transactionIdentifier) else { return transactionsChanged() }
            appleIdChanged(record.appleId, at: byAppleId[record.appleId]?.keep(record, inserted: false))
            _ = byOriginal[record.originalTransactionIdentifier]?.keep(record, inserted: false)
        } catch {
            transactionsChanged()
        }
    }

    static let migrations = [
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
        """,
        // Renewals, refunds and intro offers: what the lifecycle and verifyReceipt need to tell the truth.
        """
        ALTER TABLE transactions ADD COLUMN revocation_ms INTEGER;
        ALTER TABLE transactions ADD COLUMN revocation_reason INTEGER;
        ALTER TABLE transactions ADD COLUMN transaction_reason TEXT;
        ALTER TABLE transactions ADD COLUMN offer_type INTEGER;
        ALTER TABLE transactions ADD COLUMN is_upgraded INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX transactions_by_original ON transactions(original_transaction_id, purchase_ms);
        CREATE TABLE subscriptions (
            original_transaction_id TEXT PRIMARY KEY,
            apple_id TEXT NOT NULL,
            device_id TEXT NOT NULL,
            group_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            auto_renew_product_id TEXT NOT NULL,
            auto_renew INTEGER NOT NULL,
            status INTEGER NOT NULL,
            expires_ms INTEGER NOT NULL,
            grace_expires_ms INTEGER,
            retry_ends_ms INTEGER,
            expiration_intent INTEGER,
            price_increase_status INTEGER,
            intro_periods_left INTEGER NOT NULL,
            latest_transaction_id TEXT NOT NULL
        );
        CREATE INDEX subscriptions_by_apple_id ON subscriptions(apple_id, group_id)
        """,
        // Payments the store holds: confirmed on Apple's sheet and not yet charged (the payment is
        // Apple's once confirmed, even if the app or the process dies), waiting for a parent, or
        // interrupted. A reopened store carries each on.
        """
        CREATE TABLE held_payments (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            apple_id TEXT NOT NULL,
            device_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            payment_number INTEGER NOT NULL,
            requested_ms INTEGER NOT NULL
        )
        """,
        // Serials that must never repeat on one state folder (notification ids): a run's seeded
        // generator starts over every run, and the backend remembers every id it has seen.
        """
        CREATE TABLE serials (name TEXT PRIMARY KEY, value INTEGER NOT NULL)
        """,
        // Promotional-offer nonces spent: a signature works once, across restarts too.
        """
        CREATE TABLE used_offer_nonces (nonce TEXT PRIMARY KEY, used_ms INTEGER NOT NULL)
        """,
        // The customer the app named on each payment (appAccountToken), kept in the transaction.
        """
        ALTER TABLE transactions ADD COLUMN app_account_token TEXT;
        ALTER TABLE held_payments ADD COLUMN app_account_token TEXT
        """,
        // Family Sharing: who is in whose family, who stopped sharing, and each member's own FAMILY_SHARED
        // purchase with the purchaser's purchase it is derived from (ended when Apple revoked it).
        """
        ALTER TABLE transactions ADD COLUMN in_app_ownership_type TEXT;
        CREATE TABLE family_members (member_apple_id TEXT PRIMARY KEY, purchaser_apple_id TEXT NOT NULL);
        CREATE TABLE family_sharing_off (purchaser_apple_id TEXT PRIMARY KEY);
        CREATE TABLE family_shares (
            original_transaction_id TEXT PRIMARY KEY,
            member_apple_id TEXT NOT NULL,
            purchaser_original_id TEXT NOT NULL,
            ended_ms INTEGER
        );
        CREATE INDEX family_shares_by_purchase ON family_shares(purchaser_original_id)
        """,
        // The promotional offer or offer code a subscription's next periods are billed at (`intro_periods_left`).
        """
        ALTER TABLE subscriptions ADD COLUMN offer_id TEXT
        """,
        // Prices raised in App Store Connect (issue 15), so a reopened store renews at the price consented to.
        // IF NOT EXISTS: harmless if a merge puts another migration before it.
        """
        CREATE TABLE IF NOT EXISTS price_increases (
            product_id TEXT NOT NULL,
            storefront TEXT NOT NULL,
            old_price TEXT NOT NULL,
            new_price TEXT NOT NULL,
            PRIMARY KEY (product_id, storefront)
        )
        """,
        // An Apple ID's entitled subscriptions found without reading all it ever bought (issue 16).
        """
        CREATE INDEX IF NOT EXISTS subscriptions_by_status ON subscriptions(apple_id, status)
        """,
        // What each transaction charged (an offer's price, a raise's old price until consent): an upgrade refunds
        // the unused part of what was paid, not of the plan's price.
        """
        ALTER TABLE transactions ADD COLUMN price TEXT
        """,
        // A parent's Ask to Buy setting for each Apple ID: the family's, kept across runs (a reopened folder said "on"
        // of a child a parent had set "off", session 25).
        """
        CREATE TABLE IF NOT EXISTS ask_to_buy (apple_id TEXT PRIMARY KEY, enabled INTEGER NOT NULL)
        """,
        // Each consent given to a raised price, by subscription, storefront and plan: consent is one state per
        // subscription, and a request in another storefront overwrote one given here (long fuzz seed 967).
        """
        CREATE TABLE IF NOT EXISTS price_consents (original_transaction_id TEXT NOT NULL, storefront TEXT NOT NULL,
            product_id TEXT NOT NULL, price TEXT NOT NULL, PRIMARY KEY (original_transaction_id, storefront, product_id))
        """,
        // The currency of each transaction's price: a price is compared only with one in the same currency.
        """
        ALTER TABLE transactions ADD COLUMN currency TEXT
        """,
        // The promotional offer a held payment was confirmed with: charged at the offer's price when a parent approves
        // or the interruption is resolved, as after a restart (a held win-back payment was charged in full, session 26).
        """
        ALTER TABLE held_payments ADD COLUMN offer_id TEXT
        """,
        // When an Ask to Buy request lapsed, no parent having answered within 24 hours: kept, so a parent's late answer
        // is refused with the reason across runs too (approved 400 days later, it was charged, session 26).
        """
        ALTER TABLE held_payments ADD COLUMN lapsed_ms INTEGER
        """,
        // The anniversary each subscription's periods count from (`SubscriptionRecord.renewalAnchor`): counted from
        // the period before, a plan bought on the 31st renewed on the 30th or the 28th for good (session 28). A file
        // written before counts from its current period's start.
        """
        ALTER TABLE subscriptions ADD COLUMN anchor_ms INTEGER;
        UPDATE subscriptions SET anchor_ms = (SELECT purchase_ms FROM transactions
            WHERE transactions.transaction_id = subscriptions.latest_transaction_id)
        """,
        // Each Apple ID's billing issue (with the grace period it was set with) and storefront, as the control pane set
        // them: a reopened folder kept Ask to Buy but lost these, and charged a renewal the tester had set to fail
        // (session 28). A column left null (a folder written before) is the store's default.
        """
        CREATE TABLE IF NOT EXISTS apple_id_settings (apple_id TEXT PRIMARY KEY, billing_issue INTEGER,
            grace_period INTEGER, storefront TEXT)
        """,
        // Server notifications posted and not yet delivered, written with what they tell: Apple's servers do not stop
        // when `run` quits, and a REFUND on its way at a quit was never sent, the backend granting the refunded reader
        // premium until the period ended (session 29). The next launch delivers each (`resumeNotifications`).
        """
        CREATE TABLE IF NOT EXISTS notifications_on_their_way (id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL, original_transaction_id TEXT, signed_payload TEXT NOT NULL, due_ms INTEGER NOT NULL)
        """,
        // Each Ask to Buy request and interrupted purchase numbered by its kind's own serial (`ask-to-buy-1`, `-2`…):
        // numbered by their row, which payments confirmed on the sheet share, requests read 1, 3, 4, 7 (h1, session
        // 30). The serials start past every row the file ever numbered, so no handle a folder showed comes back; a
        // payment held before keeps its row's number. IF NOT EXISTS, OR IGNORE: harmless run again.
        """
        CREATE TABLE IF NOT EXISTS held_numbers (held_id INTEGER PRIMARY KEY, number INTEGER NOT NULL);
        INSERT OR IGNORE INTO held_numbers (held_id, number) SELECT id, id FROM held_payments WHERE kind != 'confirmed';
        INSERT OR IGNORE INTO serials (name, value)
            SELECT 'held ' || kind, (SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = 'held_payments')
            FROM (SELECT 'ask-to-buy' AS kind UNION ALL SELECT 'interrupted')
        """,
        // Apple retries a notification the server did not answer with a 2xx, 1, 12, 24, 48 and 72 hours after the
        // attempt before; a failed attempt's row keeps its next retry in `due_ms` and the attempts made, so a quit keeps
        // Apple's schedule (session 30: a REFUND the server missed was lost for the run).
        "ALTER TABLE notifications_on_their_way ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
        // A parent's decline no app of the asking phone heard, kept until that phone's next launch hears it
        // (`DeclinesUnheard`): held in memory only, a quit of the whole run lost it and the reader was never told
        // (session 40). IF NOT EXISTS: harmless run again.
        """
        CREATE TABLE IF NOT EXISTS declines_unheard (device_id TEXT NOT NULL, payment_number INTEGER NOT NULL,
            product_id TEXT NOT NULL, declined_ms INTEGER NOT NULL, PRIMARY KEY (device_id, payment_number))
        """,
    ]

    /// A payment the store holds, as kept on disk.
    struct HeldPayment {
        let id: Int64
        /// Its handle's number among its kind's (`ask-to-buy-N`); a confirmed payment's is its row's.
        let number: Int64
        let kind: String
        let appleId: String
        let deviceId: String
        let productId: String
        let paymentNumber: Int
        let requested: SimInstant
        var appAccountToken: String? = nil
        /// The promotional offer confirmed with it (`AppliedOffer.key`), if any.
        var offerId: String? = nil
        /// When the request lapsed with no parent's answer: nothing is held any more, it is kept to say so.
        var lapsed: SimInstant? = nil
    }

    /// Holds a payment: its row, and its number among its kind's (`numbered`: a request or an interrupted purchase,
    /// written in one commit with its row; a confirmed payment's number is its row's).
    func hold(
        kind: String, numbered: Bool, appleId: String, deviceId: String, productId: String, paymentNumber: Int,
        at time: SimInstant, appAccountToken: String? = nil, offerId: String? = nil
    ) throws(DatabaseError) -> (id: Int64, number: Int64) {
        let insert = { () throws(DatabaseError) -> Int64 in
            try self.database.run(
                """
                INSERT INTO held_payments (kind, apple_id, device_id, product_id, payment_number, requested_ms,
                    app_account_token, offer_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(kind), .text(appleId), .text(deviceId), .text(productId), .integer(Int64(paymentNumber)),
                    .integer(time.milliseconds), appAccountToken.map { .text($0) } ?? .null,
                    offerId.map { .text($0) } ?? .null,
                ])
            // The new row's id from the connection (`id` is the rowid): it asked `SELECT last_insert_rowid()`.
            return self.database.lastInsertRowid
        }
        guard numbered else {
            let id = try insert()
            return (id, id)
        }
        return try inOwnCommit { () throws(DatabaseError) in
            let rows = try database.query(
                """
                INSERT INTO serials (name, value) VALUES (?, 1)
                ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value
                """, [.text("held \(kind)")])
            guard let number = rows.first?.first?.int else {
                throw DatabaseError(code: 1, message: "no number for a held \(kind) payment")
            }
            let id = try insert()
            try database.run(
                "INSERT INTO held_numbers (held_id, number) VALUES (?, ?)", [.integer(id), .integer(number)])
            return (id, number)
        }
    }

    /// `body`'s writes in one commit: the open transaction's, or one of their own, rolled back if `body` fails.
    private func inOwnCommit<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        guard !database.inTransaction else { return try body() }
        try database.begin()
        do {
            let result = try body()
            try database.commit()
            return result
        } catch {
            if database.inTransaction {
                do {
                    try database.rollback()
                } catch let rollback {
                    throw DatabaseError(
                        code: error.code, message: "\(error.message); rolling back failed too: \(rollback.message)",
                        storage: error.storage ?? rollback.storage)
                }
            }
            throw error
        }
    }

    func release(_ id: Int64) throws(DatabaseError) {
        try database.run("DELETE FROM held_payments WHERE id = ?", [.integer(id)])
        try database.run("DELETE FROM held_numbers WHERE held_id = ?", [.integer(id)])
    }

    func lapse(_ id: Int64, at time: SimInstant) throws(DatabaseError) {
        try database.run(
            "UPDATE held_payments SET lapsed_ms = ? WHERE id = ?", [.integer(time.milliseconds), .integer(id)])
    }

    /// The latest instant the file records anything at: a charge, a share or a revocation of any Apple ID, a payment
    /// held (a confirmation on Apple's sheet, a request) or lapsed, a share ended, a decline kept. Nil for an empty file.
    func latestRecorded() throws(DatabaseError) -> SimInstant? {
        try database.largest(of: [
            ("transactions", "purchase_ms"), ("transactions", "revocation_ms"), ("held_payments", "requested_ms"),
            ("held_payments", "lapsed_ms"), ("family_shares", "ended_ms"), ("declines_unheard", "declined_ms"),
        ]).map { SimInstant(milliseconds: $0) }
    }

    func heldPayments() throws(DatabaseError) -> [HeldPayment] {
        try database.query(
            """
            SELECT id, kind, apple_id, device_id, product_id, payment_number, requested_ms, app_account_token, offer_id,
                lapsed_ms, COALESCE(number, id)
            FROM held_payments LEFT JOIN held_numbers ON held_id = id ORDER BY id
            """
        ).map { row in
            HeldPayment(
                id: row[0].int ?? 0, number: row[10].int ?? 0, kind: row[1].string ?? "", appleId: row[2].string ?? "",
                deviceId: row[3].string ?? "", productId: row[4].string ?? "", paymentNumber: Int(row[5].int ?? 0),
                requested: SimInstant(milliseconds: row[6].int ?? 0), appAccountToken: row[7].string,
                offerId: row[8].string, lapsed: row[9].int.map(SimInstant.init(milliseconds:)))
        }
    }

    init(path: String?) throws(DatabaseError) {
        database = try Database(path: path)
        try database.migrate(Self.migrations)
    }

    func insert(_ record: TransactionRecord) throws(DatabaseError) {
        try database.run(
            """
            INSERT INTO transactions (transaction_id, original_transaction_id, product_id, apple_id, device_id,
                purchase_ms, expires_ms, finished, revocation_ms, revocation_reason, transaction_reason, offer_type,
                is_upgraded, app_account_token, in_app_ownership_type, price, currency)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.transactionIdentifier), .text(record.originalTransactionIdentifier),
                .text(record.productIdentifier), .text(record.appleId), .text(record.deviceId),
                .integer(record.purchaseDate.milliseconds),
                record.expiresDate.map { .integer($0.milliseconds) } ?? .null,
                .integer(record.finished ? 1 : 0), record.revocationDate.map { .integer($0.milliseconds) } ?? .null,
                record.revocationReason.map { .integer(Int64($0)) } ?? .null,
                record.transactionReason.map { .text($0) } ?? .null,
                record.offerType.map { .integer(Int64($0)) } ?? .null, .integer(record.isUpgraded ? 1 : 0),
                record.appAccountToken.map { .text($0) } ?? .null,
                record.inAppOwnershipType.map { .text($0) } ?? .null, record.price.map { .text("\($0)") } ?? .null,
                record.currency.map { .text($0) } ?? .null,
            ])
        // SQLite gave the row the largest rowid plus one.
        highestRowid = highestRowid.map { $0 + 1 }
        appleIdsCharged?.insert(record.appleId)
        // The row is what was bound, column for column: kept as it is, not read back.
        appleIdChanged(record.appleId, at: byAppleId[record.appleId]?.keep(record, inserted: true))
        _ = byOriginal[record.originalTransactionIdentifier]?.keep(record, inserted: true)
        // A subscription's first transaction names itself: no other row can name it (identifiers are new), so
        // its list is this row alone, and the receipt check that follows a purchase reads nothing.
        if record.originalTransactionIdentifier == record.transactionIdentifier,
            byOriginal[record.transactionIdentifier] == nil
        {
            byOriginal[record.transactionIdentifier] = [record]
        }
    }

    func revoke(_ transactionIdentifier: String, at date: SimInstant, reason: Int) throws(DatabaseError) {
        try database.run(
            "UPDATE transactions SET revocation_ms = ?, revocation_reason = ? WHERE transaction_id = ?",
            [.integer(date.milliseconds), .integer(Int64(reason)), .text(transactionIdentifier)])
        kept(written: transactionIdentifier)
    }

    /// The transaction's expiry moved to `date`: Xcode's Expire Subscription ends its period now.
    func cutExpiry(_ transactionIdentifier: String, to date: SimInstant) throws(DatabaseError) {
        try database.run(
            "UPDATE transactions SET expires_ms = ? WHERE transaction_id = ?",
            [.integer(date.milliseconds), .text(transactionIdentifier)])
        kept(written: transactionIdentifier)
    }

    func markUpgraded(_ transactionIdentifier: String) throws(DatabaseError) {
        try database.run(
            "UPDATE transactions SET is_upgraded = 1 WHERE transaction_id = ?", [.text(transactionIdentifier)])
        kept(written: transactionIdentifier)
    }

    /// The last of `transactions(originalTransactionId:)`: from the kept list when it has been read, else
    /// one row through the index. A reopened reader's first verifyReceipt read a long subscription's every
    /// transaction (9,772 after `bench lifecycle`'s 20,000 steps) to keep the last.
    func latestTransaction(originalTransactionId: String) throws(DatabaseError) -> TransactionRecord? {
        if let cached = byOriginal[originalTransactionId] { return cached.last }
        return try database.query(
            """
            SELECT * FROM transactions WHERE original_transaction_id = ?
                ORDER BY purchase_ms DESC, transaction_id DESC LIMIT 1
            """,
            [.text(originalTransactionId)]
        ).first.map(Self.record)
    }

    /// The first of `transactions(originalTransactionId:)` (its purchase date is a signed transaction's
    /// `originalPurchaseDate`), read the same way.
    func firstTransaction(originalTransactionId: String) throws(DatabaseError) -> TransactionRecord? {
        if let cached = byOriginal[originalTransactionId] { return cached.first }
        return try database.query(
            "SELECT * FROM transactions WHERE original_transaction_id = ? ORDER BY purchase_ms, transaction_id LIMIT 1",
            [.text(originalTransactionId)]
        ).first.map(Self.record)
    }

    /// Whether a transaction of the subscription had an introductory offer (`offerType` 1). An offer is
    /// mostly on the first transactions, where the search stops; without one, every transaction is read
    /// into the kept list, as before, so the next check does not search again.
    func hadIntroductoryOffer(originalTransactionId: String) throws(DatabaseError) -> Bool {
        if let cached = byOriginal[originalTransactionId] { return cached.contains { $0.offerType == 1 } }
        let found = try database.query(
            "SELECT 1 FROM transactions WHERE original_transaction_id = ? AND offer_type = 1 LIMIT 1",
            [.text(originalTransactionId)])
        if !found.isEmpty { return true }
        return try transactions(originalTransactionId: originalTransactionId).contains { $0.offerType == 1 }
    }

    /// Every transaction of one subscription, renewals included, oldest first.
    func transactions(originalTransactionId: String) throws(DatabaseError) -> [TransactionRecord] {
        if let cached = byOriginal[originalTransactionId] { return cached }
        let records = try database.query(
            "SELECT * FROM transactions WHERE original_transaction_id = ? ORDER BY purchase_ms, transaction_id",
            [.text(originalTransactionId)]
        ).map(Self.record)
        byOriginal[originalTransactionId] = records
        return records
    }

    // MARK: - Subscriptions

    func save(_ subscription: SubscriptionRecord) throws(DatabaseError) {
        subscriptionsRead[subscription.originalTransactionId] = nil
        func optional(_ instant: SimInstant?) -> SQLValue { instant.map { .integer($0.milliseconds) } ?? .null }
        func optional(_ number: Int?) -> SQLValue { number.map { .integer(Int64($0)) } ?? .null }
        try database.run(
            """
            INSERT INTO subscriptions (original_transaction_id, apple_id, device_id, group_id, product_id,
                auto_renew_product_id, auto_renew, status, expires_ms, grace_expires_ms, retry_ends_ms,
                expiration_intent, price_increase_status, intro_periods_left, latest_transaction_id, offer_id,
                anchor_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(original_transaction_id) DO UPDATE SET apple_id = excluded.apple_id,
                device_id = excluded.device_id, group_id = excluded.group_id, product_id = excluded.product_id,
                auto_renew_product_id = excluded.auto_renew_product_id, auto_renew = excluded.auto_renew,
                status = excluded.status, expires_ms = excluded.expires_ms,
                grace_expires_ms = excluded.grace_expires_ms, retry_ends_ms = excluded.retry_ends_ms,
                expiration_intent = excluded.expiration_intent, price_increase_status = excluded.price_increase_status,
                intro_periods_left = excluded.intro_periods_left, latest_transaction_id = excluded.latest_transaction_id,
                offer_id = excluded.offer_id, anchor_ms = excluded.anchor_ms
            """,
            [
                .text(subscription.originalTransactionId), .text(subscription.appleId), .text(subscription.deviceId),
                .text(subscription.groupId), .text(subscription.productId), .text(subscription.autoRenewProductId),
                .integer(subscription.autoRenew ? 1 : 0), .integer(Int64(subscription.state.rawValue)),
                .integer(subscription.expiresDate.milliseconds), optional(subscription.gracePeriodExpiresDate),
                optional(subscription.billingRetryEndsDate), optional(subscription.expirationIntent),
                optional(subscription.priceIncreaseStatus), .integer(Int64(subscription.introPeriodsLeft)),
                .text(subscription.latestTransactionId), subscription.offerId.map { .text($0) } ?? .null,
                optional(subscription.renewalAnchor),
            ])
        // Updated in place (REPLACE deleted the row and inserted it again, index entries and all). The row is
        // what was bound (a failed write leaves nothing kept): the next renewal reads nothing.
        subscriptionsRead[subscription.originalTransactionId] = .some(subscription)
    }

    /// Each subscription as last read or saved (nil when there is none): a receipt check reads the renewal
    /// state of every subscription its receipt lists, and each renewal the subscription it renews.
    private var subscriptionsRead: [String: SubscriptionRecord?] = [:]

    func subscription(_ originalTransactionId: String) throws(DatabaseError) -> SubscriptionRecord? {
        if let read = subscriptionsRead[originalTransactionId] { return read }
        let subscription = try database.query(
            "SELECT * FROM subscriptions WHERE original_transaction_id = ?", [.text(originalTransactionId)]
        ).first.flatMap(Self.subscription)
        subscriptionsRead[originalTransactionId] = .some(subscription)
        return subscription
    }

    func subscriptions(appleId: String) throws(DatabaseError) -> [SubscriptionRecord] {
        try subscriptionsKept.answer(appleId, in: database) { () throws(DatabaseError) in
            try database.query(
                "SELECT * FROM subscriptions WHERE apple_id = ? ORDER BY original_transaction_id", [.text(appleId)]
            ).compactMap(Self.subscription)
        }
    }

    /// The Apple ID's subscriptions that are active or in grace, by original transaction id (by index).
    func entitledSubscriptions(appleId: String) throws(DatabaseError) -> [SubscriptionRecord] {
        try database.query(
            // `+status`: compared row by row, not looked up in a temporary table SQLite builds for every query.
            "SELECT * FROM subscriptions WHERE apple_id = ? AND +status IN (?, ?) ORDER BY original_transaction_id",
            [
                .text(appleId), .integer(Int64(SubscriptionState.active.rawValue)),
                .integer(Int64(SubscriptionState.gracePeriod.rawValue)),
            ]
        ).compactMap(Self.subscription)
    }

    func allSubscriptions() throws(DatabaseError) -> [SubscriptionRecord] {
        try database.query("SELECT * FROM subscriptions ORDER BY original_transaction_id").compactMap(
            Self.subscription)
    }

    private static func subscription(_ row: [SQLValue]) -> SubscriptionRecord? {
        guard let state = SubscriptionState(rawValue: Int(row[7].int ?? 0)) else { return nil }
        return SubscriptionRecord(
            originalTransactionId: row[0].string ?? "", appleId: row[1].string ?? "", deviceId: row[2].string ?? "",
            groupId: row[3].string ?? "", productId: row[4].string ?? "", autoRenewProductId: row[5].string ?? "",
            autoRenew: row[6].int == 1, state: state, expiresDate: SimInstant(milliseconds: row[8].int ?? 0),
            gracePeriodExpiresDate: row[9].int.map { SimInstant(milliseconds: $0) },
            billingRetryEndsDate: row[10].int.map { SimInstant(milliseconds: $0) },
            expirationIntent: row[11].int.map { Int($0) }, priceIncreaseStatus: row[12].int.map { Int($0) },
            introPeriodsLeft: Int(row[13].int ?? 0), latestTransactionId: row[14].string ?? "",
            offerId: row.count > 15 ? row[15].string : nil,
            renewalAnchor: row.count > 16 ? row[16].int.map { SimInstant(milliseconds: $0) } : nil)
    }

    /// `appleId`: whose the transaction is likely to be (the finishing phone's Apple ID). When its kept list
    /// holds the transaction, the copies are marked in place; otherwise the row's keys come back with the
    /// write (RETURNING, which costs as much as a statement of its own) and those lists are marked.
    func markFinished(_ transactionIdentifier: String, appleId: String? = nil) throws(DatabaseError) {
        if let appleId,
            let kept = byAppleId[appleId]?.last(where: { $0.transactionIdentifier == transactionIdentifier })
        {
            try database.run(
                "UPDATE transactions SET finished = 1 WHERE transaction_id = ?", [.text(transactionIdentifier)])
            byAppleId[appleId]?.markFinished(transactionIdentifier)
            byOriginal[kept.originalTransactionIdentifier]?.markFinished(transactionIdentifier)
            return
        }
        // Only `finished` changed: the kept copies are marked, not read back.
        let keys = try database.query(
            "UPDATE transactions SET finished = 1 WHERE transaction_id = ? RETURNING apple_id, original_transaction_id",
            [.text(transactionIdentifier)])
        for row in keys {
            if let appleId = row[0].string { byAppleId[appleId]?.markFinished(transactionIdentifier) }
            if let original = row[1].string { byOriginal[original]?.markFinished(transactionIdentifier) }
        }
    }

    func transactions(appleId: String) throws(DatabaseError) -> [TransactionRecord] {
        if let cached = byAppleId[appleId] { return cached }
        // An Apple ID the file never charged (a new phone's, at launch) has nothing to read.
        guard try chargedAppleIds().contains(appleId) else {
            byAppleId[appleId] = []
            return []
        }
        let records = try database.query(
            "SELECT * FROM transactions WHERE apple_id = ? ORDER BY purchase_ms, transaction_id", [.text(appleId)]
        ).map(Self.record)
        byAppleId[appleId] = records
        return records
    }

    /// Every Apple ID with a transaction, read once per open (the covering index) and then kept in step by
    /// `insert`, the one write that adds transactions (rows are never deleted, and keep their Apple ID).
    private var appleIdsCharged: Set<String>?

    private func chargedAppleIds() throws(DatabaseError) -> Set<String> {
        if let appleIdsCharged { return appleIdsCharged }
        let read = Set(try database.query("SELECT DISTINCT apple_id FROM transactions").compactMap { $0.first?.string })
        appleIdsCharged = read
        return read
    }

    func transaction(_ transactionIdentifier: String) throws(DatabaseError) -> TransactionRecord? {
        try database.query("SELECT * FROM transactions WHERE transaction_id = ?", [.text(transactionIdentifier)])
            .first.map(Self.record)
    }

    /// The number the next transaction takes: one past the highest so far. Rows are never deleted, so the
    /// largest rowid is the count: read once per open, then counted by `insert` (one process owns a folder).
    func nextTransactionNumber() throws(DatabaseError) -> Int64 {
        if let highestRowid { return highestRowid + 1 }
        let rows = try database.query("SELECT COALESCE(MAX(rowid), 0) FROM transactions")
        highestRowid = rows.first?.first?.int ?? 0
        return (highestRowid ?? 0) + 1
    }

    func save(_ increase: PriceIncrease) throws(DatabaseError) {
        try database.run(
            "INSERT OR REPLACE INTO price_increases (product_id, storefront, old_price, new_price) VALUES (?, ?, ?, ?)",
            [
                .text(increase.productIdentifier), .text(increase.storefront), .text("\(increase.oldPrice)"),
                .text("\(increase.newPrice)"),
            ])
    }

    func saveConsent(originalTransactionId: String, storefront: String, productId: String, price: Decimal)
        throws(DatabaseError)
    {
        try database.run(
            "INSERT OR REPLACE INTO price_consents (original_transaction_id, storefront, product_id, price) VALUES (?, ?, ?, ?)",
            [.text(originalTransactionId), .text(storefront), .text(productId), .text("\(price)")])
    }

    /// Every consent given, keyed `ORIGINAL|STOREFRONT|PRODUCT`.
    func consents() throws(DatabaseError) -> [String: Decimal] {
        var kept: [String: Decimal] = [:]
        for row in try database.query(
            "SELECT original_transaction_id, storefront, product_id, price FROM price_consents")
        {
            guard let price = row[3].string.flatMap(Catalog.decimal) else { continue }
            kept["\(row[0].string ?? "")|\(row[1].string ?? "")|\(row[2].string ?? "")"] = price
        }
        return kept
    }

    func saveAskToBuy(_ enabled: Bool, appleId: String) throws(DatabaseError) {
        try database.run(
            "INSERT OR REPLACE INTO ask_to_buy (apple_id, enabled) VALUES (?, ?)",
            [.text(appleId), .integer(enabled ? 1 : 0)])
    }

    func askToBuySettings() throws(DatabaseError) -> [String: Bool] {
        var settings: [String: Bool] = [:]
        for row in try database.query("SELECT apple_id, enabled FROM ask_to_buy") {
            if let appleId = row[0].string { settings[appleId] = row[1].int == 1 }
        }
        return settings
    }

    func saveBillingIssue(_ failing: Bool, gracePeriod: Bool, appleId: String) throws(DatabaseError) {
        try database.run(
            """
            INSERT INTO apple_id_settings (apple_id, billing_issue, grace_period) VALUES (?, ?, ?)
                ON CONFLICT (apple_id) DO UPDATE SET billing_issue = excluded.billing_issue,
                grace_period = excluded.grace_period
            """,
            [.text(appleId), .integer(failing ? 1 : 0), .integer(gracePeriod ? 1 : 0)])
    }

    func saveStorefront(_ countryCode: String, appleId: String) throws(DatabaseError) {
        try database.run(
            """
            INSERT INTO apple_id_settings (apple_id, storefront) VALUES (?, ?)
                ON CONFLICT (apple_id) DO UPDATE SET storefront = excluded.storefront
            """,
            [.text(appleId), .text(countryCode)])
    }

    /// Each Apple ID's kept settings (`apple_id_settings`), those never set nil.
    func appleIdSettings() throws(DatabaseError) -> [String: AppleIdSettings] {
        var settings: [String: AppleIdSettings] = [:]
        for row in try database.query("SELECT apple_id, billing_issue, grace_period, storefront FROM apple_id_settings")
        {
            guard let appleId = row[0].string else { continue }
            settings[appleId] = AppleIdSettings(
                billingIssue: row[1].int.map { $0 == 1 }, gracePeriod: row[2].int.map { $0 == 1 },
                storefront: row[3].string)
        }
        return settings
    }

    func priceIncreases() throws(DatabaseError) -> [PriceIncrease] {
        try database.query("SELECT product_id, storefront, old_price, new_price FROM price_increases").compactMap {
            row in
            guard let old = row[2].string.flatMap(Catalog.decimal), let new = row[3].string.flatMap(Catalog.decimal)
            else { return nil }
            return PriceIncrease(
                productIdentifier: row[0].string ?? "", storefront: row[1].string ?? "", oldPrice: old, newPrice: new)
        }
    }

    /// Spends a promotional-offer nonce; false when it was spent before (a replay).
    func spendOfferNonce(_ nonce: String, at time: SimInstant) throws(DatabaseError) -> Bool {
        guard try database.query("SELECT 1 FROM used_offer_nonces WHERE nonce = ?", [.text(nonce)]).isEmpty else {
            return false
        }
        try database.run(
            "INSERT INTO used_offer_nonces (nonce, used_ms) VALUES (?, ?)", [.text(nonce), .integer(time.milliseconds)])
        return true
    }

    /// Serials reserved on disk and not yet handed out, by name: the next one and the last reserved.
    private var reservedSerials: [String: (next: Int64, last: Int64)] = [:]
    /// How many serials one write reserves: the file holds the last reserved, so a reopened file (or one a
    /// killed process left) starts after the whole block and never hands one out twice.
    static let serialBlock: Int64 = 64

    /// The next value of the serial `name`: 1, 2, 3… in one process; never one handed out before on this
    /// file, reopened or not (a reopened file skips what the last process reserved and did not use).
    func nextSerial(_ name: String) throws(DatabaseError) -> Int64 {
        if let reserved = reservedSerials[name], reserved.next <= reserved.last {
            reservedSerials[name]?.next += 1
            return reserved.next
        }
        let rows = try database.query(
            """
            INSERT INTO serials (name, value) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET value = value + excluded.value RETURNING value
            """, [.text(name), .integer(Self.serialBlock)])
        guard let last = rows.first?.first?.int else { return 0 }
        let first = last - Self.serialBlock + 1
        reservedSerials[name] = (first + 1, last)
        return first
    }

    private static func record(_ row: [SQLValue]) -> TransactionRecord {
        TransactionRecord(
            transactionIdentifier: row[0].string ?? "", originalTransactionIdentifier: row[1].string ?? "",
            productIdentifier: row[2].string ?? "", appleId: row[3].string ?? "", deviceId: row[4].string ?? "",
            purchaseDate: SimInstant(milliseconds: row[5].int ?? 0),
            expiresDate: row[6].int.map { SimInstant(milliseconds: $0) }, finished: row[7].int == 1,
            revocationDate: row.count > 8 ? row[8].int.map { SimInstant(milliseconds: $0) } : nil,
            revocationReason: row.count > 9 ? row[9].int.map { Int($0) } : nil,
            transactionReason: row.count > 10 ? row[10].string : nil,
            offerType: row.count > 11 ? row[11].int.map { Int($0) } : nil,
            isUpgraded: row.count > 12 && row[12].int == 1,
            appAccountToken: row.count > 13 ? row[13].string : nil,
            inAppOwnershipType: row.count > 14 ? row[14].string : nil,
            price: row.count > 15 ? row[15].string.flatMap(Catalog.decimal) : nil,
            currency: row.count > 16 ? row[16].string : nil)
    }
}

extension [TransactionRecord] {
    /// The kept copy of `transactionIdentifier`, if this list holds it, marked finished (searched from the
    /// newest, where a purchase just delivered is).
    fileprivate mutating func markFinished(_ transactionIdentifier: String) {
        if let index = lastIndex(where: { $0.transactionIdentifier == transactionIdentifier }) {
            self[index].finished = true
        }
    }

    /// Replaces the record with `record`'s identifier (searched from the newest, where writes land: a
    /// refund, a finish), or inserts it where `ORDER BY purchase_ms, transaction_id` puts it. A row just
    /// `inserted` has a new key: nothing is searched. Answers where the record now is.
    fileprivate mutating func keep(_ record: TransactionRecord, inserted: Bool) -> Int {
        if !inserted, let index = lastIndex(where: { $0.transactionIdentifier == record.transactionIdentifier }) {
            self[index] = record
            return index
        }
        let key = (record.purchaseDate, record.transactionIdentifier)
        var index = endIndex
        while index > startIndex, (self[index - 1].purchaseDate, self[index - 1].transactionIdentifier) > key {
            index -= 1
        }
        insert(record, at: index)
        return index
    }
}
