import Database
import StoreSim

/// What `check --ledger` finds beyond the tables' own rules: rows changed behind the server's back
/// (the audit's hash chain and the state each audit row recorded) and a ledger that disagrees with
/// the App Store's records.
enum LedgerTruth {
    /// Rows edited, deleted or revived: a broken hash chain, or a row that is not as its last audit left it.
    static func tampering(in ledger: BackendLedger) throws(DatabaseError) -> [String] {
        var scan = AuditScan()
        return try tampering(in: ledger, continuing: &scan)
    }

    /// The same, reading only the audit rows after those `scan` read (the invariant monitor's check after
    /// every step: the chain is read once, not once a step). A row edited before the scan's place is found
    /// by the whole check, which the fuzzer runs at the end of each session.
    /// `read`: the purchases and moves the caller has just read, so they are not read again.
    static func tampering(in ledger: BackendLedger, continuing scan: inout AuditScan, read: Rows? = nil)
        throws(DatabaseError) -> [String]
    {
        guard try ledger.schemaVersion() >= 4 else { return [] }
        for (seq, row, hash) in try ledger.auditRows(after: scan.lastSeq) { scan.read(seq, row, hash) }
        var found = scan.chainBreaks
        let lastState = scan.lastState
        let moves = scan.moves
        let refunded = scan.refunded
        if scan.lastSeq > 0, try ledger.auditSequence() > scan.lastSeq {
            found.append("audit rows after \(scan.lastSeq) were deleted")
        }
        let legacy = scan.legacy
        let tables: Rows
        if let read {
            tables = read
        } else {
            tables = Rows(purchases: try ledger.allPurchases(), moves: try ledger.moves())
        }
        // How many audited subjects have their row: each row's subject is its table's primary key, so fewer
        // than the audit's means some were deleted (found by name only then: this runs after every step).
        var audited = 0
        for purchase in tables.purchases {
            let subject = AuditChain.purchaseSubject(purchase.originalTransactionId)
            let last = lastState[subject]
            if last != nil { audited += 1 }
            found += compare(
                "purchase \(purchase.originalTransactionId)", now: purchase.auditState, audited: last, legacy: legacy)
            if !legacy && purchase.revoked != (refunded[subject] ?? false) {
                found.append(
                    "purchase \(purchase.originalTransactionId) is \(purchase.revoked ? "" : "not ")revoked, "
                        + "but its purchases.refund.changed events say otherwise")
            }
        }
        let tokens = try ledger.refreshTokenStates()
        for token in tokens {
            let last = lastState[token.subject]
            if last != nil { audited += 1 }
            if last?.hasSuffix("used=1") == true && token.state.hasSuffix("used=0") {
                found.append("refresh token \(token.subject.dropFirst(8).prefix(12))… was revived after its use")
            } else {
                found += compare(
                    "refresh token \(token.subject.dropFirst(8).prefix(12))…", now: token.state, audited: last,
                    legacy: legacy)
            }
        }
        if audited < lastState.count {
            let present = Set(
                tables.purchases.map { AuditChain.purchaseSubject($0.originalTransactionId) } + tokens.map(\.subject))
            for subject in lastState.keys.sorted() where !present.contains(subject) {
                found.append("\(subject.replacing(":", with: " ")) was deleted: the audit still has it")
            }
        }
        for (id, history) in Dictionary(grouping: tables.moves, by: \.originalTransactionId) {
            let rows = history.map { OwnershipMove.auditDetail(id, from: $0.from, to: $0.to, via: $0.via) }
            if rows != moves[AuditChain.purchaseSubject(id)] ?? [] && !legacy {
                found.append("purchase \(id)'s moves are not the ones the audit recorded")
            }
        }
        return found.sorted()
    }

    /// The ledger's purchases and ownership moves, as one check read them.
    struct Rows {
        let purchases: [PurchaseRecord]
        let moves: [OwnershipMove]
    }

    /// `name` is made only for a finding: this runs for every row after every step.
    private static func compare(_ name: @autoclosure () -> String, now: String, audited: String?, legacy: Bool)
        -> [String]
    {
        guard let audited else { return legacy ? [] : ["\(name()) has no audit row: written outside the server"] }
        return audited == now ? [] : ["\(name()) is not as its last audit row left it: \(now) (audited: \(audited))"]
    }

