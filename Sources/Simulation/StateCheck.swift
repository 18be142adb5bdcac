import BackendSim
import Database
import FoundationEssentials
import StoreSim

/// A reopened state folder is checked before anything writes into it: a database with a damaged page
/// was used silently (the store's figures read from garbage, the backend's writes went on top).
enum StateCheck {
    /// SQLite's `quick_check` of each database the folder holds; throws naming the file.
    static func check(folder: String) throws(WorldSetupError) {
        for name in ["appstore.sqlite", "backend.sqlite"] {
            let path = "\(folder)/\(name)"
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let result: String
            do {
                result = try Database(path: path).query("PRAGMA quick_check").compactMap { $0.first?.string }
                    .joined(separator: "; ")
            } catch {
                throw WorldSetupError(description: "\(path): cannot be opened as a database (\(error.message))")
            }
            guard result == "ok" else {
                throw WorldSetupError(
                    description: "\(path): damaged (SQLite: \(result.prefix(200))); restore it or start a new folder")
            }
        }
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
