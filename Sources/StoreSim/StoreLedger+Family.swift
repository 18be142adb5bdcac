import Database
import SimKernel

/// One family member's share of a purchaser's purchase: the member's own original transaction.
public struct FamilyShare: Equatable, Sendable {
    /// The member's FAMILY_SHARED original transaction id (never the purchaser's).
    public let originalTransactionId: String
    public let memberAppleId: String
    /// The purchaser's purchase the share is derived from.
    public let purchaserOriginalTransactionId: String
    /// When Apple revoked it (sharing stopped, the member left, the purchase was refunded); nil while it runs.
    public let ended: SimInstant?
}

/// Family Sharing's records in `appstore.sqlite`: members, who stopped sharing, and each member's share.
extension StoreLedger {
    func addFamilyMember(_ member: String, purchaser: String) throws(DatabaseError) {
        try database.run(
            "INSERT OR REPLACE INTO family_members (member_apple_id, purchaser_apple_id) VALUES (?, ?)",
            [.text(member), .text(purchaser)])
        knownFamilyAppleIds?.formUnion([purchaser, member])
    }

    /// Whether `appleId` may have a family, or a member's share of one of their purchases: false only when
    /// neither was ever written for them, so a purchase's notification skips the family's lookups (two statements).
    func mayHaveFamily(_ appleId: String) throws(DatabaseError) -> Bool {
        try familyAppleIds().contains(appleId)
    }

    /// Every Apple ID that is or was in a family (the organiser and each member: any of them shares their own
    /// purchases), or whose purchase was shared, read once per open and then kept in step by `addFamilyMember` (a
    /// share is only started within a family, and an original transaction's rows keep their Apple ID). Nothing
    /// is taken out: one whose family left is still asked, which costs the lookups and never skips a revocation.
    private func familyAppleIds() throws(DatabaseError) -> Set<String> {
        if let knownFamilyAppleIds { return knownFamilyAppleIds }
        let rows = try database.query(
            """
            SELECT purchaser_apple_id FROM family_members
            UNION SELECT member_apple_id FROM family_members
            UNION SELECT t.apple_id FROM family_shares s
                JOIN transactions t ON t.original_transaction_id = s.purchaser_original_id
            """)
        let read = Set(rows.compactMap { $0.first?.string })
        knownFamilyAppleIds = read
        return read
    }

    /// Everyone in `appleId`'s family but `appleId`: what they buy that the family may share is shared with these
    /// (a member's own purchase as the organiser's is; only the organiser's was, session 27). Empty without a family.
    func familyRecipients(of appleId: String) throws(DatabaseError) -> [String] {
        let organiser = try familyPurchaser(of: appleId) ?? appleId
        return ([organiser] + (try familyMembers(of: organiser))).filter { $0 != appleId }
    }

    func removeFamilyMember(_ member: String) throws(DatabaseError) {
        try database.run("DELETE FROM family_members WHERE member_apple_id = ?", [.text(member)])
    }

    func familyMembers(of purchaser: String) throws(DatabaseError) -> [String] {
        try familyMembersKept.answer(purchaser, in: database) { () throws(DatabaseError) in
            try database.query(
                "SELECT member_apple_id FROM family_members WHERE purchaser_apple_id = ? ORDER BY member_apple_id",
                [.text(purchaser)]
            ).compactMap { $0[0].string }
        }
    }

    /// The purchaser whose family `member` is in, if any.
    func familyPurchaser(of member: String) throws(DatabaseError) -> String? {
        try database.query(
            "SELECT purchaser_apple_id FROM family_members WHERE member_apple_id = ?", [.text(member)]
        ).first?.first?.string
    }

    func setFamilySharing(_ on: Bool, purchaser: String) throws(DatabaseError) {
        try database.run(
            on
                ? "DELETE FROM family_sharing_off WHERE purchaser_apple_id = ?"
                : "INSERT OR IGNORE INTO family_sharing_off (purchaser_apple_id) VALUES (?)", [.text(purchaser)])
    }

    func isFamilySharing(_ purchaser: String) throws(DatabaseError) -> Bool {
        try familySharingKept.answer(purchaser, in: database) { () throws(DatabaseError) in
            try database.query("SELECT 1 FROM family_sharing_off WHERE purchaser_apple_id = ?", [.text(purchaser)])
                .isEmpty
        }
    }

    func insert(_ share: FamilyShare) throws(DatabaseError) {
        try database.run(
            """
            INSERT INTO family_shares (original_transaction_id, member_apple_id, purchaser_original_id, ended_ms)
                VALUES (?, ?, ?, NULL)
            """,
            [
                .text(share.originalTransactionId), .text(share.memberAppleId),
                .text(share.purchaserOriginalTransactionId),
            ])
    }

    func endShare(_ originalTransactionId: String, at time: SimInstant) throws(DatabaseError) {
        try database.run(
            "UPDATE family_shares SET ended_ms = ? WHERE original_transaction_id = ?",
            [.integer(time.milliseconds), .text(originalTransactionId)])
    }

    /// Every member's share of the purchaser's purchase `original`, running or ended, oldest first.
    func familyShares(of original: String) throws(DatabaseError) -> [FamilyShare] {
        try database.query(
            "SELECT * FROM family_shares WHERE purchaser_original_id = ? ORDER BY rowid", [.text(original)]
        ).map(Self.share)
    }

    func familyShare(_ originalTransactionId: String) throws(DatabaseError) -> FamilyShare? {
        try database.query(
            "SELECT * FROM family_shares WHERE original_transaction_id = ?", [.text(originalTransactionId)]
        ).first.map(Self.share)
    }

    private static func share(_ row: [SQLValue]) -> FamilyShare {
        FamilyShare(
            originalTransactionId: row[0].string ?? "", memberAppleId: row[1].string ?? "",
            purchaserOriginalTransactionId: row[2].string ?? "", ended: row[3].int.map { SimInstant(milliseconds: $0) })
    }
}
