import Foundation
import StoreSim
import Subscriptions

/// A phone's storage in `devices/NAME/`: the anonymous identity, the app receipt, and the full
/// content kept per access level. Every write replaces a file atomically, so a crash never leaves half of one.
final class DeviceFiles: DeviceStorage, ReceiptSlot {
    private let directory: URL

    init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    }

    var anonymousIdentity: AnonymousIdentity? {
        get { read("identity.json").flatMap { try? JSONDecoder().decode(AnonymousIdentity.self, from: $0) } }
        set { write("identity.json", newValue.flatMap { try? Self.encoder.encode($0) }) }
    }

    var accountSession: AccountSession? {
        get { read("account.json").flatMap { try? JSONDecoder().decode(AccountSession.self, from: $0) } }
        set { write("account.json", newValue.flatMap { try? Self.encoder.encode($0) }) }
    }

    func load() -> String? { read("receipt").flatMap { String(data: $0, encoding: .utf8) } }
    func save(_ receipt: String?) { write("receipt", receipt.map { Data($0.utf8) }) }

    func cachedContent(_ contentId: String, level: AccessLevel) -> String? {
        read("content/\(level.rawValue)/\(contentId).txt").flatMap { String(data: $0, encoding: .utf8) }
    }

    func cacheContent(_ contentId: String, level: AccessLevel, body: String) {
        try? FileManager.default.createDirectory(
            at: directory.appendingPathComponent("content/\(level.rawValue)"), withIntermediateDirectories: true)
        write("content/\(level.rawValue)/\(contentId).txt", Data(body.utf8))
    }

    func purgeContent(level: AccessLevel) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("content/\(level.rawValue)"))
    }

    var cachedLevels: Set<AccessLevel> {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("content").path))
            ?? []
        return Set(names.map(AccessLevel.init))
    }

    private func read(_ name: String) -> Data? {
        try? Data(contentsOf: directory.appendingPathComponent(name))
    }

    private func write(_ name: String, _ data: Data?) {
        let url = directory.appendingPathComponent(name)
        if let data { try? data.write(to: url, options: .atomic) } else { try? FileManager.default.removeItem(at: url) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }()
}

/// A phone's storage that lives only in memory (`--ephemeral`, tests).
final class DeviceMemory: DeviceStorage, ReceiptSlot {
    private let storage = InMemoryDeviceStorage()
    private var receipt: String?

    var anonymousIdentity: AnonymousIdentity? {
        get { storage.anonymousIdentity }
        set { storage.anonymousIdentity = newValue }
    }
    var accountSession: AccountSession? {
        get { storage.accountSession }
        set { storage.accountSession = newValue }
    }
    func load() -> String? { receipt }
    func save(_ receipt: String?) { self.receipt = receipt }
    func cachedContent(_ contentId: String, level: AccessLevel) -> String? {
        storage.cachedContent(contentId, level: level)
    }
    func cacheContent(_ contentId: String, level: AccessLevel, body: String) {
        storage.cacheContent(contentId, level: level, body: body)
    }
    func purgeContent(level: AccessLevel) { storage.purgeContent(level: level) }
    var cachedLevels: Set<AccessLevel> { storage.cachedLevels }
}