    /// Where the ledger gives more than Apple's records say: a revocation it lost, an expiry later than
    /// Apple's, a purchase Apple has no record of, a move by purchase to a customer no payment of it named. A ledger
    /// behind Apple (news still on its way) is not one: a purchase the App Store still has a notification on its way
    /// about, which the next run delivers (session 29). `customer`: the identity a token names (`Backend.customer`).
    static func disagreements(
        _ ledger: BackendLedger, store: StoreRecords, customer: (String) throws(DatabaseError) -> String?
    ) throws(DatabaseError) -> [String] {
        let apple = try store.latestTransactions()
        let newsOnItsWay = Set(try store.newsOnItsWay().compactMap(\.originalTransactionId))
        var found: [String] = []
        for purchase in try ledger.allPurchases() {
            let id = purchase.originalTransactionId
            guard let record = apple[id] else {
                found.append("purchase \(id) is not in the App Store's records")
                continue
            }
            guard !newsOnItsWay.contains(id) else { continue }
            if record.revocationDate != nil && !purchase.revoked {
                found.append("purchase \(id): Apple revoked it, the ledger does not")
            } else if record.revocationDate == nil && purchase.revoked {
                found.append("purchase \(id): the ledger revoked it, Apple did not")
            }
            if let ours = purchase.expires, let theirs = record.expiresDate, ours > theirs {
                found.append("purchase \(id): the ledger gives access until \(ours), Apple's records end at \(theirs)")
            }
        }
        return found + (try unpaidMoves(ledger, store: store, customer: customer))
    }

    /// A move "via purchase" goes to the customer a payment's appAccountToken names, a payment made before the move and
    /// after the one behind the purchase's move by purchase before it (the server follows only a payment newer than
    /// the owner's): one Apple's records do not back was written outside the server, whatever the audit chain says
    /// (the chain is keyless: a hand that forges a move can hash it again, session 30, h11).
    private static func unpaidMoves(
        _ ledger: BackendLedger, store: StoreRecords, customer: (String) throws(DatabaseError) -> String?
    ) throws(DatabaseError) -> [String] {
        let moves = try ledger.moves().filter { $0.via == .purchase }
        guard !moves.isEmpty else { return [] }
        let payments = try store.namedPayments()
        var named: [String: String?] = [:]
        var lastPayment: [String: Int64] = [:]
        var found: [String] = []
        for move in moves {
            let id = move.originalTransactionId
            var backed = false
            for payment in payments[id] ?? []
            where payment.purchaseMillis > lastPayment[id] ?? .min && payment.purchaseMillis <= move.at.milliseconds {
                if named[payment.token] == nil { named[payment.token] = try customer(payment.token) }
                if named[payment.token] == move.to {
                    lastPayment[id] = payment.purchaseMillis
                    backed = true
                    break
                }
            }
            if !backed {
                found.append(
                    "purchase \(move.originalTransactionId) moved to \(move.to) via purchase at \(move.at), but no "
                        + "payment of it in Apple's records since the one its last move by purchase followed names that "
                        + "customer")
            }
        }
        return found
    }
}

/// The audit chain as read so far, in order: a check carries on from the last row it read.
public struct AuditScan {
    var lastSeq: Int64 = 0
    var previous: [UInt8] = []
    var chained = false
    var chainBreaks: [String] = []
    var lastState: [String: String] = [:]
    var moves: [String: [String]] = [:]
    /// Whether each purchase's last `purchases.refund.changed` took access back.
    var refunded: [String: Bool] = [:]
    /// A ledger that began before the chain (version 2) has rows no audit row describes.
    var legacy = false
    /// The last check's answer, and the ledger's change stamp it was read at (`LedgerCheck`).
    var lastCheck: (ledger: BackendLedger, stamp: ChangeStamp, found: [String])?

    public init() {}

    mutating func read(_ seq: Int64, _ row: AuditChain.Row, _ hash: [UInt8]?) {
        lastSeq = seq
        guard let hash else {
            legacy = true
            if chained { chainBreaks.append("audit row \(seq) has no hash: written outside the server") }
            return
        }
        chained = true
        if hash != AuditChain.hash(previous: previous, row) {
            chainBreaks.append("audit row \(seq) does not follow the chain: it was edited, or a row before it deleted")
        }
        previous = hash
        if let subject = row.subject, let state = row.state { lastState[subject] = state }
        if row.action == "purchases.ownership.transferred", let subject = row.subject {
            moves[subject, default: []].append(row.detail)
        }
        if row.action == "purchases.refund.changed", let subject = row.subject, !row.detail.contains("stays") {
            refunded[subject] = row.detail.contains("access taken back")
        }
    }
}
