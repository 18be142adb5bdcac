import BackendSim
import Database
import FoundationEssentials
import Signing
import StoreSim
import WhiteLabel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A reopened state folder is checked before anything writes into it: a database with a damaged page
/// was used silently (the store's figures read from garbage, the backend's writes went on top).
public enum StateCheck {
    public static let databases = ["appstore.sqlite", "backend.sqlite"]

    /// What each of the folder's own names must be, said the way a person can act on it.
    private static let kinds: [(name: String, isFolder: Bool, holds: String)] = [
        ("appstore.sqlite", false, "the App Store's records"), ("backend.sqlite", false, "the backend's ledger"),
        ("keys", false, "its secrets"), ("clock", false, "the instant the last run stopped at"),
        ("devices", true, "its phones"), ("app", false, "the app whose state it holds"),
    ]

    /// A folder holds one app's state: its tokens, receipts and ledger are that app's (another app's run answered
    /// every receipt with 401 token_other_app, and a paid purchase could never be confirmed, session 25). `app`
    /// names it, written by the first run: its bundleId, then the name its folder goes by (`folderName`), so two
    /// configs of one bundleId and two app ids, or two `.storekit` files of one name, never share a folder in silence
    /// (session 28). A folder from before the name was kept (the bundleId alone), or from before `app`, is adopted by
    /// an app of that bundleId that sells every product it holds purchases of, and refused by any other.
    public static func checkApp(folder: String, config: DemoConfig) throws(WorldSetupError) {
        let path = "\(folder)/app"
        let (bundleId, name, names) = (config.app.bundleId, folderName(for: config), folderNames(for: config))
        let source = config.sourcePath ?? config.app.id
        // Unreadable, it was taken as missing, and written over with this app's name: another app adopted the folder.
        if let reason = StateFile.unreadable(path) {
            throw WorldSetupError(description: "\(path): cannot be read (\(reason)); it is left as it is")
        }
        if let data = FileManager.default.contents(atPath: path) {
            let held = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            guard held.first == bundleId, held.count < 2 || names.contains(held[1]) else {
                let holder = held.count < 2 ? held.first ?? "no app" : "\(held[1]) (\(held[0]))"
                throw WorldSetupError(
                    description: "\(path): this folder holds the state of \(holder) and \(source) is "
                        + "\(name) (\(bundleId)); open it with that app's config, or choose another folder")
            }
            if held.count >= 2 { return }
        }
        let store = "\(folder)/appstore.sqlite"
        if FileManager.default.fileExists(atPath: store) {
            let products: Set<String>
            do {
                products = Set(
                    try StoreRecords(readingOnly: store).latestTransactions().values.map(\.productIdentifier))
            } catch {
                throw WorldSetupError(description: "\(store): cannot be read (\(error.message))")
            }
            if let other = products.subtracting(config.store.products.map(\.productId)).sorted().first {
                throw WorldSetupError(
                    description: "\(store): holds purchases of \(other), which \(source) does not sell: another "
                        + "app's state; open it with that app's config, or choose another folder")
            }
        }
        do {
            try StateFile.write(Data("\(bundleId) \(name)\n".utf8), to: path)
        } catch {
            throw WorldSetupError(description: "\(path): cannot be written (\(error.failureDescription))")
        }
    }

    /// The name of `config`'s state folder: the app's id; for an app made from a `.storekit` file alone, with a short
    /// hash of the file's absolute path: its id is the file's name, so two `Products.storekit` in different folders
    /// shared one folder, each run taking the other's purchases as its own (session 27).
    public static func folderName(for config: DemoConfig) -> String { folderNames(for: config)[0] }

