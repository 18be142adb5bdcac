import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// The backend reads the store's payloads without `JSONDecoder` when they are plain, and gets what
/// `JSONDecoder` gets for every input, plain or not: the same value, or nil where it throws.
@Suite struct QuickJSONTests {
    private static let texts = [
        "plain", "com.dailynews.premium.monthly", "2000000000000001", "", "a\"quote", "sl/ash", "tab\there", "é",
    ]

    /// The store's bytes for `value`, and variants a hand-written reader could get wrong.
    private func variants(_ canonical: [UInt8]) -> [[UInt8]] {
        let text = String(decoding: canonical, as: UTF8.self)
        func edited(_ change: (String) -> String) -> [UInt8] { Array(change(text).utf8) }
        return [
            canonical,
            edited {
                " \($0.replacingOccurrences(of: ",\"", with: " ,\n\t\"").replacingOccurrences(of: "\":", with: "\" : ")) "
            },
            edited { "{\"zzUnknown\":{\"a\":[1,2]},\"other\":1.5," + $0.dropFirst() },
            edited { $0.replacingOccurrences(of: "\"signedDate\":", with: "\"signedDateX\":") },
            edited { $0.replacingOccurrences(of: "\"productId\":", with: "\"productId\":null,\"x\":") },
            edited { $0.replacingOccurrences(of: "\"signedDate\":", with: "\"signedDate\":1.0,\"y\":") },
            edited { $0.replacingOccurrences(of: "\"signedDate\":", with: "\"signedDate\":\"1\",\"y\":") },
            edited { $0.replacingOccurrences(of: "\"signedDate\":", with: "\"signedDate\":01,\"y\":") },
            edited {
                $0.replacingOccurrences(of: "\"signedDate\":", with: "\"signedDate\":99999999999999999999,\"y\":")
            },
            edited {
                $0.replacingOccurrences(of: "\"signedDate\":", with: "\"signedDate\":-9223372036854775808,\"y\":")
            },
            edited {
                $0.replacingOccurrences(of: "\"environment\":\"Sandbox\"", with: "\"environment\":\"Elsewhere\"")
            },
            edited { $0.replacingOccurrences(of: "\"version\":", with: "\"version\":\"1\",\"version\":") },
            edited { $0.replacingOccurrences(of: "\"status\":", with: "\"status\":true,\"s\":") },
            edited { $0.replacingOccurrences(of: "\"isUpgraded\":true", with: "\"isUpgraded\":1") },
            edited { $0.replacingOccurrences(of: "\"data\":{", with: "\"data\":{\"bundleId\":null,") },
            edited { $0.replacingOccurrences(of: "\"data\":{", with: "\"data\":{}, \"d\":{") },
            edited { $0.replacingOccurrences(of: "\"subtype\":\"", with: "\"subtype\":\"X") },
            edited { $0 + " x" },
            Array(canonical.dropLast()),
            edited { $0.replacingOccurrences(of: "true", with: "tru") },
        ]
    }

    private func compare<T: Decodable & Equatable>(_ type: T.Type, _ canonical: [UInt8]) -> Int {
        var quick = 0
        for bytes in variants(canonical) {
            let expected = try? JSONDecoder().decode(type, from: Data(bytes))
            #expect(
                NotificationCodec.decode(type, from: bytes) == expected, "\(String(decoding: bytes, as: UTF8.self))")
            if QuickJSON.object(bytes) != nil && expected != nil { quick += 1 }
        }
        return quick
    }

    @Test func transactionAndRenewalInfoReadAsJSONDecoderReadsThem() {
        var generator = SeededGenerator(seed: 20)
        var quick = 0
        for round in 0..<200 {
            func text() -> String { Self.texts[Int(generator.next() % UInt64(Self.texts.count))] }
            func maybe<T>(_ value: T) -> T? { generator.next() % 2 == 0 ? value : nil }
            let transaction = TransactionInfo(
                transactionId: text(), originalTransactionId: "\(round)", productId: text(), bundleId: text(),
                environment: round % 2 == 0 ? .sandbox : .production, purchaseDate: Int64(round) * 86_400_000,
                originalPurchaseDate: -Int64(round), expiresDate: maybe(.max), revocationDate: maybe(.min),
                revocationReason: maybe(round % 2), inAppOwnershipType: text(), appAccountToken: maybe(text()),
                deviceId: text(), signedDate: Int64(generator.next() >> 1), subscriptionGroupIdentifier: maybe(text()),
                transactionReason: maybe(text()), offerType: maybe(3), isUpgraded: maybe(round % 3 == 0),
                type: maybe(text()))
            quick += compare(TransactionInfo.self, transaction.canonicalJSON)
            let renewal = RenewalInfo(
                originalTransactionId: text(), productId: text(), autoRenewProductId: text(),
                autoRenewStatus: round % 2, isInBillingRetryPeriod: round % 3 == 0,
                gracePeriodExpiresDate: maybe(Int64(round)), expirationIntent: maybe(round % 6),
                priceIncreaseStatus: maybe(round % 2), renewalDate: maybe(-1), signedDate: Int64(round))
            quick += compare(RenewalInfo.self, renewal.canonicalJSON)
        }
        #expect(quick > 200)
    }

    @Test func notificationPayloadReadsAsJSONDecoderReadsIt() {
        var generator = SeededGenerator(seed: 21)
        var quick = 0
        for round in 0..<200 {
            let payload = SampleNotifications.payload(
                round: round, texts: Self.texts, signedTransactionInfo: { _ in "eyJh.eyJi.c2ln" }, using: &generator)
            quick += compare(NotificationPayload.self, payload.canonicalJSON)
        }
        #expect(quick > 100)
    }
}
