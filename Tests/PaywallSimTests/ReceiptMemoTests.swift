import Foundation
import Signing
import SimKernel
import Testing

@testable import StoreSim

/// A receipt is assembled from entries the store keeps encoded, and a receipt it just issued is not
/// decoded again: what a reader's app and the backend see must be what encoding the whole payload gives.
@Suite struct ReceiptMemoTests {
    private func purchase(_ id: String, cancelled: Int64? = nil) -> ReceiptPayload.InAppPurchase {
        ReceiptPayload.InAppPurchase(
            transactionId: id, originalTransactionId: id < "2000000000000003" ? "2000000000000001" : "2000000000000003",
            productId: "com.dailynews.premium.monthly",
            purchaseDate: 1_700_000_000_000, expiresDate: 1_702_592_000_000, cancellationDate: cancelled,
            isInIntroOfferPeriod: id.hasSuffix("1") ? true : nil, appAccountToken: "a/b \"c\"",
            inAppOwnershipType: id.hasSuffix("3") ? "FAMILY_SHARED" : nil)
    }

    private func payload(_ inApp: [ReceiptPayload.InAppPurchase]) -> ReceiptPayload {
        ReceiptPayload(
            bundleId: "com.paywallsim.dailynews", environment: .sandbox, deviceVerification: "dv/+",
            deviceVerificationNonce: "nonce", creationDate: 1_700_000_000_000, inApp: inApp)
    }

