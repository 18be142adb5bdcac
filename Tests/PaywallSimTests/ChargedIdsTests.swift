import SimKernel
import Testing

@testable import Simulation
@testable import StoreSim

/// The monitor's set of charged transaction ids (`ChargedIds`) is kept with the list it was read from: a list of the
/// same length with other transactions, a copy of the kept one changed in place, or the same list after a charge
/// each gets its own ids, so a charge or a refund is never judged against the step before's.
@Suite struct ChargedIdsTests {
    private func record(_ id: String) -> TransactionRecord {
        TransactionRecord(
            transactionIdentifier: id, originalTransactionIdentifier: id, productIdentifier: "monthly",
            appleId: "a@icloud.test", deviceId: "phone", purchaseDate: SimInstant(milliseconds: 0), expiresDate: nil,
            finished: false)
    }

    @Test func idsFollowTheList() {
        var kept = ChargedIds()
        let first = [record("t1"), record("t2")]
        #expect(kept.ids(of: first) == ["t1", "t2"])
        #expect(kept.ids(of: first) == ["t1", "t2"])
        // Same length, other transactions.
        #expect(kept.ids(of: [record("t1"), record("t3")]) == ["t1", "t3"])
        // The kept list's copy changed in place: a change copies the storage.
        var changed = [record("t4"), record("t5")]
        #expect(kept.ids(of: changed) == ["t4", "t5"])
        changed[1] = record("t6")
        #expect(kept.ids(of: changed) == ["t4", "t6"])
        changed.append(record("t7"))
        #expect(kept.ids(of: changed) == ["t4", "t6", "t7"])
        #expect(kept.ids(of: []) == [])
    }
}
