import Database
import SimKernel

/// A server notification posted and not yet delivered. On a state folder it is kept in `appstore.sqlite` (`row`) from
/// the commit that posts it until the server has it: Apple's servers do not stop when `run` quits, so news on its way
/// at a quit or a kill reaches the server in the next run (a REFUND was lost at a quit, session 29). In memory nothing
/// is kept: no later run opens the file.
struct NotificationOnItsWay {
    let signed: String
    /// The purchase it is about (its original transaction id), if any.
    let original: String?
    /// Its row in `notifications_on_their_way`, nil when not kept.
    let row: Int64?
    /// The attempts made to deliver it that the server did not answer with a 2xx (`NotificationRetry`).
    var attempts = 0
    /// Its place among this run's posts (`AppStore.latestPost`); 0 for news from the last run.
    var serial = 0
}

extension StoreLedger {
    /// A notification kept until it is delivered, as read back in a later run.
    struct KeptNotification {
        let id: Int64
        let name: String
        let originalTransactionId: String?
        let signed: String
        let due: SimInstant
        /// The attempts the server did not answer with a 2xx: `due` is then Apple's next retry.
        let attempts: Int
    }

    /// Whether notifications on their way are kept: only a file a later run opens again.
    var keepsNotifications: Bool { database.path != nil }

    /// Keeps a notification until `delivered(_:)`, in the commit of the event that posts it when one is open.
    func keepOnItsWay(
        name: String, originalTransactionId: String?, signed: String, due: SimInstant, attempts: Int = 0
    ) throws(DatabaseError) -> Int64 {
        try database.run(
            """
            INSERT INTO notifications_on_their_way (name, original_transaction_id, signed_payload, due_ms, attempts)
                VALUES (?, ?, ?, ?, ?)
            """,
            [
                .text(name), originalTransactionId.map { .text($0) } ?? .null, .text(signed),
                .integer(due.milliseconds), .integer(Int64(attempts)),
            ])
        return database.lastInsertRowid
    }

    /// An attempt the server did not answer with a 2xx: kept with Apple's next retry, so a quit keeps the schedule.
    func retryLater(_ id: Int64, due: SimInstant, attempts: Int) throws(DatabaseError) {
        try database.run(
            "UPDATE notifications_on_their_way SET due_ms = ?, attempts = ? WHERE id = ?",
            [.integer(due.milliseconds), .integer(Int64(attempts)), .integer(id)])
    }

    func delivered(_ id: Int64) throws(DatabaseError) {
        try database.run("DELETE FROM notifications_on_their_way WHERE id = ?", [.integer(id)])
    }

    /// The notifications an earlier run posted and did not deliver, in the order they were posted.
    func notificationsOnTheirWay() throws(DatabaseError) -> [KeptNotification] {
        try database.query(
            """
            SELECT id, name, original_transaction_id, signed_payload, due_ms, attempts
                FROM notifications_on_their_way ORDER BY id
            """
        ).map { row in
            KeptNotification(
                id: row[0].int ?? 0, name: row[1].string ?? "", originalTransactionId: row[2].string,
                signed: row[3].string ?? "", due: SimInstant(milliseconds: row[4].int ?? 0),
                attempts: Int(row[5].int ?? 0))
        }
    }
}

extension AppStore {
    /// `signed`, kept in the store's records until it is delivered (when they are a file and the server reads news).
    /// `attempts`: those already failed (1 for news a fault drops on its first attempt, kept with its first retry).
    func onItsWay(_ signed: String, name: String, about original: String?, due: SimInstant, attempts: Int = 0)
        -> NotificationOnItsWay
    {
        postsMade += 1
        if let original { latestPost[original] = postsMade }
        guard notificationEndpoint != nil, ledger.keepsNotifications else {
            return NotificationOnItsWay(
                signed: signed, original: original, row: nil, attempts: attempts, serial: postsMade)
        }
        let row = logged("keep the notification \(name) until it is delivered") {
            try ledger.keepOnItsWay(
                name: name, originalTransactionId: original, signed: signed, due: due, attempts: attempts)
        }
        return NotificationOnItsWay(signed: signed, original: original, row: row, attempts: attempts, serial: postsMade)
    }

    /// Delivers the notifications an earlier run posted and did not deliver before it stopped (a quit, a kill), each
    /// when it was due (its next retry, for one the server did not answer) or at once when that has passed. The server
    /// takes each once: one it took before a kill left its row is a duplicate by its UUID.
    public func resumeNotifications() {
        guard notificationEndpoint != nil,
            let kept = logged("read the notifications on their way", { try ledger.notificationsOnTheirWay() })
        else { return }
        for news in kept {
            deliverNotification(
                NotificationOnItsWay(
                    signed: news.signed, original: news.originalTransactionId, row: news.id, attempts: news.attempts),
                name: "\(news.name) (from the last run)",
                after: max(news.due - scheduler.now, .zero))
        }
    }
}