    /// The payload as the store writes it: `inApp` first (as `JSONEncoder` writes the list), then the other
    /// keys as it writes them, sorted; it reads back as the payload.
    private func listFirst(_ payload: ReceiptPayload) throws -> [UInt8] {
        let encoder = ReceiptCodec.canonicalJSON
        let keys = Array(try encoder.encode(self.payload([])).dropFirst().dropLast(#","inApp":[]}"#.utf8.count))
        let bytes =
            Array(#"{"inApp":"#.utf8) + Array(try encoder.encode(payload.inApp)) + [UInt8(ascii: ",")] + keys + [
                UInt8(ascii: "}")
            ]
        #expect(try JSONDecoder().decode(ReceiptPayload.self, from: Data(bytes)) == payload)
        return bytes
    }

    @Test func anAssembledPayloadIsByteForByteTheWholeEncoding() throws {
        let memo = ReceiptMemo()
        let four = (1...4).map { purchase("200000000000000\($0)") }
        var refunded = four
        refunded[1] = purchase("2000000000000002", cancelled: 1_701_000_000_000)
        let lists = [[], [four[0]], four, refunded, Array(four.prefix(2)), [four[3]], four, []]
        for inApp in lists {
            let whole = try listFirst(payload(inApp))
            #expect(try memo.json(of: payload(inApp)) == whole)
            let receipt = try memo.issue(payload(inApp)) { String(decoding: $0, as: UTF8.self) }
            #expect(receipt == String(decoding: whole, as: UTF8.self))
            #expect(memo.opened(receipt)?.originals == ReceiptMemo.originals(of: payload(inApp)))
        }
    }

    /// The store's path: only the entries after those its ledger says are unchanged are made and compared.
    /// Whatever the edits (appended, refunded in the middle, removed, another Apple ID between), the
    /// receipt is the whole payload's encoding, and the latest receipt opens to its payload.
    @Test func aReceiptBuiltFromTheChangedEntriesIsTheWholeEncoding() throws {
        let memo = ReceiptMemo()
        var generator = SeededGenerator(seed: 16)
        var lists: [String: [ReceiptPayload.InAppPurchase]] = ["a": [], "b": []]
        var unchanged: [String: Int] = [:]
        for round in 0..<300 {
            let appleId = generator.next() % 4 == 0 ? "b" : "a"
            var list = lists[appleId]!
            var lowest = list.count
            switch generator.next() % 6 {
            case 0, 1, 2: list.append(purchase("20000000000\(10_000 + round)"))
            case 3 where !list.isEmpty:
                let index = Int(generator.next() % UInt64(list.count))
                list[index].cancellationDate = 1_701_000_000_000 + Int64(round)
                lowest = index
            case 4 where !list.isEmpty:
                list.removeLast()
                lowest = list.count
            default: break
            }
            lists[appleId] = list
            unchanged[appleId] = min(unchanged[appleId] ?? 0, lowest)
            let whole = payload(list)
            let receipt = try memo.issue(
                shell: payload([]), appleId: appleId, purchases: list, unchanged: unchanged[appleId]!,
                makeEntry: { $0 }, sealing: { String(decoding: $0, as: UTF8.self) })
            unchanged[appleId] = list.count
            #expect(receipt == String(decoding: try listFirst(whole), as: UTF8.self))
            #expect(memo.opened(receipt)?.payload == whole)
            #expect(memo.opened(receipt)?.originals == ReceiptMemo.originals(of: whole))
        }
    }

    /// A receipt is recognised from its bytes only when they are exactly those of one the store issued.
    @Test func anIssuedReceiptIsRecognisedByItsBytesAlone() throws {
        let memo = ReceiptMemo()
        let receipt = try memo.issue(payload([purchase("2000000000000001")])) { String(decoding: $0, as: UTF8.self) }
        let bytes = Array(receipt.utf8)
        #expect(bytes.withUnsafeBytes { memo.issued(matching: $0) } == receipt)
        var changed = bytes
        changed[changed.count / 2] ^= 1
        #expect(changed.withUnsafeBytes { memo.issued(matching: $0) } == nil)
        #expect(bytes.dropLast().withUnsafeBytes { memo.issued(matching: $0) } == nil)
    }

    @Test func aChangedTransactionIsEncodedAgain() throws {
        let memo = ReceiptMemo()
        _ = try memo.json(of: payload([purchase("2000000000000002")]))
        let refunded = payload([purchase("2000000000000002", cancelled: 1_701_000_000_000)])
        let json = try memo.json(of: refunded)
        #expect(json == (try listFirst(refunded)))
        #expect(String(decoding: json, as: UTF8.self).contains("\"cancellationDate\":1701000000000"))
    }

    @Test func aRefundShowsInTheNextReceiptAndInTheStoresAnswer() throws {
        let harness = try StoreHarness()
        harness.buy()
        let first = try #require(harness.receipt.receipt)
        let transaction = try #require(harness.verifiedTransactions().first)
        #expect(transaction.revocationDate == nil)
        #expect(harness.store.transactions(appleId: harness.appleId).first?.revocationDate == nil)
        #expect(try harness.store.refund(transactionId: transaction.transactionIdentifier))
        var refreshed = false
        harness.queue.refreshReceipt { refreshed = $0 }
        harness.scheduler.runUntilIdle()
        #expect(refreshed)
        let second = try #require(harness.receipt.receipt)
        #expect(second != first)
        let payload = try #require(ReceiptCodec.open(second, with: harness.store.verifyingKey))
        #expect(payload.inApp.first?.cancellationDate != nil)
        #expect(harness.verifiedTransactions().first?.revocationDate != nil)
        #expect(harness.store.transactions(appleId: harness.appleId).first?.revocationDate != nil)
    }

    @Test func aRenewalIsInTheStoresRecordsReadBeforeIt() throws {
        let harness = try StoreHarness()
        harness.buy()
        #expect(harness.store.transactions(appleId: harness.appleId).count == 1)
        #expect(harness.verifiedTransactions().count == 1)
        harness.advance(days: 40)
        let renewed = harness.store.transactions(appleId: harness.appleId)
        #expect(renewed.count == 2)
        #expect(renewed.map(\.transactionReason) == ["PURCHASE", "RENEWAL"])
        #expect(harness.verifiedTransactions() == renewed)
        let receipt = try #require(harness.receipt.receipt)
        guard case .valid(_, let latest, let renewals) = harness.store.verifyReceiptLatest(receipt, expecting: .sandbox)
        else {
            Issue.record("a genuine receipt was refused")
            return
        }
        #expect(latest == [renewed[1]])
        #expect(renewals.map(\.originalTransactionId) == [renewed[0].originalTransactionIdentifier])
    }

    /// An older receipt, whose list a newer one of the same Apple ID changed, still opens to what it lists.
    @Test func anOlderReceiptStillOpensToItsOwnList() throws {
        let harness = try StoreHarness()
        harness.buy()
        let first = try #require(harness.receipt.receipt)
        harness.advance(days: 40)
        harness.queue.refreshReceipt { _ in }
        harness.scheduler.runUntilIdle()
        let second = try #require(harness.receipt.receipt)
        for (receipt, listed) in [(first, 1), (second, 2)] {
            guard case .valid(let payload, _, _) = harness.store.verifyReceipt(receipt, expecting: .sandbox) else {
                Issue.record("a genuine receipt was refused")
                return
            }
            #expect(payload == ReceiptCodec.open(receipt, with: harness.store.verifyingKey))
            #expect(payload.inApp.count == listed)
        }
    }

    @Test func aReceiptChangedAfterItWasIssuedIsStillRefused() throws {
        let harness = try StoreHarness()
        harness.buy()
        let receipt = try #require(harness.receipt.receipt)
        var parts = receipt.split(separator: ".").map(String.init)
        var payload = try #require(ReceiptCodec.open(receipt, with: harness.store.verifyingKey))
        payload = ReceiptPayload(
            bundleId: payload.bundleId, environment: payload.environment,
            deviceVerification: payload.deviceVerification, deviceVerificationNonce: payload.deviceVerificationNonce,
            creationDate: payload.creationDate, inApp: payload.inApp + payload.inApp)
        parts[1] = Base64URL.encode(Array(try ReceiptCodec.canonicalJSON.encode(payload)))
        let forged = parts.joined(separator: ".")
        #expect(harness.store.verifyReceipt(forged, expecting: .sandbox) == .invalid(status: .notAuthenticated))
        guard case .valid = harness.store.verifyReceipt(receipt, expecting: .sandbox) else {
            Issue.record("the receipt as issued was refused")
            return
        }
    }
}

/// The subscriptions an Apple ID pays for now, read by index rather than from its whole history.
@Suite struct EntitledSubscriptionsTests {
    @Test func aRefundedSubscriptionIsNoLongerEntitledAndANewPurchaseIs() throws {
        let harness = try StoreHarness()
        #expect(harness.store.entitledSubscriptions(appleId: harness.appleId).isEmpty)
        harness.buy()
        let first = try #require(harness.original)
        #expect(harness.store.entitledSubscriptions(appleId: harness.appleId).map(\.originalTransactionId) == [first])
        #expect(harness.store.latestUnrevokedTransaction(appleId: harness.appleId)?.transactionIdentifier == first)
        #expect(try harness.store.refund(transactionId: first))
        harness.scheduler.runUntilIdle()
        #expect(harness.store.entitledSubscriptions(appleId: harness.appleId).isEmpty)
        #expect(harness.store.latestUnrevokedTransaction(appleId: harness.appleId) == nil)
        #expect(harness.store.entitledSubscriptions(appleId: "someone-else@icloud.test").isEmpty)
    }
}
