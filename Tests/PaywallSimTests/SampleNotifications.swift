import SimKernel

@testable import StoreSim

/// Notification payloads drawn from a list of texts, for the tests that compare a hand-written JSON
/// writer or reader with Foundation's: every type in turn, each optional field there or not.
enum SampleNotifications {
    static func payload(
        round: Int, texts: [String], signedTransactionInfo: (String) -> String, using generator: inout SeededGenerator
    ) -> NotificationPayload {
        func text() -> String { texts[Int(generator.next() % UInt64(texts.count))] }
        func maybe<T>(_ value: T) -> T? { generator.next() % 2 == 0 ? value : nil }
        let types = NotificationType.allCases
        let subtypes = NotificationSubtype.allCases
        return NotificationPayload(
            notificationType: types[round % types.count], subtype: maybe(subtypes[round % subtypes.count]),
            notificationUUID: text(), version: "2.0", signedDate: Int64(round) * 1_000,
            data: NotificationData(
                bundleId: text(), environment: round % 2 == 0 ? .sandbox : .production,
                signedTransactionInfo: maybe(signedTransactionInfo(text())), signedRenewalInfo: maybe(text()),
                status: maybe(round % 6)))
    }
}
