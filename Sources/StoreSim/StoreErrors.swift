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
    /// commit lost are an error said on the timeline.
    func inOneCommit(_ what: @autoclosure () -> String, _ body: () -> Void) {
        if let error = ledger.inOneCommit(body) { failed(what(), error) }
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
