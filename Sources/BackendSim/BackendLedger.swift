import Database
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
    public let originalTransactionId: String
    public let productId: String
    public let ownerId: String
    /// The device whose receipt first reported it: restores may move it only from there.
    public let deviceId: String
    public let expires: SimInstant?
}

/// The ledger in `backend.sqlite` (or in memory): identities, purchases and their owners, and an
/// audit row for every change. Each logical change is one SQLite transaction.
public final class BackendLedger {
    let database: Database

    private static let migrations = [
        """
        CREATE TABLE identities (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('anonymous', 'account')),
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE purchases (
            original_transaction_id TEXT PRIMARY KEY,
            product_id TEXT NOT NULL,
            owner_id TEXT NOT NULL REFERENCES identities(id),
            device_id TEXT NOT NULL,
            expires_ms INTEGER,
            updated_ms INTEGER NOT NULL
        );
        CREATE INDEX purchases_by_owner ON purchases(owner_id);
        CREATE TABLE audit (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at_ms INTEGER NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL
        )
        """
    ]

    public init(path: String?) throws(DatabaseError) {
        database = try Database(path: path)
        try database.migrate(Self.migrations)
    }

    /// Runs `body` as one logical change: all of it lands, or none.
    func change<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    func createAnonymousIdentity(at time: SimInstant) throws(DatabaseError) -> IdentityRecord {
        let count =
            try database.query("SELECT COUNT(*) FROM identities WHERE kind = 'anonymous'").first?.first?.int ?? 0
        let identity = IdentityRecord(id: "anon-\(pad(count + 1))", kind: .anonymous)
        try database.run(
            "INSERT INTO identities (id, kind, created_ms) VALUES (?, ?, ?)",
            [.text(identity.id), .text(identity.kind.rawValue), .integer(time.milliseconds)])
        try audit(at: time, actor: identity.id, action: "identity.created", detail: "anonymous, from a receipt")
        return identity
    }

    public func identity(_ id: String) throws(DatabaseError) -> IdentityRecord? {
        try database.query("SELECT id, kind FROM identities WHERE id = ?", [.text(id)]).first.flatMap { row in
            guard let id = row[0].string, let kind = row[1].string.flatMap(IdentityRecord.Kind.init) else { return nil }
            return IdentityRecord(id: id, kind: kind)
        }
    }

    public func purchase(_ originalTransactionId: String) throws(DatabaseError) -> PurchaseRecord? {
        try database.query(
            "SELECT * FROM purchases WHERE original_transaction_id = ?", [.text(originalTransactionId)]
        ).first.map(Self.purchase)
    }

    public func purchases(ownedBy ownerId: String) throws(DatabaseError) -> [PurchaseRecord] {
        try database.query(
            "SELECT * FROM purchases WHERE owner_id = ? ORDER BY original_transaction_id", [.text(ownerId)]
        ).map(Self.purchase)
    }

    func insert(_ purchase: PurchaseRecord, at time: SimInstant) throws(DatabaseError) {
        try database.run(
            """
            INSERT INTO purchases (original_transaction_id, product_id, owner_id, device_id, expires_ms, updated_ms)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(purchase.originalTransactionId), .text(purchase.productId), .text(purchase.ownerId),
                .text(purchase.deviceId), purchase.expires.map { .integer($0.milliseconds) } ?? .null,
                .integer(time.milliseconds),
            ])
        try audit(
            at: time, actor: purchase.ownerId, action: "purchase.linked",
            detail: "\(purchase.originalTransactionId) \(purchase.productId)")
    }

    func updateExpiry(_ originalTransactionId: String, to expires: SimInstant?, at time: SimInstant)
        throws(DatabaseError)
    {
        try database.run(
            "UPDATE purchases SET expires_ms = ?, updated_ms = ? WHERE original_transaction_id = ?",
            [
                expires.map { .integer($0.milliseconds) } ?? .null, .integer(time.milliseconds),
                .text(originalTransactionId),
            ])
        try audit(
            at: time, actor: "app-store", action: "purchase.expiry",
            detail: "\(originalTransactionId) until \(expires.map(\.description) ?? "forever")")
    }

    func audit(at time: SimInstant, actor: String, action: String, detail: String) throws(DatabaseError) {
        try database.run(
            "INSERT INTO audit (at_ms, actor, action, detail) VALUES (?, ?, ?, ?)",
            [.integer(time.milliseconds), .text(actor), .text(action), .text(detail)])
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

    private static func purchase(_ row: [SQLValue]) -> PurchaseRecord {
        PurchaseRecord(
            originalTransactionId: row[0].string ?? "", productId: row[1].string ?? "", ownerId: row[2].string ?? "",
            deviceId: row[3].string ?? "", expires: row[4].int.map { SimInstant(milliseconds: $0) })
    }

    private func pad(_ number: Int64) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }
}
