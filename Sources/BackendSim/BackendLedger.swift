import Database
import Signing
import SimKernel

/// A customer of the platform: an account, or an anonymous identity made from a receipt.
public struct IdentityRecord: Equatable, Sendable {
    public enum Kind: String, Sendable, Codable {
        case anonymous
        case account
    }
    public let id: String
    public let kind: Kind

    public init(id: String, kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// A purchase the platform knows, keyed by Apple's original transaction identifier.
public struct PurchaseRecord: Equatable, Sendable {
    public var originalTransactionId: String
    public var productId: String
    /// nil while Apple told the server of it but no customer has claimed it yet.
    public var ownerId: String?
    /// The device whose receipt first carried it.
    public var deviceId: String
    public var expires: SimInstant?
    public var revoked: Bool = false
    /// Apple could not renew it; access continues until `graceExpires`.
    public var billingIssue: Bool = false
    public var graceExpires: SimInstant?
    public var autoRenew: Bool = true
    /// Apple raised the price and waits for the subscriber's consent: without it, the subscription expires.
    public var priceConsentPending = false
    /// The product Apple renews it as when that is another of the group (a plan change kept for the next renewal).
    public var renewsAs: String?
    /// Apple's signing time of the state applied last: older news never overwrites newer.
    public var appleSignedMillis: Int64 = 0
    /// A family member's purchase shared with this Apple ID (FAMILY_SHARED): its own original transaction, never
    /// anything else. Read as false from a ledger written before the column.
    public var familyShared = false
    /// Its period now is a free trial, the plan's price charged at `expires` (no offer's period next): Apple's sheet
    /// says the trial ends then, not that it renews. Read as false from a ledger written before the column.
    public var inFreeTrial = false

    public init(
        originalTransactionId: String, productId: String, ownerId: String?, deviceId: String, expires: SimInstant?
    ) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.ownerId = ownerId
        self.deviceId = deviceId
        self.expires = expires
    }

    /// Whether it gives access at `now`: not revoked, and unexpired or within a billing grace period.
    public func isActive(at now: SimInstant) -> Bool {
        if revoked { return false }
        if let grace = graceExpires, billingIssue, grace > now { return true }
        return expires.map { $0 > now } ?? true
    }

    /// When the access it gives at `now` ends by itself: its grace period's end while in one, else its expiry.
    public func accessEnds(at now: SimInstant) -> SimInstant? {
        if let grace = graceExpires, billingIssue, grace > now { return max(grace, expires ?? grace) }
        return expires
    }
}

/// The ledger in `backend.sqlite` (or in memory): identities, accounts, purchases and their owners,
/// every ownership move, every notification, and an audit row for every change.
/// Each logical change is one SQLite transaction (`change`).
public final class BackendLedger {
    let database: Database
    /// `moves()` as last read, with the file's change stamp then.
    private var movesKept: (stamp: ChangeStamp, moves: [OwnershipMove])?
    /// Every purchase as last read in full, by its original transaction id, each one's `apple_checked_ms`, and the
    /// stamp then.
    private var purchasesKept: (stamp: ChangeStamp, all: [PurchaseRecord], byId: [String: Int], appleChecked: [Int64])?
    /// `identityId(email:)`'s answers by the email asked, nil ones too, while the file's change stamp stands.
    private var identityIdsKept: (stamp: ChangeStamp, byEmail: [String: String?])?
    /// `identity(_:)`'s answers by the identifier asked, nil ones too, while the file's change stamp stands.
    private var identitiesKept: (stamp: ChangeStamp, byId: [String: IdentityRecord?])?
    /// The purchase columns as this file has them (`purchaseColumns(schema:)`).
    private var purchaseColumns = BackendLedger.purchaseColumns(schema: LedgerSchema.migrations.count)
    /// `apple_checked_ms` where the file has it (schema 5), else its default.
    private var appleCheckedColumn = "apple_checked_ms"

    public init(path: String?) throws(DatabaseError) {
        database = try Database(path: path)
        try database.migrate(LedgerSchema.migrations)
        // SHA-256 of its arguments joined: the audit's insert chains from the last row's hash as the file
        // holds it, read in the same statement (`audit`).
        try database.defineFunction(Self.chainFunction, arity: 2) { arguments in
            ChainDigests.sha256((arguments[0] ?? []) + (arguments[1] ?? []))
        }
    }

    static let chainFunction = "pws_chain_sha256"

    /// Opens an existing ledger to read it, never to write: no migration runs and SQLite refuses any
    /// write. A file that is not a ledger (another database, not SQLite at all) is refused.
    public init(readingOnly path: String) throws(LedgerOpenError) {
        do {
            database = try Database(path: path, readOnly: true)
            let version = try database.schemaVersion()
            let tables = Set(
                try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
                    $0.first?.string
                })
            guard (2...LedgerSchema.migrations.count).contains(version), tables.isSuperset(of: Self.tables) else {
                throw LedgerOpenError(description: "not a ledger (schema version \(version))")
            }
            purchaseColumns = Self.purchaseColumns(schema: version)
            if version < 5 { appleCheckedColumn = "0" }
        } catch let error as LedgerOpenError {
            throw error
        } catch let error as DatabaseError where error.storage != nil {
            // A disk that cannot give the file (full, with a -wal to read beside it) says nothing of what it holds.
            throw LedgerOpenError(description: "cannot be read (\(error.storage!.reason))")
        } catch {
            throw LedgerOpenError(description: "not a ledger (\(error))")
        }
    }

    private static let tables: Set = [
        "identities", "accounts", "purchases", "ownership_moves", "notifications", "refresh_tokens", "audit",
    ]

