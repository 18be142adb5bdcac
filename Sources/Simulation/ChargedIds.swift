import StoreSim

/// The transaction ids of `World.chargedTransactions`, as a set: the monitor compares them before and after every step
/// and a check reads them after it, and most steps charge nothing. Kept with the list they were read from: the store
/// hands back the same list (`ChargedKept`) while nothing is charged, and a list held here is never changed in place
/// (a change copies it), so the same storage and count are the same transactions.
struct ChargedIds {
    private var kept: (list: [TransactionRecord], ids: Set<String>)?

    mutating func ids(of list: [TransactionRecord]) -> Set<String> {
        if let kept, kept.list.count == list.count, Self.sameStorage(kept.list, list) { return kept.ids }
        let ids = Set(list.map(\.transactionIdentifier))
        kept = (list, ids)
        return ids
    }

    private static func sameStorage(_ one: [TransactionRecord], _ other: [TransactionRecord]) -> Bool {
        one.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
