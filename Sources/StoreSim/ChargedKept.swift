/// What the invariant monitor reads before and after every step: every transaction charged to the world's Apple
/// IDs (`AppStore.chargedTransactions(of:)`). Most steps charge nothing, so the last answer is kept with the
/// version of the per-Apple-ID lists it was built from (`StoreLedger.byAppleId`, whose every change moves the
/// version): an insert, a finish, a refund, a list dropped or read again, and the answer is built anew.
struct ChargedKept {
    let version: UInt64
    let appleIds: [String]
    let records: [TransactionRecord]
}

extension StoreLedger {
    /// The answer kept for `appleIds`, while the lists it was built from are unchanged; nil otherwise.
    func keptCharged(_ appleIds: [String]) -> [TransactionRecord]? {
        guard let chargedKept, chargedKept.version == appleIdListsVersion, chargedKept.appleIds == appleIds else {
            return nil
        }
        return chargedKept.records
    }

    /// Keeps `records`, built now from the kept lists of `appleIds`.
    func keepCharged(_ records: [TransactionRecord], of appleIds: [String]) {
        chargedKept = ChargedKept(version: appleIdListsVersion, appleIds: appleIds, records: records)
    }
}
