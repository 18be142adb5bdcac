import Database
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

    /// Notification serials come from blocks reserved on disk: 1, 2, 3… in one process, across a block's end
    /// too, and a reopened file (or one a killed process left) never hands out one it handed out before.
    @Test func serialsNeverRepeatAcrossBlocksAndReopening() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("appstore.sqlite").path
        var seen: [Int64] = []
        do {
            let ledger = try StoreLedger(path: path)
            for _ in 0..<(StoreLedger.serialBlock * 2 + 3) { seen.append(try ledger.nextSerial("notification")) }
            #expect(seen == Array(1...(StoreLedger.serialBlock * 2 + 3)))
            // Another name counts on its own.
            #expect(try ledger.nextSerial("other") == 1)
        }
        for _ in 0..<3 {
            let reopened = try StoreLedger(path: path)
            for _ in 0..<5 { seen.append(try reopened.nextSerial("notification")) }
        }
        #expect(Set(seen).count == seen.count, "no serial handed out twice")
        #expect(seen == seen.sorted(), "serials only grow")
        // A file the earlier build wrote holds the last serial it used: the next block starts after it.
        let database = try Database(path: path)
        try database.run("UPDATE serials SET value = 7 WHERE name = 'other'")
        #expect(try StoreLedger(path: path).nextSerial("other") == 8)
    }
}
