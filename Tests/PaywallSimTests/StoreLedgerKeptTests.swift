import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// What `StoreLedger` keeps instead of reading again (a subscription as saved, a new subscription's list of
/// transactions, a finished transaction marked in place) is what a fresh read of the file answers, after
/// every write of a long seeded mix of purchases, renewals, finishes, refunds and saves; and the one-row
/// reads a reopened file answers with (latest, first, an introductory offer) agree with those lists.
@Suite struct StoreLedgerKeptTests {
    @Test func keptRecordsEqualFreshReadsAfterEveryWrite() throws {
        try withTemporaryStoreLedger("kept") { ledger, path in
            var random = SeededGenerator(seed: 16)
            var originals: [String] = []
            var transactions: [String] = []
            let appleIds = ["a@icloud.test", "b@icloud.test", "c@icloud.test"]
            for step in 0..<300 {
                let appleId = appleIds[Int(random.next() % 3)]
                let number = try ledger.nextTransactionNumber()
                let id = "t\(number)"
                switch random.next() % 5 {
                case 0, 1:
                    // A new subscription or a renewal of one: its first transaction names itself.
                    let original =
                        originals.isEmpty || random.next() % 3 == 0
                        ? id : originals[Int(random.next() % UInt64(originals.count))]
                    let record = TransactionRecord(
                        transactionIdentifier: id, originalTransactionIdentifier: original,
                        productIdentifier: "monthly",
                        appleId: appleId, deviceId: "phone", purchaseDate: SimInstant(milliseconds: Int64(step / 3)),
                        expiresDate: nil, finished: false, offerType: random.next() % 4 == 0 ? 1 : nil)
                    try ledger.insert(record)
                    if original == id { originals.append(id) }
                    transactions.append(id)
                case let kind where (kind == 2 || kind == 3) && !transactions.isEmpty:
                    // A finish named with an Apple ID (the phone's, sometimes not the transaction's) or without.
                    try ledger.finishOrRefundOne(
                        of: transactions, refund: kind == 3, appleIds: appleIds, at: step, &random)
                case 4 where !originals.isEmpty:
                    let original = originals[Int(random.next() % UInt64(originals.count))]
                    try ledger.save(
                        SubscriptionRecord(
                            originalTransactionId: original, appleId: appleId, deviceId: "phone", groupId: "group",
                            productId: "monthly", autoRenewProductId: random.next() % 2 == 0 ? "monthly" : "yearly",
                            autoRenew: random.next() % 2 == 0, state: random.next() % 2 == 0 ? .active : .gracePeriod,
                            expiresDate: SimInstant(milliseconds: Int64(step)),
                            gracePeriodExpiresDate: random.next() % 2 == 0 ? nil : SimInstant(milliseconds: 9),
                            billingRetryEndsDate: nil, expirationIntent: random.next() % 2 == 0 ? nil : 2,
                            priceIncreaseStatus: nil, introPeriodsLeft: Int(random.next() % 3),
                            latestTransactionId: transactions.last ?? original,
                            offerId: random.next() % 2 == 0 ? nil : "offer"))
                default:
                    break
                }
                // Asked now through the kept lists, then of a connection that reads the file afresh: its latest,
                // first and introductory-offer answers first, from the file itself, before it keeps the list.
                let fresh = try StoreLedger(path: path)
                for appleId in appleIds {
                    #expect(try ledger.transactions(appleId: appleId) == fresh.transactions(appleId: appleId))
                }
                for original in originals {
                    let kept = try ledger.transactions(originalTransactionId: original)
                    #expect(try fresh.latestTransaction(originalTransactionId: original) == kept.last)
                    #expect(try fresh.firstTransaction(originalTransactionId: original) == kept.first)
                    #expect(
                        try fresh.hadIntroductoryOffer(originalTransactionId: original)
                            == kept.contains { $0.offerType == 1 })
                    #expect(try ledger.latestTransaction(originalTransactionId: original) == kept.last)
                    #expect(
                        try ledger.transactions(originalTransactionId: original)
                            == fresh.transactions(originalTransactionId: original))
                    #expect(try ledger.subscription(original) == fresh.subscription(original))
                }
            }
        }
    }
}
