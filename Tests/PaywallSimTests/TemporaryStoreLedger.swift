import Foundation

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
