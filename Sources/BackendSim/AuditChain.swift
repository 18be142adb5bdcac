import Signing
import SimKernel

/// The audit's hash chain: each row carries SHA-256 of the previous row's hash and its own content, so
/// a row edited, deleted from the middle or slipped in breaks every hash after it (`LedgerCheck`).
/// Rows written before the chain existed (ledger version 2) carry no hash and start no chain.
enum AuditChain {
    /// One audit row's content, each field length-prefixed so no two rows encode alike.
    struct Row: Equatable {
        var atMillis: Int64
        var actor: String
        var action: String
        var detail: String
        /// What the row is about (`purchase:ID`, `refresh:HASH`), when it records a row's new state.
        var subject: String?
        /// That row as it stood after the change (`PurchaseRecord.auditState`…).
        var state: String?

        var bytes: [UInt8] {
            var out: [UInt8] = []
            append(to: &out)
            return out
        }

        /// `LENGTH:FIELD` joined by `|`, written straight into `out` (no String per field, no join).
        func append(to out: inout [UInt8]) {
            let fields = [String(atMillis), actor, action, detail, subject ?? "-", state ?? "-"]
            out.reserveCapacity(out.count + fields.reduce(30) { $0 + $1.utf8.count })
            for (index, field) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "|")) }
                out.append(contentsOf: String(field.utf8.count).utf8)
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: field.utf8)
            }
        }
    }

    static func hash(previous: [UInt8], _ row: Row) -> [UInt8] {
        var message = previous
        row.append(to: &message)
        return ChainDigests.sha256(message)
    }

    static func purchaseSubject(_ originalTransactionId: String) -> String { "purchase:\(originalTransactionId)" }

    static func refreshSubject(_ tokenHash: [UInt8]) -> String {
        "refresh:" + Hex.encode(tokenHash)
    }

    static func refreshState(identityId: String, expires: Int64, used: Bool) -> String {
        "owner=\(identityId) expires=\(expires) used=\(used ? 1 : 0)"
    }
}

extension PurchaseRecord {
    /// Every column the server decides, as one line: the audit keeps it after each change, and
    /// `check --ledger` compares it with the row as it is now.
    var auditState: String {
        [
            "product=\(productId)", "owner=\(ownerId ?? "-")", "device=\(deviceId)",
            "expires=\(expires.map { String($0.milliseconds) } ?? "-")", "revoked=\(revoked ? 1 : 0)",
            "billing=\(billingIssue ? 1 : 0)", "grace=\(graceExpires.map { String($0.milliseconds) } ?? "-")",
            "autoRenew=\(autoRenew ? 1 : 0)", "appleSigned=\(appleSignedMillis)",
        ].joined(separator: " ")
            // Written only when set: rows audited before the column existed read the same as they did.
            + (priceConsentPending ? " priceConsent=pending" : "") + (renewsAs.map { " renewsAs=\($0)" } ?? "")
            + (familyShared ? " familyShared=1" : "") + (inFreeTrial ? " freeTrial=1" : "")
    }
}