    /// The schema version of the file (2 has no audit chain).
    public func schemaVersion() throws(DatabaseError) -> Int { try database.schemaVersion() }

    /// Runs `body` as one logical change: all of it lands, or none.
    func change<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    // MARK: - Identities and accounts

    /// `deviceId`: the phone the identity was created for, so that phone restoring again gets it back.
    func createAnonymousIdentity(at time: SimInstant, deviceId: String? = nil) throws(DatabaseError) -> IdentityRecord {
        let identity = try insertIdentity(.anonymous, prefix: "anon-", at: time, deviceId: deviceId)
        try audit(at: time, actor: identity.id, action: "identity.created", detail: "anonymous, from a receipt")
        return identity
    }

    func createAccount(email: String, password: PasswordHash, at time: SimInstant) throws(DatabaseError)
        -> IdentityRecord
    {
        let identity = try insertIdentity(.account, prefix: "acct-", at: time, deviceId: nil)
        try database.run(
            "INSERT INTO accounts (identity_id, email, salt, iterations, hash) VALUES (?, ?, ?, ?, ?)",
            [
                .text(identity.id), .text(email), .blob(password.salt), .integer(Int64(password.iterations)),
                .blob(password.hash),
            ])
        try audit(at: time, actor: identity.id, action: "account.created", detail: email)
        return identity
    }

    /// The account registered with `email`, and its password hash.
    func account(email: String) throws(DatabaseError) -> (IdentityRecord, PasswordHash)? {
        try database.query("SELECT identity_id, salt, iterations, hash FROM accounts WHERE email = ?", [.text(email)])
            .first.map { row in
                (
                    IdentityRecord(id: row[0].string ?? "", kind: .account),
                    PasswordHash(salt: row[1].bytes, iterations: Int(row[2].int ?? 0), hash: row[3].bytes)
                )
            }
    }

    /// The identity of the account registered with `email` (compared lower-cased, as sign-up stores it).
    /// Kept while the change stamp stands: several invariant checks ask it of the phone's account after every step, and
    /// only a commit (an account made, or any other) can change the answer. Inside a transaction it is read.
    public func identityId(email: String) throws(DatabaseError) -> String? {
        let stamp = try database.changeStamp()
        if let stamp, let kept = identityIdsKept, kept.stamp == stamp, let known = kept.byEmail[email] { return known }
        let id = try account(email: email.lowercased())?.0.id
        if let stamp {
            if identityIdsKept?.stamp != stamp { identityIdsKept = (stamp, [:]) }
            identityIdsKept?.byEmail[email] = .some(id)
        }
        return id
    }

    public func email(of identityId: String) throws(DatabaseError) -> String? {
        try database.query("SELECT email FROM accounts WHERE identity_id = ?", [.text(identityId)]).first?.first?.string
    }

    /// The device an anonymous identity was created for, if the ledger knows it.
    public func deviceOfAnonymousIdentity(_ id: String) throws(DatabaseError) -> String? {
        try database.query("SELECT device_id FROM identities WHERE id = ? AND kind = 'anonymous'", [.text(id)])
            .first?.first?.string
    }

    /// The identity `id`. Kept while the change stamp stands: every authenticated request and the invariant monitor's
    /// check of payments nobody holds ask it, often of the same identity between two commits, and only a commit can
    /// change the answer. Inside a transaction it is read.
    public func identity(_ id: String) throws(DatabaseError) -> IdentityRecord? {
        let stamp = try database.changeStamp()
        if let stamp, let kept = identitiesKept, kept.stamp == stamp, let known = kept.byId[id] { return known }
        let identity = try readIdentity(id)
        if let stamp {
            if identitiesKept?.stamp != stamp { identitiesKept = (stamp, [:]) }
            identitiesKept?.byId[id] = .some(identity)
        }
        return identity
    }

    private func readIdentity(_ id: String) throws(DatabaseError) -> IdentityRecord? {
        try database.query("SELECT id, kind FROM identities WHERE id = ?", [.text(id)]).first.flatMap { row in
            guard let id = row[0].string, let kind = row[1].string.flatMap(IdentityRecord.Kind.init) else { return nil }
            return IdentityRecord(id: id, kind: kind)
        }
    }

    /// A new identity, `prefix` and its number: identifiers count up, so the same inputs give the same
    /// identifiers. Rows are never deleted, so the largest rowid is the count, found in O(log n) (COUNT(*)
    /// would scan the table) by the insert itself, with the device (one statement where there were three).
    private func insertIdentity(
        _ kind: IdentityRecord.Kind, prefix: String, at time: SimInstant, deviceId: String?
    ) throws(DatabaseError) -> IdentityRecord {
        try database.run(
            """
            INSERT INTO identities (id, kind, created_ms, device_id)
                VALUES (? || printf('%06d', (SELECT COALESCE(MAX(rowid), 0) + 1 FROM identities)), ?, ?, ?)
            """,
            [.text(prefix), .text(kind.rawValue), .integer(time.milliseconds), .optionalText(deviceId)])
        // The new row took that same number as its rowid (one past the largest): its id is known without
        // RETURNING, which costs as much as a statement of its own. A scalar subquery in VALUES, not
        // `INSERT ... SELECT ... FROM identities`: reading the table it writes made SQLite copy the row through
        // a temporary b-tree of its own (`OpenEphemeral`), a tenth of a validated purchase on disk.
        let number = String(database.lastInsertRowid)
        return IdentityRecord(
            id: prefix + String(repeating: "0", count: max(0, 6 - number.count)) + number, kind: kind)
    }

    // MARK: - Refresh tokens

