import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// The store's hand-written JSON for what it signs is byte for byte what `JSONEncoder` with sorted keys
/// wrote before: the signed payloads a backend (or a person reading a timeline) sees are unchanged.
@Suite struct CanonicalJSONTests {
    /// Every ASCII control character, the characters JSON escapes, and text beyond ASCII.
    private static let awkward: [String] = [
        "", "plain", "a\"quote", "back\\slash", "sl/ash", "tab\tnew\nline\r", "\u{8}\u{C}\u{7F}", "é€😀\u{2028}",
        String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self),
    ]

    private func foundation(_ value: some Encodable) throws -> [UInt8] {
        Array(try ReceiptCodec.canonicalJSON.encode(value))
    }

    @Test func transactionInfoIsWrittenAsJSONEncoderWritesIt() throws {
        var generator = SeededGenerator(seed: 16)
        for round in 0..<300 {
            func text() -> String { Self.awkward[Int(generator.next() % UInt64(Self.awkward.count))] }
            func maybe<T>(_ value: T) -> T? { generator.next() % 2 == 0 ? value : nil }
            let info = TransactionInfo(
                transactionId: text(), originalTransactionId: "\(round)", productId: text(), bundleId: text(),
                environment: round % 2 == 0 ? .sandbox : .production, purchaseDate: Int64(round) * 86_400_000,
                originalPurchaseDate: -Int64(round), expiresDate: maybe(Int64.max), revocationDate: maybe(Int64.min),
                revocationReason: maybe(round % 2), inAppOwnershipType: text(), appAccountToken: maybe(text()),
                deviceId: text(), signedDate: Int64(generator.next() >> 1),
                subscriptionGroupIdentifier: maybe(text()), transactionReason: maybe(text()), offerType: maybe(3),
                isUpgraded: maybe(round % 3 == 0), type: maybe(text()))
            #expect(info.canonicalJSON == (try foundation(info)))
        }
    }

    @Test func renewalInfoIsWrittenAsJSONEncoderWritesIt() throws {
        var generator = SeededGenerator(seed: 17)
        for round in 0..<300 {
            func text() -> String { Self.awkward[Int(generator.next() % UInt64(Self.awkward.count))] }
            func maybe<T>(_ value: T) -> T? { generator.next() % 2 == 0 ? value : nil }
            let info = RenewalInfo(
                originalTransactionId: text(), productId: text(), autoRenewProductId: text(),
                autoRenewStatus: round % 2, isInBillingRetryPeriod: round % 3 == 0,
                gracePeriodExpiresDate: maybe(Int64(round)), expirationIntent: maybe(round % 6),
                priceIncreaseStatus: maybe(round % 2), renewalDate: maybe(-1), signedDate: Int64(round))
            #expect(info.canonicalJSON == (try foundation(info)))
        }
    }

    @Test func aReceiptAndItsEntriesAreWrittenAsJSONEncoderWritesThem() throws {
        var generator = SeededGenerator(seed: 19)
        for round in 0..<300 {
            func text() -> String { Self.awkward[Int(generator.next() % UInt64(Self.awkward.count))] }
            func maybe<T>(_ value: T) -> T? { generator.next() % 2 == 0 ? value : nil }
            let entries = (0..<Int(generator.next() % 4)).map { index in
                ReceiptPayload.InAppPurchase(
                    transactionId: text(), originalTransactionId: "\(round)-\(index)", productId: text(),
                    purchaseDate: Int64(round) * 86_400_000, expiresDate: maybe(Int64.max),
                    cancellationDate: maybe(Int64.min), isInIntroOfferPeriod: maybe(round % 3 == 0),
                    appAccountToken: maybe(text()), inAppOwnershipType: maybe(text()))
            }
            for entry in entries { #expect(entry.canonicalJSON == (try foundation(entry))) }
            let payload = ReceiptPayload(
                bundleId: text(), environment: round % 2 == 0 ? .sandbox : .production, deviceVerification: text(),
                deviceVerificationNonce: text(), creationDate: -Int64(round), inApp: entries)
            #expect(payload.canonicalJSON == (try foundation(payload)))
        }
    }

    @Test func notificationPayloadIsWrittenAsJSONEncoderWritesIt() throws {
        var generator = SeededGenerator(seed: 18)
        for round in 0..<300 {
            let payload = SampleNotifications.payload(
                round: round, texts: Self.awkward, signedTransactionInfo: { "eyJh.eyJi.c2ln" + $0 }, using: &generator)
            #expect(payload.canonicalJSON == (try foundation(payload)))
        }
    }
}

/// A notification's UUID, written as bytes, is the one the string-building version wrote.
@Suite struct NotificationUUIDTests {
    @Test func theUUIDIsTheOneTheStringVersionWrote() {
        var generator = SeededGenerator(seed: 19)
        for serial: Int64 in [0, 1, 15, 16, 255, 4_096, 0xFFFF_FFFF_FFFF, 0x1_0000_0000_0001, .max] {
            var copy = generator
            let drawn = generator.bytes(16)
            let serialHex = String(UInt64(serial) & 0xFFFF_FFFF_FFFF, radix: 16)
            let hex = Array(
                copy.hex(16).prefix(20) + String(repeating: "0", count: 12 - serialHex.count) + serialHex)
            let expected = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
            #expect(AppStore.uuid(drawn: drawn, serial: serial) == expected)
        }
    }
}
