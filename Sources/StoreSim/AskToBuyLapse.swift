import SimKernel

/// An Ask to Buy request no parent answers lapses: Apple gives the parent 24 hours, then deletes the request, and the
/// child must ask again (Apple's developer forums, thread 706277; a duplicate request only resets the 24 hours). A
/// parent's approval 400 days later was charged (session 26).
///
/// What the app hears of it: nothing. Apple's Ask to Buy notes for StoreKit 1, as developers quote them, say the
/// request "is deleted from iTunes Store servers and your app's observer does not receive any notifications", and
/// StoreKit 2's pending purchase never produces a transaction either. The app learns it only as the queue stops listing the request
/// (`PaymentQueue.productsAwaitingApproval`), so it stops refusing a new purchase of its group. A `failed` would have
/// been a second, invented "not charged" for a payment the reader was told waits.
extension AppStore {
    /// How long a parent has to answer, on the simulator's clock.
    public static let askToBuyLapse = SimDuration.hours(24)

    /// Lapses `request` when its 24 hours are over, if it still waits then: a background event, as a renewal is, so a
    /// world run until idle never jumps a day ahead to lapse it. Past due already (a reopened folder), it lapses now.
    func scheduleLapse(of request: PendingPayment) {
        let due = request.requestDate + Self.askToBuyLapse
        let heldId = request.heldId
        guard due > scheduler.now else { return lapse(heldId, at: due) }
        scheduler.schedule(after: due - scheduler.now, background: true) { [weak self] in
            self?.lapse(heldId, at: due)
        }
    }

    /// The request held as `heldId` lapsed at `time`: no longer held, kept on disk as lapsed so a late answer is refused
    /// with the reason, across runs too. Nothing is charged and nothing is delivered to the phone.
    private func lapse(_ heldId: Int64, at time: SimInstant) {
        guard let index = pendingPayments.firstIndex(where: { $0.heldId == heldId && $0.kind == .askToBuy }) else {
            return
        }
        var request = pendingPayments.remove(at: index)
        request.lapsedAt = time
        lapsedRequests.append(request)
        _ = logged("keep the lapse of \(request.identifier)") { try ledger.lapse(heldId, at: time) }
        log(
            "ask to buy request \(request.identifier) lapsed at \(time): no parent answered within 24 hours; "
                + "\(request.product.productIdentifier) not charged for \(request.appleId), who must ask again")
    }

    /// Why a parent's answer to `identifier` (nil: to the Apple ID's latest request) cannot be given any more: the
    /// request lapsed. Nil when it did not.
    public func lapseNote(_ identifier: String?, appleId: String) -> String? {
        let lapsed = lapsedRequests.filter { $0.appleId == appleId }
        guard let request = identifier.map({ id in lapsed.first { $0.identifier == id } }) ?? lapsed.last,
            let at = request.lapsedAt
        else { return nil }
        return
            "\(request.identifier) (\(request.product.productIdentifier)) lapsed at \(at), no parent having answered "
            + "within 24 hours: it can no longer be approved or declined; the child must ask again"
    }
}