    /// `issuedFor`: the refresh token this one was traded for (nil for a log-in or a sign-up).
    func saveRefreshToken(
        hash: [UInt8], identityId: String, expires: SimInstant, at time: SimInstant, issuedFor: [UInt8]? = nil
    ) throws(DatabaseError) {
        try database.run(
            "INSERT INTO refresh_tokens (token_hash, identity_id, expires_ms, used, issued_for) VALUES (?, ?, ?, 0, ?)",
            [.blob(hash), .text(identityId), .integer(expires.milliseconds), issuedFor.map { .blob($0) } ?? .null])
        try audit(
            at: time, actor: identityId, action: "refresh_token.issued", detail: "until \(expires)",
            subject: AuditChain.refreshSubject(hash),
            state: AuditChain.refreshState(identityId: identityId, expires: expires.milliseconds, used: false))
    }

    /// Whether a refresh token would still be traded for a session (`consumeRefreshToken` would take it). Reads only.
    func refreshTokenUsable(hash: [UInt8], now: SimInstant) throws(DatabaseError) -> Bool {
        try tradable(hash, now: now) != nil
    }

    /// Whether the session `hash` was issued in (its log-in's token and every one traded from it, a refresh whose
    /// answer was lost traded again included) still has a token the server would trade, while `hash` itself is within
    /// its expiry: the server never ended that session, whatever became of this one token. Reads only.
    func sessionLives(hash: [UInt8], now: SimInstant) throws(DatabaseError) -> Bool {
        try !database.query(
            """
            WITH RECURSIVE up(token_hash, issued_for) AS (
                SELECT token_hash, issued_for FROM refresh_tokens WHERE token_hash = ?1 AND expires_ms > ?2
                UNION SELECT r.token_hash, r.issued_for FROM refresh_tokens r JOIN up ON r.token_hash = up.issued_for
            ), session(token_hash) AS (
                SELECT token_hash FROM up WHERE issued_for IS NULL
                UNION SELECT r.token_hash FROM refresh_tokens r JOIN session ON r.issued_for = session.token_hash
            )
            SELECT 1 FROM refresh_tokens r JOIN session ON r.token_hash = session.token_hash
            WHERE r.used = 0 AND r.expires_ms > ?2 LIMIT 1
            """, [.blob(hash), .integer(now.milliseconds)]
        ).isEmpty
    }

    /// Whether a refresh token was refused for its age alone: unused, and past its expiry. Reads only.
    func refreshTokenLapsed(hash: [UInt8], now: SimInstant) throws(DatabaseError) -> Bool {
        guard
            let row = try database.query(
                "SELECT expires_ms, used FROM refresh_tokens WHERE token_hash = ?", [.blob(hash)]
            ).first
        else { return false }
        return row[1].int == 0 && (row[0].int ?? 0) <= now.milliseconds
    }

    /// Marks a refresh token used and returns whose it was; nil when unknown, expired, or used and one issued for it
    /// traded since. A used one is traded again while every token issued for it is unused: the phone may never have had
    /// that answer (a timeout, a lost response), and a refresh token that works once would otherwise sign the reader out
    /// at the next refresh (session 23). Or the phone had it, and the trade again is an older request of the same token
    /// that arrived late (a quit app's, sent before its relaunch traded the token: long 2446): which of the two the phone
    /// holds, the server cannot tell, so a trade again spends neither, and the first token issued for it that is traded
    /// spends the others. `spendsIssuedOnRetrade`: the rule before, off only to plant 515's defect whole.
    func consumeRefreshToken(hash: [UInt8], now: SimInstant, spendsIssuedOnRetrade: Bool = false)
        throws(DatabaseError) -> String?
    {
        guard let trade = try tradable(hash, now: now) else { return nil }
        if trade.spent == hash {
            try spend(hash, owner: trade.owner, expires: trade.expires, now: now, detail: "")
            try spendSiblings(of: hash, owner: trade.owner, now: now)
        } else if spendsIssuedOnRetrade {
            try spend(
                trade.spent, owner: trade.owner, expires: trade.expires, now: now,
                detail: "issued for a token traded again: its answer was lost")
        }
        return trade.owner
    }

    private func spend(_ hash: [UInt8], owner: String, expires: Int64, now: SimInstant, detail: String)
        throws(DatabaseError)
    {
        try database.run("UPDATE refresh_tokens SET used = 1 WHERE token_hash = ?", [.blob(hash)])
        try audit(
            at: now, actor: owner, action: "refresh_token.used", detail: detail,
            subject: AuditChain.refreshSubject(hash),
            state: AuditChain.refreshState(identityId: owner, expires: expires, used: true))
    }

    /// The other unused tokens issued for the one `hash` was issued for: the phone traded this one, so it holds none
    /// of them (they answered a trade again whose answer it never kept).
    private func spendSiblings(of hash: [UInt8], owner: String, now: SimInstant) throws(DatabaseError) {
        let siblings = try database.query(
            """
            SELECT s.token_hash, s.expires_ms FROM refresh_tokens s JOIN refresh_tokens t ON s.issued_for = t.issued_for
            WHERE t.token_hash = ? AND s.token_hash != t.token_hash AND s.used = 0 ORDER BY s.rowid
            """, [.blob(hash)])
        for sibling in siblings {
            guard case .blob(let spent) = sibling[0] else { continue }
            try spend(
                spent, owner: owner, expires: sibling[1].int ?? 0, now: now,
                detail: "issued for the same token as one traded since")
        }
    }