    /// The names `config`'s state folder goes by, the one a new folder takes first. A `.storekit` file's hash is of
    /// its real path, links resolved: named through a linked folder, one file got a second folder, its purchases
    /// apart (h3, session 29). Then of its path as given, which earlier builds hashed: a folder one of them made
    /// through a link is still found, and its `app` still matches.
    public static func folderNames(for config: DemoConfig) -> [String] {
        guard config.store.storekitSettings != nil, let source = config.sourcePath, source.hasSuffix(".storekit") else {
            return [config.app.id]
        }
        let given = URL(fileURLWithPath: source).standardizedFileURL.path
        let real = realpath(given, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return ([real ?? given] + (real.map { $0 == given ? [] : [given] } ?? [])).map {
            "\(config.app.id)-\(Hex.encode(Digest.sha256(Array($0.utf8)).prefix(4)))"
        }
    }

    /// Everything a reopened folder must be before any of it is opened, the files of the phone `phone` too;
    /// throws naming the file.
    static func check(folder: String, phone: String) throws(WorldSetupError) {
        try checkKind("\(folder)/devices/\(phone)", isFolder: true, holds: "a phone's files")
        try DeviceFiles.checkReadable("\(folder)/devices/\(phone)")
        try check(folder: folder)
    }

    /// Everything a reopened folder must be before any of it is opened, its phones' files aside (`bench ledger`,
    /// which opens no phone); throws naming the file.
    public static func check(folder: String) throws(WorldSetupError) {
        try checkShape(folder: folder)
        var storeVersion = 0
        for name in databases {
            let path = "\(folder)/\(name)"
            guard FileManager.default.fileExists(atPath: path) else { continue }
            // Read only: a check must not turn a stranger's file into WAL, nor write a page of an empty one.
            let result: String
            let version: Int
            do {
                let database = try Database(path: path, readOnly: true)
                version = try database.schemaVersion()
                result = try database.query("PRAGMA quick_check").compactMap { $0.first?.string }
                    .joined(separator: "; ")
            } catch {
                throw WorldSetupError(description: "\(path): cannot be opened as a database (\(error.message))")
            }
            guard result == "ok" else {
                throw WorldSetupError(
                    description: "\(path): damaged (SQLite: \(result.prefix(200))); restore it or start a new folder")
            }
            // Schema version 0 has none of the tables: not a file this tool wrote, which migrating would take over.
            guard version > 0 else {
                throw WorldSetupError(
                    description: "\(path): not \(name == "backend.sqlite" ? "a ledger" : "the App Store's records") "
                        + "(schema version 0); restore it or start a new folder")
            }
            if name == "appstore.sqlite" { storeVersion = version }
        }
        try checkNothingLost(folder: folder, storeVersion: storeVersion)
    }

    /// The App Store's schema versions the last builds without `keys` and without `app` wrote: every later build wrote
    /// each of them into the folder before it moved the store's schema on.
    static let lastStoreVersionWithout = (keys: 3, app: 11)

    /// `keys` and `app` are there in a folder whose store a build that writes them wrote: gone, they were lost (a copy
    /// made as another user leaves out the owner-only `keys`), and never made again. New keys left every phone's token
    /// and receipt invalid, the paying reader locked out; a new `app` let another app adopt the folder (session 29).
    /// Only a folder older than them (its store's schema version says so) gets them now.
    private static func checkNothingLost(folder: String, storeVersion: Int) throws(WorldSetupError) {
        let lost = [
            (
                "keys", lastStoreVersionWithout.keys,
                "the folder's secrets, which signed every sign-in and receipt it holds, are gone (a copy made as another "
                    + "user leaves this owner-only file out); new ones would lock every phone out"
            ),
            (
                "app", lastStoreVersionWithout.app,
                "which app's state the folder holds is not known, and another app's run would take it over"
            ),
        ]
        for (name, lastWithout, gone) in lost where storeVersion > lastWithout {
            let path = "\(folder)/\(name)"
            guard access(path, F_OK) != 0, errno == ENOENT else { continue }
            throw WorldSetupError(
                description: "\(path): missing beside appstore.sqlite: \(gone); restore it or start a new folder")
        }
        if let problem = StateKinship.problems(folder: folder).first { throw WorldSetupError(description: problem) }
    }

    /// The folder's own names as this tool left them, before any is opened: each a file or a folder as it
    /// should be, and the databases as `checkDatabases` wants them.
    public static func checkShape(folder: String) throws(WorldSetupError) {
        for (name, isFolder, holds) in kinds { try checkKind("\(folder)/\(name)", isFolder: isFolder, holds: holds) }
        try checkDatabases(folder: folder)
    }

    /// The two databases both there or both not (a new folder), and neither emptied: a new empty database
    /// beside the other's records would lose them without a word.
    public static func checkDatabases(folder: String) throws(WorldSetupError) {
        try checkNotEmptied(folder: folder)
        try checkKeptTogether(folder: folder)
    }

    /// No database of 0 bytes: SQLite reads one as a new database, and would build a new schema over it.
    public static func checkNotEmptied(folder: String) throws(WorldSetupError) {
        for name in databases {
            let path = "\(folder)/\(name)"
            var status = stat()
            if stat(path, &status) == 0 && status.st_size == 0 && status.st_mode & S_IFMT == S_IFREG {
                throw WorldSetupError(
                    description:
                        "\(path): empty (0 bytes), the records it held are gone; restore it or start a new folder")
            }
        }
    }

    /// Both databases or neither: a ledger's purchases are the App Store's transactions, checked against its file.
    public static func checkKeptTogether(folder: String) throws(WorldSetupError) {
        let present = databases.filter { FileManager.default.fileExists(atPath: "\(folder)/\($0)") }
        // Neither database, beside what only a run that wrote them leaves (its clock, its phones' files): the records
        // are gone, and new empty ones would meet phones holding tokens and levels nobody issued.
        let phones = (try? FileManager.default.contentsOfDirectory(atPath: "\(folder)/devices")) ?? []
        let leftBehind =
            (FileManager.default.fileExists(atPath: "\(folder)/clock") ? ["clock"] : [])
            + (phones.isEmpty ? [] : ["devices/"])
        if present.isEmpty, !leftBehind.isEmpty {
            throw WorldSetupError(
                description:
                    "\(folder): appstore.sqlite and backend.sqlite are missing beside \(leftBehind.joined(separator: " and ")):"
                    + " the records of this folder's purchases are gone; restore them or start a new folder")
        }
        guard present.count == 1, let missing = databases.first(where: { !present.contains($0) }) else { return }
        let gone =
            missing == "backend.sqlite"
            ? "the ledger of who owns the App Store's purchases is gone"
            : "the App Store's records of the ledger's purchases are gone"
        throw WorldSetupError(
            description: "\(folder)/\(missing): missing beside \(present[0]): \(gone); restore it or start a new folder"
        )
    }

    private static func checkKind(_ path: String, isFolder: Bool, holds: String) throws(WorldSetupError) {
        var foundFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &foundFolder), foundFolder != isFolder else {
            return
        }
        throw WorldSetupError(
            description:
                "\(path): is a \(foundFolder ? "folder" : "file"), the state folder keeps \(holds) in a "
                + "\(isFolder ? "folder" : "file") of that name; move it away or start a new folder")
    }

    /// Every purchase the backend recorded must be a transaction the store knows: an emptied or replaced
    /// appstore.sqlite would number new transactions again, and the backend would hand an old purchase
    /// to whoever brings the new one.
    static func crossCheck(store: AppStore, backend: Backend, folder: String) throws(WorldSetupError) {
        let purchases: [PurchaseRecord]
        do {
            purchases = try backend.ledger.allPurchases()
        } catch {
            throw WorldSetupError(description: "\(folder)/backend.sqlite: cannot be read (\(error.message))")
        }
        for purchase in purchases where store.knowsTransaction(purchase.originalTransactionId) != true {
            throw WorldSetupError(
                description:
                    "\(folder)/backend.sqlite records transaction \(purchase.originalTransactionId), which "
                    + "\(folder)/appstore.sqlite does not hold: the store's file was emptied or replaced")
        }
    }
}
