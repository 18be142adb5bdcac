import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// `AppStore.chargedTransactions(of:)` keeps its last answer while the ledger's per-Apple-ID lists are unchanged
/// (`ChargedKept`): after every write of a seeded mix of purchases, renewals, finishes and refunds, the kept answer
/// is what the lists answer afresh, and a write that changes a list never leaves the old answer kept.
@Suite struct ChargedKeptTests {
    @Test func keptAnswerFollowsEveryWrite() throws {
        try withTemporaryStoreLedger("charged") { ledger, path in
            var random = SeededGenerator(seed: 34)
            var transactions: [String] = []
            let appleIds = ["a@icloud.test", "b@icloud.test"]
            func charged(_ asked: [String]) throws -> [TransactionRecord] {
                if let kept = ledger.keptCharged(asked) { return kept }
                let records = try asked.flatMap { try ledger.transactions(appleId: $0).filter { !$0.isFamilyShared } }
                ledger.keepCharged(records, of: asked)
                return records
            }
            for step in 0..<200 {
                let asked = random.next() % 4 == 0 ? [appleIds[1]] : appleIds
                let before = try charged(asked)
                let number = try ledger.nextTransactionNumber()
                let id = "t\(number)"
                switch random.next() % 4 {
                case 0, 1:
                    let record = TransactionRecord(
                        transactionIdentifier: id, originalTransactionIdentifier: transactions.first ?? id,
                        productIdentifier: "monthly", appleId: appleIds[Int(random.next() % 2)], deviceId: "phone",
                        purchaseDate: SimInstant(milliseconds: Int64(step)), expiresDate: nil, finished: false)
                    try ledger.insert(record)
                    transactions.append(id)
                case let kind where kind >= 2 && !transactions.isEmpty:
                    try ledger.finishOrRefundOne(
                        of: transactions, refund: kind == 3, appleIds: appleIds, at: step, &random)
                default:
                    break
                }
                // Asked now (the kept answer when it is still kept), then of a connection that reads the file afresh.
                let now = try charged(asked)
                let fresh = try StoreLedger(path: path)
                #expect(try now == asked.flatMap { try fresh.transactions(appleId: $0).filter { !$0.isFamilyShared } })
                if now != before { #expect(ledger.keptCharged(asked) == now) }
            }
        }
    }

    /// Through the store: a purchase, its finish, renewals and a refund each show in the next answer.
    @Test func storeAnswerFollowsPurchasesRenewalsAndRefunds() throws {
        let harness = try StoreHarness()
        let store = harness.store
        #expect(store.chargedTransactions(of: [harness.appleId]).isEmpty)
        harness.buy()
        #expect(store.chargedTransactions(of: [harness.appleId]) == store.transactions(appleId: harness.appleId))
        #expect(store.chargedTransactions(of: [harness.appleId]).count == 1)
        harness.advance(days: 65)
        let renewed = store.chargedTransactions(of: [harness.appleId])
        #expect(renewed.count > 1)
        #expect(renewed == store.transactions(appleId: harness.appleId))
        #expect(store.chargedTransactions(of: [harness.appleId, "other@icloud.test"]) == renewed)
        #expect(try store.refund(transactionId: renewed[0].transactionIdentifier))
        let refunded = store.chargedTransactions(of: [harness.appleId])
        #expect(refunded[0].revocationDate != nil)
        #expect(refunded == store.transactions(appleId: harness.appleId))
    }
}