    /// What trading `hash` would spend: itself when unused, else the token issued for it when that was never used.
    private func tradable(_ hash: [UInt8], now: SimInstant) throws(DatabaseError) -> (
        spent: [UInt8], owner: String, expires: Int64
    )? {
        guard
            let row = try database.query(
                "SELECT identity_id, expires_ms, used FROM refresh_tokens WHERE token_hash = ?", [.blob(hash)]
            ).first, let owner = row[0].string, (row[1].int ?? 0) > now.milliseconds
        else { return nil }
        if row[2].int == 0 { return (hash, owner, row[1].int ?? 0) }
        // The newest issued for it: once one of them is traded, every other is spent, so an unused newest says none was.
        guard
            let issued = try database.query(
                """
                SELECT token_hash, expires_ms, used FROM refresh_tokens WHERE issued_for = ? ORDER BY rowid DESC LIMIT 1
                """, [.blob(hash)]
            ).first, issued[2].int == 0, (issued[1].int ?? 0) > now.milliseconds, case .blob(let spent) = issued[0]
        else { return nil }
        return (spent, owner, issued[1].int ?? 0)
    }

    // MARK: - Purchases

    public func purchase(_ originalTransactionId: String) throws(DatabaseError) -> PurchaseRecord? {
        // The invariant monitor looks up each subscription's purchase after every step, after reading them all.
        if let kept = purchasesKept, let stamp = try database.changeStamp(), kept.stamp == stamp {
            return kept.byId[originalTransactionId].map { kept.all[$0] }
        }
        return try database.query(
            "SELECT \(purchaseColumns) FROM purchases WHERE original_transaction_id = ?",
            [.text(originalTransactionId)]
        ).first.map(Self.purchase)
    }

    /// From the purchases kept while the file's change stamp stands (the invariant checks after each step ask after
    /// the ledger check read them all, 1 % of a fuzz step in queries), else from the file.
    public func purchases(ownedBy ownerId: String) throws(DatabaseError) -> [PurchaseRecord] {
        if let kept = try keptPurchases() { return kept.all.filter { Self.owned($0, by: ownerId) } }
        return try database.query(
            "SELECT \(purchaseColumns) FROM purchases WHERE owner_id = ? ORDER BY original_transaction_id",
            [.text(ownerId)]
        ).map(Self.purchase)
    }

    /// The same, each with when the server last asked Apple about it (`appleCheckedMillis`), in one read.
    public func purchasesWithAppleCheck(ownedBy ownerId: String) throws(DatabaseError) -> [(
        purchase: PurchaseRecord, appleChecked: Int64
    )] {
        if let kept = try keptPurchases() {
            return kept.all.indices.filter { Self.owned(kept.all[$0], by: ownerId) }.map {
                (kept.all[$0], kept.appleChecked[$0])
            }
        }
        return try database.query(
            """
            SELECT \(purchaseColumns), apple_checked_ms FROM purchases WHERE owner_id = ?
                ORDER BY original_transaction_id
            """,
            [.text(ownerId)]
        ).map { (Self.purchase($0), $0[Self.purchaseColumnCount].int ?? 0) }
    }

    /// Kept while the file's change stamp stands, for `purchase(_:)` to answer from (a lookup never reads
    /// them all: a long history has many).
    public func allPurchases() throws(DatabaseError) -> [PurchaseRecord] {
        let stamp = try database.changeStamp()
        if let stamp, let kept = purchasesKept, kept.stamp == stamp { return kept.all }
        let rows = try database.query(
            "SELECT \(purchaseColumns), \(appleCheckedColumn) FROM purchases ORDER BY original_transaction_id")
        let all = rows.map(Self.purchase)
        purchasesKept = stamp.map { stamp in
            (
                stamp, all, Dictionary(all.enumerated().map { ($1.originalTransactionId, $0) }) { first, _ in first },
                rows.map { $0[Self.purchaseColumnCount].int ?? 0 }
            )
        }
        return all
    }

    /// The purchases as last read in full, while the file's change stamp stands (never inside a transaction).
    private func keptPurchases() throws(DatabaseError) -> (all: [PurchaseRecord], appleChecked: [Int64])? {
        guard let kept = purchasesKept, let stamp = try database.changeStamp(), kept.stamp == stamp else { return nil }
        return (kept.all, kept.appleChecked)
    }

    /// `owner_id = ?` as SQLite compares text: byte for byte (Swift's `==` takes canonically equal text as equal).
    private static func owned(_ purchase: PurchaseRecord, by ownerId: String) -> Bool {
        guard let owner = purchase.ownerId else { return false }
        return owner.utf8.elementsEqual(ownerId.utf8)
    }

