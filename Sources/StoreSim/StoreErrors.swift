import Database

/// A ledger read or write that failed on a money or access path is an error said on the timeline, never a
/// default: no purchases would hide charged transactions from redelivery, and "eligible" would give a
/// free trial twice.
extension AppStore {
    func failed(_ what: String, _ error: any Error) {
        let line = "error: cannot \(what): \(error)"
        errors.append(line)
        log(line)
    }

    /// Runs `body`, the writes of one scheduler event, as one commit (`StoreLedger.inOneCommit`); writes the
    /// commit lost are an error said on the timeline. False when they were lost.
    @discardableResult
    func inOneCommit(_ what: @autoclosure () -> String, _ body: () -> Void) -> Bool {
        guard let error = committing(body) else { return true }
        failed(what(), error)
        return false
    }

    /// `body` as one commit; when the commit is lost (a full disk), what the body set in motion is taken back
    /// with its writes: an observer told "purchased" and a server notified of a transaction the file does not
    /// hold left a ledger purchase the store never had, and the folder was refused as "emptied or replaced" from
    /// then on (session 27). The payments held in memory are put back as the file still holds them.
    func committing(_ body: () -> Void) -> DatabaseError? {
        let mark = scheduler.nextEventID
        let held = (pendingPayments, lapsedRequests)
        guard let error = ledger.inOneCommit(body) else { return nil }
        scheduler.cancelAll(since: mark)
        (pendingPayments, lapsedRequests) = held
        return error
    }

    /// `work`'s value, or nil once its error is logged. `what` is worded only then: the checks after every
    /// fuzz step read the store many times, and each read built its sentence for nobody.
    func logged<T>(_ what: @autoclosure () -> String, _ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            failed(what(), error)
            return nil
        }
    }
}
