import Database
import SimKernel

/// A parent's "no" to a request no app of the asking phone observed (killed, or another phone on screen): its failure
/// waits in Apple's queue for that phone's next launch, in this run or a later one. Held in memory only, a quit of the
/// whole run lost it, and the reopened folder's launch told the reader nothing of the request it had said waits for a
/// parent (session 40). Kept in `appstore.sqlite` (`declines_unheard`) until the launch that hears it.
extension AppStore {
    /// Keeps the decline of `request` for its phone's next launch: in the open commit, with the release of its row.
    func keepUnheard(_ request: PendingPayment) {
        declinedUnheard[request.deviceId, default: [:]][request.paymentNumber] = request.product.productIdentifier
        _ = logged("keep the decline of \(request.identifier) for \(request.deviceId)'s next launch") {
            try ledger.keepDecline(
                deviceId: request.deviceId, paymentNumber: request.paymentNumber,
                productId: request.product.productIdentifier, at: scheduler.now)
        }
    }

    /// The declines kept by the last run (a reopened state folder), each for its phone's next launch.
    func resumeDeclinesUnheard() {
        guard let kept = logged("read the declines no app heard", { try ledger.declinesUnheard() }) else { return }
        for decline in kept {
            declinedUnheard[decline.deviceId, default: [:]][decline.paymentNumber] = decline.productId
        }
    }

    /// The declines `deviceId`'s launch hears now, by payment number, oldest first; no longer kept once taken.
    func takeDeclinesUnheard(_ deviceId: String) -> [(number: Int, productId: String)] {
        guard let declines = declinedUnheard.removeValue(forKey: deviceId) else { return [] }
        // A delete that fails is an error on the timeline, and the next run's launch tells the decline again, not never.
        _ = logged("forget the declines told to \(deviceId)") { try ledger.forgetDeclines(deviceId: deviceId) }
        return declines.sorted { $0.key < $1.key }.map { (number: $0.key, productId: $0.value) }
    }
}

extension StoreLedger {
    func keepDecline(deviceId: String, paymentNumber: Int, productId: String, at time: SimInstant)
        throws(DatabaseError)
    {
        try database.run(
            """
            INSERT OR REPLACE INTO declines_unheard (device_id, payment_number, product_id, declined_ms)
                VALUES (?, ?, ?, ?)
            """,
            [.text(deviceId), .integer(Int64(paymentNumber)), .text(productId), .integer(time.milliseconds)])
    }

    func declinesUnheard() throws(DatabaseError) -> [(deviceId: String, paymentNumber: Int, productId: String)] {
        try database.query(
            "SELECT device_id, payment_number, product_id FROM declines_unheard ORDER BY device_id, payment_number"
        ).map { row in
            (deviceId: row[0].string ?? "", paymentNumber: Int(row[1].int ?? 0), productId: row[2].string ?? "")
        }
    }

    func forgetDeclines(deviceId: String) throws(DatabaseError) {
        try database.run("DELETE FROM declines_unheard WHERE device_id = ?", [.text(deviceId)])
    }
}