    /// `ownerPurchaseMillis`: the purchase time of the new purchase that decided its owner (0: none).
    /// `askedApple`: the row is what the server read from Apple now (a verified receipt), not news it was sent.
    func insert(
        _ purchase: PurchaseRecord, at time: SimInstant, actor: String, ownerPurchaseMillis: Int64 = 0,
        askedApple: Bool = true
    ) throws(DatabaseError) {
        // Read from Apple now, the row is Apple's word as of now: a notification signed earlier and arriving
        // later (held back on its way) is older news, and must not write an older plan over it.
        var purchase = purchase
        if askedApple { purchase.appleSignedMillis = max(purchase.appleSignedMillis, time.milliseconds) }
        try database.run(
            """
            INSERT INTO purchases (original_transaction_id, product_id, owner_id, device_id, expires_ms, revoked,
                billing_issue, grace_expires_ms, auto_renew, apple_signed_ms, updated_ms, apple_checked_ms,
                owner_purchase_ms, price_consent_pending, renews_as, family_shared, in_free_trial)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(purchase.originalTransactionId), .text(purchase.productId), .optionalText(purchase.ownerId),
                .text(purchase.deviceId), .optionalInstant(purchase.expires), .bool(purchase.revoked),
                .bool(purchase.billingIssue), .optionalInstant(purchase.graceExpires), .bool(purchase.autoRenew),
                .integer(purchase.appleSignedMillis), .integer(time.milliseconds),
                // A notification is Apple's word as of its signing (`apple_signed_ms`), perhaps held back on its
                // way: only a read of Apple's records counts as asking.
                .integer(askedApple ? time.milliseconds : 0), .integer(ownerPurchaseMillis),
                .bool(purchase.priceConsentPending), .optionalText(purchase.renewsAs), .bool(purchase.familyShared),
                .bool(purchase.inFreeTrial),
            ])
        // The row as it stands now is what was just inserted: no read back.
        try audit(
            at: time, actor: actor, action: purchase.ownerId == nil ? "purchase.recorded" : "purchase.linked",
            detail:
                "\(purchase.originalTransactionId) \(purchase.productId)\(purchase.ownerId.map { " to \($0)" } ?? "")",
            subject: AuditChain.purchaseSubject(purchase.originalTransactionId), state: purchase.auditState)
        if purchase.revoked {
            try refundChanged(purchase.originalTransactionId, revoked: true, why: "known revoked", at: time)
        }
    }

    /// Gives a purchase nobody has claimed to its first owner.
    func claim(_ originalTransactionId: String, by ownerId: String, at time: SimInstant) throws(DatabaseError) {
        try database.run(
            "UPDATE purchases SET owner_id = ?, updated_ms = ? WHERE original_transaction_id = ? AND owner_id IS NULL",
            [.text(ownerId), .integer(time.milliseconds), .text(originalTransactionId)])
        try audit(
            at: time, actor: ownerId, action: "purchase.linked", detail: "\(originalTransactionId) claimed",
            purchase: originalTransactionId)
    }

    /// Writes the state Apple signed (expiry, revocation, billing, renewal) over what the ledger had.
    /// `known`: the row as read in this same transaction, when the caller has it (spares reading it twice).
    func applyAppleState(_ purchase: PurchaseRecord, at time: SimInstant, why: String, known: PurchaseRecord? = nil)
        throws(DatabaseError)
    {
        var before = known
        if known == nil { before = try self.purchase(purchase.originalTransactionId) }
        try database.run(
            """
            UPDATE purchases SET product_id = ?, expires_ms = ?, revoked = ?, billing_issue = ?, grace_expires_ms = ?,
                auto_renew = ?, apple_signed_ms = ?, updated_ms = ?, price_consent_pending = ?, renews_as = ?,
                in_free_trial = ?
            WHERE original_transaction_id = ?
            """,
            [
                .text(purchase.productId), .optionalInstant(purchase.expires), .bool(purchase.revoked),
                .bool(purchase.billingIssue), .optionalInstant(purchase.graceExpires), .bool(purchase.autoRenew),
                .integer(purchase.appleSignedMillis), .integer(time.milliseconds), .bool(purchase.priceConsentPending),
                .optionalText(purchase.renewsAs), .bool(purchase.inFreeTrial), .text(purchase.originalTransactionId),
            ])
        let detail = "\(purchase.originalTransactionId) \(why)"
        if let known {
            // The row now: Apple's columns as just written, the owner, device and ownership type as they were.
            var after = purchase
            after.ownerId = known.ownerId
            after.deviceId = known.deviceId
            after.familyShared = known.familyShared
            try audit(
                at: time, actor: "app-store", action: "purchase.state", detail: detail,
                subject: AuditChain.purchaseSubject(purchase.originalTransactionId), state: after.auditState)
        } else {
            try audit(
                at: time, actor: "app-store", action: "purchase.state", detail: detail,
                purchase: purchase.originalTransactionId)
        }
        if let before, before.revoked != purchase.revoked {
            try refundChanged(purchase.originalTransactionId, revoked: purchase.revoked, why: why, at: time)
        }
    }

    /// The event `purchases.refund.changed`: a purchase's access taken back (a refund, a revoked Family
    /// Sharing purchase) or given back (a refund reversed); `transactionId` names a refunded older period
    /// that leaves the current one as it was.
    func refundChanged(
        _ originalTransactionId: String, revoked: Bool, why: String, transactionId: String? = nil, at time: SimInstant
    ) throws(DatabaseError) {
        let what =
            transactionId.map { "transaction \($0) refunded, the current period stays" }
            ?? (revoked ? "access taken back" : "access given back")
        try audit(
            at: time, actor: "app-store", action: "purchases.refund.changed",
            detail: "\(originalTransactionId) \(what) (\(why))", purchase: originalTransactionId)
    }

    /// When the server last asked Apple about a purchase (0: never).
    public func appleCheckedMillis(_ originalTransactionId: String) throws(DatabaseError) -> Int64 {
        try millis(.appleChecked, of: originalTransactionId)
    }

    /// The purchases whose ownership type Apple has not been asked (held before schema 10 kept it), in id order.
    func ownershipUnasked() throws(DatabaseError) -> [String] {
        try database.query("SELECT original_transaction_id FROM ownership_unasked ORDER BY original_transaction_id")
            .compactMap { $0.first?.string }
    }

    /// Apple's word on a purchase's ownership type: a family member's share is marked so (Apple's FAMILY_SHARED never
    /// changes for an original transaction), with its audit row; either way it is off the list.
    func setOwnershipType(_ originalTransactionId: String, familyShared: Bool, at time: SimInstant)
        throws(DatabaseError)
    {
        try database.run(
            "DELETE FROM ownership_unasked WHERE original_transaction_id = ?", [.text(originalTransactionId)])
        guard familyShared else { return }
        try database.run(
            "UPDATE purchases SET family_shared = 1, updated_ms = ? WHERE original_transaction_id = ?",
            [.integer(time.milliseconds), .text(originalTransactionId)])
        try audit(
            at: time, actor: "app-store", action: "purchase.state",
            detail: "\(originalTransactionId) asked Apple: a family member's purchase shared with the Apple ID",
            purchase: originalTransactionId)
    }

    /// Notes that Apple was asked: bookkeeping, not a state change, so no audit row.
    func markAppleChecked(_ originalTransactionId: String, at time: SimInstant) throws(DatabaseError) {
        try setMillis(.appleChecked, of: originalTransactionId, to: time.milliseconds)
    }

    /// The purchase time of the new purchase that last decided who owns a purchase (0: none); read by invariant 9 too.
    public func ownerPurchaseMillis(_ originalTransactionId: String) throws(DatabaseError) -> Int64 {
        try millis(.ownerPurchase, of: originalTransactionId)
    }

    func setOwnerPurchaseMillis(_ originalTransactionId: String, _ millis: Int64) throws(DatabaseError) {
        try setMillis(.ownerPurchase, of: originalTransactionId, to: millis)
    }

    /// A purchase's bookkeeping instants, kept beside Apple's state and not audited.
    private enum MillisColumn: String {
        case appleChecked = "apple_checked_ms"
        case ownerPurchase = "owner_purchase_ms"
    }

    private func millis(_ column: MillisColumn, of originalTransactionId: String) throws(DatabaseError) -> Int64 {
        try database.query(
            "SELECT \(column.rawValue) FROM purchases WHERE original_transaction_id = ?", [.text(originalTransactionId)]
        ).first?.first?.int ?? 0
    }

    private func setMillis(_ column: MillisColumn, of originalTransactionId: String, to millis: Int64)
        throws(DatabaseError)
    {
        try database.run(
            "UPDATE purchases SET \(column.rawValue) = ? WHERE original_transaction_id = ?",
            [.integer(millis), .text(originalTransactionId)])
    }

    /// The identity an appAccountToken names, when it was found before.
    func identityId(appAccountToken token: String) throws(DatabaseError) -> String? {
        try database.query("SELECT identity_id FROM app_account_tokens WHERE token = ?", [.text(token)])
            .first?.first?.string
    }

    func remember(appAccountToken token: String, of identityId: String) throws(DatabaseError) {
        try database.run(
            "INSERT OR IGNORE INTO app_account_tokens (token, identity_id) VALUES (?, ?)",
            [.text(token), .text(identityId)])
    }

    /// Every identity id, for finding the one a new appAccountToken names.
    func identityIds() throws(DatabaseError) -> [String] {
        try database.query("SELECT id FROM identities ORDER BY rowid").compactMap { $0.first?.string }
    }

    // MARK: - Ownership moves

    /// Moves a purchase from its owner to another, recording the move.
    func move(
        _ originalTransactionId: String, from: String?, to: String, via: OwnershipMove.Via, at time: SimInstant
    ) throws(DatabaseError) {
        try database.run(
            "UPDATE purchases SET owner_id = ?, updated_ms = ? WHERE original_transaction_id = ?",
            [.text(to), .integer(time.milliseconds), .text(originalTransactionId)])
        try database.run(
            "INSERT INTO ownership_moves (original_transaction_id, from_id, to_id, via, at_ms) VALUES (?, ?, ?, ?, ?)",
            [
                .text(originalTransactionId), .optionalText(from), .text(to), .text(via.rawValue),
                .integer(time.milliseconds),
            ])
        try audit(
            at: time, actor: to, action: "purchases.ownership.transferred",
            detail: OwnershipMove.auditDetail(originalTransactionId, from: from, to: to, via: via),
            purchase: originalTransactionId)
    }

    /// How many times a purchase moved in the 30 days before `now`.
    func moveCount(_ originalTransactionId: String, within window: SimDuration, before now: SimInstant)
        throws(DatabaseError) -> Int
    {
        Int(
            try database.query(
                "SELECT COUNT(*) FROM ownership_moves WHERE original_transaction_id = ? AND at_ms > ?",
                [.text(originalTransactionId), .integer(now.milliseconds - window.milliseconds)]
            ).first?.first?.int ?? 0)
    }

    /// When each of the purchase's moves counted in `window` before `now` was made, oldest first (`moveCount`'s moves).
    func moveTimes(_ originalTransactionId: String, within window: SimDuration, before now: SimInstant)
        throws(DatabaseError) -> [SimInstant]
    {
        try database.query(
            "SELECT at_ms FROM ownership_moves WHERE original_transaction_id = ? AND at_ms > ? ORDER BY at_ms",
            [.text(originalTransactionId), .integer(now.milliseconds - window.milliseconds)]
        ).map { SimInstant(milliseconds: $0[0].int ?? 0) }
    }

    /// The purchases ever moved from the identity `from` to `to`, each once, in the order of their first such move.
    func purchasesMoved(from: String, to: String) throws(DatabaseError) -> [String] {
        try database.query(
            """
            SELECT original_transaction_id FROM ownership_moves WHERE from_id = ? AND to_id = ?
            GROUP BY original_transaction_id ORDER BY MIN(seq)
            """,
            [.text(from), .text(to)]
        ).compactMap { $0.first?.string }
    }

    /// When the purchase last got its owner: a move, a claim by its first customer, or its row made with one.
    public func ownedSince(_ originalTransactionId: String) throws(DatabaseError) -> SimInstant? {
        try database.query(
            """
            SELECT MAX(at_ms) FROM (
                SELECT at_ms FROM audit WHERE subject = ? AND action = 'purchase.linked'
                UNION ALL SELECT at_ms FROM ownership_moves WHERE original_transaction_id = ?)
            """,
            [.text(AuditChain.purchaseSubject(originalTransactionId)), .text(originalTransactionId)]
        ).first?.first?.int.map { SimInstant(milliseconds: $0) }
    }

    /// When the server last changed the purchase (claimed, moved, or given Apple's new state) before `instant`, from
    /// the audit trail; nil when it held no row of it then. An answer given earlier spoke of the purchase as it was.
    public func lastChanged(_ originalTransactionId: String, before instant: SimInstant) throws(DatabaseError)
        -> SimInstant?
    {
        try database.query(
            "SELECT MAX(at_ms) FROM audit WHERE subject = ? AND at_ms < ?",
            [.text(AuditChain.purchaseSubject(originalTransactionId)), .integer(instant.milliseconds)]
        ).first?.first?.int.map { SimInstant(milliseconds: $0) }
    }

    /// The latest audit row's place in the trail: what was written by then, whatever its instant.
    public func auditMark() throws(DatabaseError) -> Int64 {
        try database.query("SELECT COALESCE(MAX(seq), 0) FROM audit", []).first?.first?.int ?? 0
    }

    /// Whether the purchase's current owner took it (claimed, or moved to them) by the audit row `mark`.
    public func ownedBy(mark: Int64, _ originalTransactionId: String) throws(DatabaseError) -> Bool {
        let latest = try database.query(
            """
            SELECT MAX(seq) FROM audit WHERE subject = ?
                AND action IN ('purchase.linked', 'purchases.ownership.transferred')
            """,
            [.text(AuditChain.purchaseSubject(originalTransactionId))]
        ).first?.first?.int
        return latest.map { $0 <= mark } ?? false
    }

    /// The purchases whose row changed at or after `instant`: claimed by a customer, moved, or given Apple's
    /// new state (a resubscription, a refund), from the audit trail.
    public func purchasesChanged(since instant: SimInstant) throws(DatabaseError) -> Set<String> {
        let prefix = AuditChain.purchaseSubject("")
        return Set(
            try database.query(
                "SELECT subject FROM audit WHERE subject LIKE 'purchase:%' AND at_ms >= ?",
                [.integer(instant.milliseconds)]
            ).compactMap { row in row[0].string.map { String($0.dropFirst(prefix.count)) } })
    }

    public func moves() throws(DatabaseError) -> [OwnershipMove] {
        // The invariant monitor reads every move after every step; most steps move nothing.
        let stamp = try database.changeStamp()
        if let stamp, let kept = movesKept, kept.stamp == stamp { return kept.moves }
        let moves = try database.query(
            "SELECT original_transaction_id, from_id, to_id, via, at_ms FROM ownership_moves ORDER BY seq"
        ).map { row in
            OwnershipMove(
                originalTransactionId: row[0].string ?? "", from: row[1].string, to: row[2].string ?? "",
                via: OwnershipMove.Via(rawValue: row[3].string ?? "") ?? .restore,
                at: SimInstant(milliseconds: row[4].int ?? 0))
        }
        movesKept = stamp.map { ($0, moves) }
        return moves
    }

    // MARK: - Notifications

    /// Records a notification by its UUID with what became of it (`applied`, `stale`, `test`, `ignored`);
    /// false when it was seen before (a duplicate delivery).
    func recordNotification(_ payload: NotificationSummary, result: String, at time: SimInstant)
        throws(DatabaseError) -> Bool
    {
        // One statement: a UUID already there inserts nothing and changes no row.
        try database.runCountingChanges(
            """
            INSERT INTO notifications (uuid, original_transaction_id, type, subtype, signed_ms, received_ms, applied,
                result) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(uuid) DO NOTHING
            """,
            [
                .text(payload.uuid), .text(payload.originalTransactionId), .text(payload.type),
                .optionalText(payload.subtype), .integer(payload.signedMillis), .integer(time.milliseconds),
                .bool(result == "applied"), .text(result),
            ]) == 1
    }

    /// What became of the notification `uuid`; nil when it never arrived.
    public func notificationResult(_ uuid: String) throws(DatabaseError) -> String? {
        try database.query("SELECT result FROM notifications WHERE uuid = ?", [.text(uuid)]).first?.first?.string
    }

    // MARK: - Audit

    /// Appends an audit row to the hash chain; `subject` and `state` record a row as it stands after a change.
    func audit(
        at time: SimInstant, actor: String, action: String, detail: String, subject: String? = nil,
        state: String? = nil
    ) throws(DatabaseError) {
        let row = AuditChain.Row(
            atMillis: time.milliseconds, actor: actor, action: action, detail: detail, subject: subject, state: state)
        // `AuditChain.hash(previous:_:)`, with the previous row's hash read by the insert itself from the file
        // as it is (an edited ledger still chains from what it holds): one statement where there were two.
        try database.run(
            """
            INSERT INTO audit (at_ms, actor, action, detail, subject, state, hash) VALUES (?, ?, ?, ?, ?, ?,
                \(Self.chainFunction)((SELECT hash FROM audit ORDER BY seq DESC LIMIT 1), ?))
            """,
            [
                .integer(time.milliseconds), .text(actor), .text(action), .text(detail), .optionalText(subject),
                .optionalText(state), .blob(row.bytes),
            ])
    }

    /// An audit row about a purchase, with the purchase as it stands after the change.
    private func audit(
        at time: SimInstant, actor: String, action: String, detail: String, purchase id: String
    ) throws(DatabaseError) {
        let state = try purchase(id)?.auditState
        try audit(
            at: time, actor: actor, action: action, detail: detail, subject: AuditChain.purchaseSubject(id),
            state: state)
    }

    /// Every audit row, oldest first, with its hash (nil before the chain existed).
    func auditRows(after seq: Int64 = 0) throws(DatabaseError) -> [(
        seq: Int64, row: AuditChain.Row, hash: [UInt8]?
    )] {
        try database.query(
            "SELECT seq, at_ms, actor, action, detail, subject, state, hash FROM audit WHERE seq > ? ORDER BY seq",
            [.integer(seq)]
        )
        .map { row in
            let hash: [UInt8]? = row[7] == .null ? nil : row[7].bytes
            return (
                row[0].int ?? 0,
                AuditChain.Row(
                    atMillis: row[1].int ?? 0, actor: row[2].string ?? "", action: row[3].string ?? "",
                    detail: row[4].string ?? "", subject: row[5].string, state: row[6].string),
                hash
            )
        }
    }

    /// The highest audit number ever handed out (`sqlite_sequence`): above the last row when rows at the end
    /// were deleted.
    func auditSequence() throws(DatabaseError) -> Int64 {
        try database.query("SELECT seq FROM sqlite_sequence WHERE name = 'audit'").first?.first?.int ?? 0
    }

    /// Every refresh token as `(subject, state)`, for the check.
    func refreshTokenStates() throws(DatabaseError) -> [(subject: String, state: String)] {
        try database.query("SELECT token_hash, identity_id, expires_ms, used FROM refresh_tokens ORDER BY rowid").map {
            (
                AuditChain.refreshSubject($0[0].bytes),
                AuditChain.refreshState(identityId: $0[1].string ?? "", expires: $0[2].int ?? 0, used: $0[3].int == 1)
            )
        }
    }

    /// The time of the last thing the ledger logged: an audit row, and what is written without one (a notification
    /// taken, even a stale one; Apple's state applied or asked for): a run that died without saving its clock carried
    /// on from before the SUBSCRIBED notification its backend had taken (session 28). Nil when empty.
    public func latestChange() throws(DatabaseError) -> SimInstant? {
        try database.largest(of: [
            ("audit", "at_ms"), ("notifications", "received_ms"), ("purchases", "updated_ms"),
            ("purchases", "apple_checked_ms"), ("ownership_moves", "at_ms"),
        ]).map { SimInstant(milliseconds: $0) }
    }

    /// SQLite's own integrity check of the ledger file: "ok", or the problems it found.
    public func integrityCheck() throws(DatabaseError) -> String {
        try database.integrityCheck()
    }

    /// Every audit row, oldest first, as `time actor action detail`.
    public func auditTrail() throws(DatabaseError) -> [String] {
        try database.query("SELECT at_ms, actor, action, detail FROM audit ORDER BY seq").map { row in
            "\(SimInstant(milliseconds: row[0].int ?? 0)) \(row[1].string ?? "") \(row[2].string ?? "") \(row[3].string ?? "")"
        }
    }

    /// How many columns `purchaseColumns` names: a column selected after them is at this index.
    private static let purchaseColumnCount = 14

    /// The purchase columns of a file at `version`: one read as it is (`check --ledger` never migrates) may predate
    /// the newest, which then read as their defaults (a folder of session 22's schema 7 met "no such column").
    private static func purchaseColumns(schema version: Int) -> String {
        """
        original_transaction_id, product_id, owner_id, device_id, expires_ms, revoked, billing_issue,
        grace_expires_ms, auto_renew, apple_signed_ms, \(version >= 7 ? "price_consent_pending" : "0"),
        \(version >= 8 ? "renews_as" : "NULL"), \(version >= 10 ? "family_shared" : "0"),
        \(version >= 12 ? "in_free_trial" : "0")
        """
    }

    private static func purchase(_ row: [SQLValue]) -> PurchaseRecord {
        var purchase = PurchaseRecord(
            originalTransactionId: row[0].string ?? "", productId: row[1].string ?? "", ownerId: row[2].string,
            deviceId: row[3].string ?? "", expires: row[4].int.map { SimInstant(milliseconds: $0) })
        purchase.revoked = row[5].int == 1
        purchase.billingIssue = row[6].int == 1
        purchase.graceExpires = row[7].int.map { SimInstant(milliseconds: $0) }
        purchase.autoRenew = row[8].int != 0
        purchase.appleSignedMillis = row[9].int ?? 0
        purchase.priceConsentPending = row[10].int == 1
        purchase.renewsAs = row[11].string
        purchase.familyShared = row[12].int == 1
        purchase.inFreeTrial = row[13].int == 1
        return purchase
    }
}

/// Why a file could not be opened as a ledger to read.
public struct LedgerOpenError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// One recorded change of a purchase's owner.
public struct OwnershipMove: Equatable, Sendable {
    public enum Via: String, Sendable {
        case purchase
        case restore
        case transfer
    }

    public let originalTransactionId: String
    public let from: String?
    public let to: String
    public let via: Via
    public let at: SimInstant

    /// The audit row's detail of a move: the check reads the chain of owners back from it.
    static func auditDetail(_ id: String, from: String?, to: String, via: Via) -> String {
        "\(id) from \(from ?? "nobody") to \(to) via \(via.rawValue)"
    }
}

/// What the ledger keeps of a notification to recognise it again.
struct NotificationSummary {
    let uuid: String
    let originalTransactionId: String
    let type: String
    let subtype: String?
    let signedMillis: Int64
}

extension SQLValue {
    static func optionalText(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
    static func optionalInstant(_ instant: SimInstant?) -> SQLValue {
        instant.map { .integer($0.milliseconds) } ?? .null
    }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    var bytes: [UInt8] { if case .blob(let bytes) = self { bytes } else { [] } }
}
