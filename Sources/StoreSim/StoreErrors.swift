import Database

/// A ledger read or write that failed on a money or access path is an error said on the timeline, never a
/// default: no purchases would hide charged transactions from redelivery, and "eligible" would give a
/// free trial twice.
extension AppStore {
    func failed(_ what: String, _ error: any Error) {
        let line = "error: cannot \(what): \(error)"
        errors.append(line)
        log(line)
        if storageFailure == nil, let storage = (error as? DatabaseError)?.storage { storageFailure = storage }
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
    /// The lines the body logged are taken back too: a renewal the file never held was on the timeline (h3 03).
    func committing(_ body: () -> Void) -> DatabaseError? {
        let mark = scheduler.nextEventID
        let said = timeline.mark
        let held = (pendingPayments, lapsedRequests, declinedUnheard)
        let refusedBefore = storageFailure
        let lost = ledger.inOneCommit {
            body()
            return storageFailure != refusedBefore ? storageFailure : nil
        }
        guard let error = lost else { return nil }
        scheduler.cancelAll(since: mark)
        timeline.withdraw(since: said)
        (pendingPayments, lapsedRequests, declinedUnheard) = held
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
