import AppFlow
import FoundationEssentials
import SimKernel
import StoreSim
import Subscriptions

/// A phone's storage in `devices/NAME/`: the anonymous identity, the app receipt, and the full
/// content kept per access level. Every write replaces a file atomically, so a crash never leaves half of one.
final class DeviceFiles: DeviceStorage, ReceiptSlot, ChargeAlertSlot {
    private let directory: URL
    /// Told of a file this phone could not read or write; the world logs it on the timeline. A file that
    /// cannot be read is never taken as "none": a lost identity.json loses an anonymous subscriber.
    var onProblem: ((String) -> Void)?

    init(directory: String) throws(WorldSetupError) {
        self.directory = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        } catch {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), !isFolder else {
                throw WorldSetupError(description: "\(directory): cannot be made (\(error.failureDescription))")
            }
            throw WorldSetupError(
                description: "\(directory): is a file, the state folder keeps a phone's files in a folder of that name")
        }
        try Self.checkReadable(directory)
    }

    /// The files a phone reads, by name.
    static let files = [
        "identity.json", "account.json", "receipt", "receipts-unanswered", "payments-unanswered.json",
        "charges-heard.json", "alerts-unseen.json",
    ]

    /// Each of the phone's files that is there can be read, as `keys` and `clock` must: an identity.json the run could
    /// not open (a permission) was set aside as corrupt, and the paying reader started with no identity (session 29).
    /// Only a file read and found not valid is set aside; one that cannot be read is refused and left as it is.
    static func checkReadable(_ directory: String) throws(WorldSetupError) {
        for name in files {
            let path = "\(directory)/\(name)"
            var isFolder = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
                throw WorldSetupError(
                    description: "\(path): is a folder, the phone keeps it in a file of that name; move it away or "
                        + "start a new folder")
            }
            if let reason = StateFile.unreadable(path) {
                throw WorldSetupError(description: "\(path): cannot be read (\(reason)); it is left as it is")
            }
        }
    }

    var anonymousIdentity: AnonymousIdentity? {
        get { decode(AnonymousIdentity.self, "identity.json") }
        set { if let data = encoded(newValue) { write("identity.json", data) } }
    }

    var accountSession: AccountSession? {
        get { decode(AccountSession.self, "account.json") }
        set { if let data = encoded(newValue) { write("account.json", data) } }
    }

    /// A count in a file of its own, none when zero: it changes around every receipt sent. The phone is the
    /// file's one writer: read once, and written only when it changes.
    var unansweredReceipts: Int {
        get {
            if let knownUnanswered { return knownUnanswered }
            let count = read("receipts-unanswered").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            knownUnanswered = count
            return count
        }
        set {
            guard newValue != unansweredReceipts else { return }
            knownUnanswered = nil
            if write("receipts-unanswered", newValue > 0 ? Data(String(newValue).utf8) : nil) {
                knownUnanswered = newValue
            }
        }
    }
    private var knownUnanswered: Int?

    /// The payments the unanswered receipts were sent for, none: no file. Read once, written when they change.
    var unansweredPayments: [UnansweredPayment] {
        get { value(&keptPayments) }
        set { keep(newValue, &keptPayments) }
    }
    private var keptPayments = KeptJSON<[UnansweredPayment]>(name: "payments-unanswered.json", empty: [])

    /// What the app's latest launch heard (`HeardCharges`). Read once, written when it changes.
    var heardCharges: HeardCharges? {
        get { value(&keptHeard) }
        set { keep(newValue, &keptHeard) }
    }
    private var keptHeard = KeptJSON<HeardCharges?>(name: "charges-heard.json", empty: nil)

    /// The charge alerts the app told and the reader has not dismissed (`ChargeAlertsUnseen`), none: no file. Read
    /// once, written when they change.
    var chargeAlertsUnseen: [Alert] {
        get { value(&keptUnseen) }
        set { keep(newValue, &keptUnseen) }
    }
    private var keptUnseen = KeptJSON<[Alert]>(name: "alerts-unseen.json", empty: [])

    /// A kept file's value, read from the file the first time.
    private func value<Value>(_ kept: inout KeptJSON<Value>) -> Value {
        if let known = kept.known { return known }
        let value = decode(Value.self, kept.name) ?? kept.empty
        kept.known = value
        return value
    }

    /// Writes a kept file's new value, only when it changed; its empty value is no file.
    private func keep<Value>(_ newValue: Value, _ kept: inout KeptJSON<Value>) {
        guard newValue != value(&kept) else { return }
        kept.known = nil
        guard let data = encoded(newValue == kept.empty ? nil : newValue) else { return }
        if write(kept.name, data) { kept.known = newValue }
    }

    /// A value that does not encode keeps the file as it was (reported): writing none would delete it.
    private func encoded(_ value: (some Encodable)?) -> Data?? {
        guard let value else { return .some(nil) }
        do {
            return .some(try Self.encoder.encode(value))
        } catch {
            report("error: cannot encode \(type(of: value)) on \(directory.lastPathComponent): \(error)")
            return nil
        }
    }

    /// The file's value; nil when there is none. One that does not decode is kept aside under another
    /// name (for a person to recover the identity from) and reported, so the app's fresh start is said.
    private func decode<T: Decodable>(_ type: T.Type, _ name: String) -> T? {
        guard let data = read(name, keepingAside: true) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            startsWithout(name)
            return nil
        }
    }

    private func startsWithout(_ name: String) {
        let aside = keepAside(name)
        report(
            "error: \(name) on \(directory.lastPathComponent) cannot be read; kept as \(aside ?? "it was"), "
                + "the app starts without it (Restore gives back what this Apple ID bought)")
    }

    /// Renames a file out of the way: `identity.json.unreadable-1`, the first free number.
    private func keepAside(_ name: String) -> String? {
        var number = 1
        while FileManager.default.fileExists(
            atPath: directory.appendingPathComponent("\(name).unreadable-\(number)").path)
        {
            number += 1
        }
        let aside = "\(name).unreadable-\(number)"
        do {
            try FileManager.default.moveItem(
                at: directory.appendingPathComponent(name), to: directory.appendingPathComponent(aside))
            return aside
        } catch {
            return nil
        }
    }

    private func report(_ problem: String) {
        onProblem?(problem)
    }

    /// The receipt file's content as this phone last wrote or read it (`.some(nil)`: no file). The phone
    /// is the file's one writer, and a receipt is megabytes once its history is long: it is written only
    /// when its bytes change and read only once.
    private var knownReceipt: String??

    func load() -> String? {
        if let knownReceipt { return knownReceipt }
        let receipt = read("receipt").flatMap { String(data: $0, encoding: .utf8) }
        knownReceipt = .some(receipt)
        return receipt
    }

    func save(_ receipt: String?) {
        guard knownReceipt != .some(receipt) else { return }
        knownReceipt = nil
        guard var receipt else {
            if write("receipt", nil) { knownReceipt = .some(nil) }
            return
        }
        // Written from the string's own storage: copying megabytes into a `Data` first was a tenth of a step.
        let written = receipt.withUTF8 { text in
            guard let base = text.baseAddress else { return write("receipt", Data()) }
            let bytes = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: text.count, deallocator: .none)
            return write("receipt", bytes)
        }
        if written { knownReceipt = .some(receipt) }
    }

    func cachedContent(_ contentId: String, level: AccessLevel) -> String? {
        read("content/\(level.rawValue)/\(contentId).txt").flatMap { String(data: $0, encoding: .utf8) }
    }

    func cacheContent(_ contentId: String, level: AccessLevel, body: String) {
        try? FileManager.default.createDirectory(
            at: directory.appendingPathComponent("content/\(level.rawValue)"), withIntermediateDirectories: true)
        write("content/\(level.rawValue)/\(contentId).txt", Data(body.utf8))
    }

    /// A level lost must leave nothing of its full content behind: a removal that fails is reported.
    func purgeContent(level: AccessLevel) {
        let folder = directory.appendingPathComponent("content/\(level.rawValue)")
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            report(
                "cannot delete the full content kept for \(level.rawValue) in \(folder.path): \(error.failureDescription)"
            )
        }
    }

    var cachedLevels: Set<AccessLevel> {
        let folder = directory.appendingPathComponent("content").path
        do {
            return Set(try FileManager.default.contentsOfDirectory(atPath: folder).map(AccessLevel.init))
        } catch  where !FileManager.default.fileExists(atPath: folder) {
            return []
        } catch {
            report("error: cannot list the full content kept in \(folder): \(error.failureDescription)")
            return []
        }
    }

    /// The file's bytes; nil when there is none, or when it is there but cannot be read, which is reported
    /// (and, `keepingAside`, the file moved out of the way first, so that no write replaces it).
    private func read(_ name: String, keepingAside: Bool = false) -> Data? {
        let url = directory.appendingPathComponent(name)
        do {
            return try Data(contentsOf: url)
        } catch  where !FileManager.default.fileExists(atPath: url.path) {
            return nil
        } catch {
            if keepingAside {
                startsWithout(name)
            } else {
                report("error: \(name) on \(directory.lastPathComponent) cannot be read: \(error.failureDescription)")
            }
            return nil
        }
    }

    /// Whether the file now holds `data`; a failure is reported.
    @discardableResult
    private func write(_ name: String, _ data: Data?) -> Bool {
        let url = directory.appendingPathComponent(name)
        do {
            if let data {
                try StateFile.write(data, to: url.path)
            } else if FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.removeItem(at: url)
            }
            return true
        } catch {
            report("error: cannot write \(name) on \(directory.lastPathComponent): \(error.failureDescription)")
            return false
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }()
}

/// A phone's storage that lives only in memory (`--ephemeral`, tests).
final class DeviceMemory: DeviceStorage, ReceiptSlot, ChargeAlertSlot {
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
    var unansweredReceipts: Int {
        get { storage.unansweredReceipts }
        set { storage.unansweredReceipts = newValue }
    }
    var unansweredPayments: [UnansweredPayment] {
        get { storage.unansweredPayments }
        set { storage.unansweredPayments = newValue }
    }
    var heardCharges: HeardCharges? {
        get { storage.heardCharges }
        set { storage.heardCharges = newValue }
    }
    var chargeAlertsUnseen: [Alert] = []
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

/// A JSON file the phone is the one writer of: read once, then known, and written only when its value changes (these
/// change around every receipt and alert, and the phone reads them after every event).
private struct KeptJSON<Value: Codable & Equatable> {
    let name: String
    /// The value of no file.
    let empty: Value
    var known: Value?
}
