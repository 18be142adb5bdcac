import Foundation
import SimKernel

@testable import StoreSim

/// A store ledger on disk in a fresh temporary folder, removed when `body` returns: the kept-answer tests write a
/// seeded mix into it and open the file again (`path`) to compare what was kept with a fresh read.
func withTemporaryStoreLedger(_ name: String, _ body: (StoreLedger, String) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("appstore.sqlite").path
    try body(try StoreLedger(path: path), path)
}

extension StoreLedger {
    /// A seeded test's finish of one of `transactions`, named with one of `appleIds` (the transaction's or not) or, one
    /// time in `appleIds.count`, with none; or, `refund`, its refund at `step`'s instant.
    func finishOrRefundOne(
        of transactions: [String], refund: Bool, appleIds: [String], at step: Int, _ random: inout SeededGenerator
    ) throws {
        guard !refund else {
            let refunded = transactions[Int(random.next() % UInt64(transactions.count))]
            return try revoke(refunded, at: SimInstant(milliseconds: Int64(step)), reason: 0)
        }
        let count = UInt64(appleIds.count)
        let hint = random.next() % count == 0 ? nil : appleIds[Int(random.next() % count)]
        try markFinished(transactions[Int(random.next() % UInt64(transactions.count))], appleId: hint)
    }
}
