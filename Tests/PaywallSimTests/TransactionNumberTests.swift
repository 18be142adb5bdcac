import Foundation
import SimKernel
import Testing

@testable import StoreSim

/// Transaction numbers count on in memory after one read per open: each is new, on a reopened file too,
/// and an insert that failed takes none.
@Suite struct TransactionNumberTests {
    private func record(_ number: Int64) -> TransactionRecord {
        TransactionRecord(
            transactionIdentifier: "t\(number)", originalTransactionIdentifier: "t\(number)",
            productIdentifier: "monthly", appleId: "reader@icloud.test", deviceId: "phone-1",
            purchaseDate: .worldStart, expiresDate: nil, finished: false)
    }

    @Test func numbersNeverRepeatAcrossInsertsFailuresAndReopening() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("numbers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("appstore.sqlite").path
        do {
            let ledger = try StoreLedger(path: path)
            #expect(try ledger.nextTransactionNumber() == 1)
            try ledger.insert(record(1))
            #expect(try ledger.nextTransactionNumber() == 2)
            try ledger.insert(record(2))
            // The same identifier again: refused, and no number is used up.
            #expect(throws: (any Error).self) { try ledger.insert(record(2)) }
            #expect(try ledger.nextTransactionNumber() == 3)
        }
        let reopened = try StoreLedger(path: path)
        #expect(try reopened.nextTransactionNumber() == 3)
        try reopened.insert(record(3))
        #expect(try reopened.nextTransactionNumber() == 4)
    }
}
