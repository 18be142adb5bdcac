import BackendSim
import Database
import FoundationEssentials
import Signing
import Simulation
import StoreSim
import WhiteLabel

/// `paywall-sim check --ledger`: verifies the backend ledger's invariants on a state directory.
enum CheckCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        let options = try Options(
            arguments, valued: ["--state", "--app", "--storekit", "--storefront", "--locale"],
            flags: ["--ledger", "--paywall"])
        if options.has("--help") {
            print(Usage.check)
            return ExitCode.ok
        }
        if options.has("--paywall") {
            // The report lists the products not on the paywall, with their titles: stderr keeps the other warnings.
            var (config, _) = try AppArgument.load(
                options["--app"], storekit: options["--storekit"], reportsUnsold: true)
            try PaywallCheck.place(&config, storefront: options["--storefront"], locale: options["--locale"])
            print(try PaywallCheck.report(config: config))
            if !options.has("--ledger") { return ExitCode.ok }
        }
        for option in ["--storefront", "--locale"] where options[option] != nil && !options.has("--paywall") {
            throw UsageError(message: "\(option) goes with --paywall")
        }
        guard options.has("--ledger") else { throw UsageError(message: "say what to check: --ledger or --paywall") }
        let (directory, given) = try stateFolder(options)
        let path = directory + "/backend.sqlite"
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError(message: "\(given)no ledger at \(path)")
        }
        do {
            try StateCheck.checkNotEmptied(folder: directory)
        } catch {
            throw UsageError(message: error.description)
        }
        // Held until the check is done: no owner writes the folder while it is read.
        let hold: StateLock?
        do {
            hold = try StateLock.reading(folder: directory)
        } catch {
            throw UsageError(message: error.description)
        }
        defer { withExtendedLifetime(hold) {} }
        // Read only: checking a file must never migrate it, nor stamp a ledger's schema into another database.
        let ledger: BackendLedger
        do {
            ledger = try BackendLedger(readingOnly: path)
        } catch {
            throw UsageError(message: "\(path): \(error)")
        }
        // Without the App Store's records the ledger cannot be checked against them: refused, as `run` refuses it.
        let storePath = directory + "/appstore.sqlite"
        let store: StoreRecords
        do {
            try StateCheck.checkKeptTogether(folder: directory)
            store = try StoreRecords(readingOnly: storePath)
        } catch let error as WorldSetupError {
            throw UsageError(message: error.description)
        } catch let error as DatabaseError where error.storage != nil {
            // A full disk kept a healthy file from being read: not a sign it is another program's (h3 06).
            throw UsageError(message: "\(storePath): cannot be read (\(error.storage!.reason))")
        } catch {
            throw UsageError(message: "\(storePath): not the App Store's records (\(error))")
        }
        // The folder's keys, read and never made: with them a move by purchase is held to the customer its payment's
        // appAccountToken names, which nobody without them can compute (a forged move hashed into the chain, h11).
        var keys: Keyring?
        if FileManager.default.fileExists(atPath: directory + "/keys") {
            do {
                keys = try Keyring.folder(directory, legacy: false)
            } catch {
                throw UsageError(message: error.description)
            }
        }
        // The databases as a pair first: a store file from another folder, or one behind the ledger, is what `run`
        // refuses; the ledger read against it said "holds" (session 29).
        let violations =
            StateKinship.problems(folder: directory)
            + (try LedgerCheck.violations(in: ledger, against: store, keys: keys))
        // Apple's news the last run stopped before delivering: the ledger is behind it, and the next run delivers it.
        let onItsWay = try store.newsOnItsWay().map { "Apple's \($0) is still on its way: the next run delivers it" }
        if violations.isEmpty {
            let (purchases, moves) = (try ledger.allPurchases().count, try ledger.moves().count)
            print(
                "\(path): the ledger holds (\(purchases) purchase\(purchases == 1 ? "" : "s"), "
                    + "\(moves) move\(moves == 1 ? "" : "s"))")
            for news in onItsWay { print("note: \(news)") }
            return ExitCode.ok
        }
        print("\(path): \(violations.count) violation\(violations.count == 1 ? "" : "s")")
        for violation in violations { print("- \(violation)") }
        for news in onItsWay { print("note: \(news)") }
        return ExitCode.failures
    }

    /// `--state DIR`, else the folder `run` keeps the app's state in, the app resolved as `run` resolves it (a
    /// name, a config file, a .storekit file), with what a message about it begins with: the option given.
    /// `--app nosuch` said "--state: no ledger at …", and a config's path became part of the folder (session 26).
    private static func stateFolder(_ options: Options) throws(UsageError) -> (folder: String, given: String) {
        if let state = options["--state"] { return (state, "--state: ") }
        let (config, _) = try AppArgument.load(options["--app"], storekit: options["--storekit"])
        let folder = RunCommand.defaultStateDirectory(for: config)
        guard let option = ["--app", "--storekit"].first(where: { options[$0] != nil }) else {
            return (folder, "\(config.app.id)'s state folder: ")
        }
        return (folder, "\(option) \(options[option]!): ")
    }
}
