import Database
import Signing
import SimKernel
import StoreSim

/// The ledger's invariants, checked from the tables themselves: what `paywall-sim check --ledger` reports.
public enum LedgerCheck {
    /// The ledger's violations and, with the store's records beside it, where the two disagree. `keys`: the folder's,
    /// to find the customer an appAccountToken names as the server does (nobody without them can); without them, the
    /// tokens the ledger remembered.
    public static func violations(in ledger: BackendLedger, against store: StoreRecords?, keys: Keyring? = nil)
        throws(DatabaseError) -> [String]
    {
        try violations(in: ledger)
            + (store.map { store throws(DatabaseError) in
                try LedgerTruth.disagreements(ledger, store: store) { token throws(DatabaseError) in
                    guard let keys else { return try ledger.identityId(appAccountToken: token) }
                    return try ledger.identityIds().first { Backend.appAccountToken(for: $0, keys: keys) == token }
                }
            } ?? [])
    }

    /// Every violation found, in words; empty when the ledger holds.
    public static func violations(in ledger: BackendLedger) throws(DatabaseError) -> [String] {
        var scan = AuditScan()
        return try integrityViolations(in: ledger) + violations(in: ledger, continuing: &scan)
    }

    /// The same without SQLite's `integrity_check` (it reads every page) and `foreign_key_check` (every
    /// row's keys: with `foreign_keys` on, SQLite refuses a write that would leave a row pointing nowhere, so
    /// only a hand from outside makes one), reading only the audit rows after those `scan` read: the
    /// invariant monitor's check after every step. The whole check runs at the end.
    public static func violations(in ledger: BackendLedger, continuing scan: inout AuditScan) throws(DatabaseError)
        -> [String]
    {
        // Nothing written since the last check: its answer stands (it reads nothing but the tables and `scan`,
        // which an unchanged ledger leaves as it was). Most steps write nothing to the ledger.
        let stamp = try ledger.database.changeStamp()
        if let stamp, let last = scan.lastCheck, last.ledger === ledger, last.stamp == stamp { return last.found }
        let found = try uncachedViolations(in: ledger, continuing: &scan)
        scan.lastCheck = stamp.map { (ledger, $0, found) }
        return found
    }

    private static func uncachedViolations(in ledger: BackendLedger, continuing scan: inout AuditScan)
        throws(DatabaseError) -> [String]
    {
        var found: [String] = []
        let database = ledger.database
        // Read once for this check and the tampering check after it (each read them again).
        let rows = LedgerTruth.Rows(purchases: try ledger.allPurchases(), moves: try ledger.moves())
        let purchases = Dictionary(uniqueKeysWithValues: rows.purchases.map { ($0.originalTransactionId, $0) })
        let moves = Dictionary(grouping: rows.moves, by: \.originalTransactionId)
        for (id, history) in moves.sorted(by: { $0.key < $1.key }) {
            found += movesViolations(id, history, owner: purchases[id]?.ownerId)
            for move in history where move.via == .restore {
                guard let fromId = move.from else { continue }
                let from = try ledger.identity(fromId)
                let to = try ledger.identity(move.to)
                if from?.kind == .account && to?.kind == .anonymous {
                    found.append("purchase \(id) was restored from account \(move.from ?? "") to guest \(move.to)")
                }
            }
        }
        for row in try database.query(
            "SELECT i.id FROM identities i LEFT JOIN accounts a ON a.identity_id = i.id WHERE i.kind = 'account' AND a.identity_id IS NULL"
        ) {
            found.append("account identity \(row[0].string ?? "") has no account row")
        }
        for row in try database.query(
            "SELECT a.identity_id FROM accounts a JOIN identities i ON i.id = a.identity_id WHERE i.kind <> 'account'")
        {
            found.append("account row \(row[0].string ?? "") belongs to a non-account identity")
        }
        return found + (try LedgerTruth.tampering(in: ledger, continuing: &scan, read: rows))
    }

    /// SQLite's own checks of the file: page by page, and every foreign key.
    public static func integrityViolations(in ledger: BackendLedger) throws(DatabaseError) -> [String] {
        let integrity = try ledger.integrityCheck()
        var found = integrity == "ok" ? [] : ["SQLite integrity check: \(integrity)"]
        for row in try ledger.database.query("PRAGMA foreign_key_check") {
            found.append("a row of \(row[0].string ?? "?") points to a missing \(row[2].string ?? "?") row")
        }
        return found
    }

    private static func movesViolations(_ id: String, _ history: [OwnershipMove], owner: String?) -> [String] {
        var found: [String] = []
        for (index, move) in history.enumerated() {
            let windowStart = move.at.milliseconds - OwnershipRules.window.milliseconds
            let inWindow = history[...index].filter { $0.at.milliseconds > windowStart }.count
            if inWindow > OwnershipRules.moveLimit {
                found.append(
                    "purchase \(id) moved \(inWindow) times in the 30 days up to \(move.at) (at most \(OwnershipRules.moveLimit))"
                )
            }
            if index > 0 && move.from != history[index - 1].to {
                found.append(
                    "purchase \(id) moved from \(move.from ?? "nobody") but its owner was \(history[index - 1].to)")
            }
        }
        if let last = history.last, last.to != owner {
            found.append("purchase \(id) is owned by \(owner ?? "nobody") but its last move gave it to \(last.to)")
        }
        return found
    }
}
