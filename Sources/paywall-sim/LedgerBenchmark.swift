import BackendSim
import Database
import FoundationEssentials
import Signing
import SimKernel
import Simulation
import StoreSim
import WhiteLabel

/// Validated purchases per second: each is a charge on the fake store (appstore.sqlite) and a
/// `POST /v1/receipts` that verifies the signed receipt and writes the ledger (backend.sqlite), both on
/// disk in WAL mode. Beside it, raw SQLite inserts with the same settings, one transaction each.
enum LedgerBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        let count = options.count ?? 2_000
        let directory =
            options.state ?? FileManager.default.temporaryDirectory.path + "/"
            + "paywall-sim-bench-\(ProcessInfo.processInfo.processIdentifier)"
        let lock = try BenchFolder.own(directory)
        defer {
            withExtendedLifetime(lock) {}
            if options.state == nil { try? FileManager.default.removeItem(atPath: directory) }
        }

        let (config, _) = try AppArgument.load(nil)
        let scheduler = Scheduler()
        let timeline = Timeline(clock: { scheduler.now })
        let (store, backend) = try BenchFolder.opening(lock) {
            if options.state != nil {
                // Checked as `run` checks it, and another app's folder is not this benchmark's to write daily-news
                // purchases into (session 25).
                do {
                    try StateCheck.check(folder: directory)
                    try StateCheck.checkApp(folder: directory, config: config)
                } catch {
                    throw UsageError(message: "\(error)")
                }
            }
            // A folder's own keys, as `run --state` makes them, so the folder stays usable by later runs.
            let keys = try Keyring.folder(
                directory, legacy: FileManager.default.fileExists(atPath: directory + "/appstore.sqlite"))
            let store = try AppStore(
                store: config.store, bundleId: config.app.bundleId, scheduler: scheduler, timeline: timeline,
                random: SeededGenerator(seed: 1), latency: .none, databasePath: directory + "/appstore.sqlite",
                keys: keys)
            do {
                let backend = try Backend(
                    config: config, store: store, clock: { scheduler.now }, timeline: timeline,
                    databasePath: directory + "/backend.sqlite", keys: keys)
                return (store, backend)
            } catch {
                // The store's scheduled events hold it, its file open: the refused folder kept its `-wal` and `-shm`
                // (session 32). Gone, the store closes before `restore` looks.
                scheduler.removeAll()
                throw error
            }
        }
        let product = config.store.products[0].productId
        var failures = 0
        var seconds = 0.0
        let cpu = Floors.cpu {
            seconds = measure {
                for index in 0..<count {
                    let slot = MemoryReceipt()
                    let device = "bench-phone-\(index)"
                    let queue = store.paymentQueue(
                        deviceId: device, appleId: "reader-\(index)@icloud.test", receipt: slot)
                    queue.startObserving { queue.finish($0.transactionIdentifier) }
                    queue.add(productIdentifier: product)
                    scheduler.runUntilIdle()
                    queue.answerSheet(confirm: true)
                    scheduler.runUntilIdle()
                    // The body the app sends (`ReceiptBody.json`: JSONEncoder's bytes, a JWS having nothing to
                    // escape), without the encoder's cost, as `bench renewals` posts its notifications.
                    let body = Array(#"{"receipt":""#.utf8) + Array((slot.receipt ?? "").utf8) + Array(#""}"#.utf8)
                    let response = backend.handle(
                        HTTPRequest(method: "POST", path: "/v1/receipts", headers: ["X-Device-Id": device], body: body))
                    if response.status != 200 { failures += 1 }
                    if options.progress && (index + 1) % 50 == 0 {
                        StandardStream.output("progress \(index + 1)\n")
                    }
                }
            }
        }
        // The measuring databases are the run's own, on the same disk, and go with it: left in the folder, the next
        // run's inserts met the last one's rows ("UNIQUE constraint failed", session 26).
        let floors = try StateFolder.scratch(in: directory, prefix: "bench-floors")
        defer { floors.remove() }
        let rawSeconds = try rawInserts(count: count, path: floors.path + "/raw.sqlite")
        print(
            "ledger: \(count) validated purchases in \(format(seconds)) s = \(Int(Double(count) / seconds)) per second (failures: \(failures))"
        )
        print(
            "raw SQLite: \(count) single-row transactions in \(format(rawSeconds)) s = \(Int(Double(count) / rawSeconds)) per second"
        )
        let perPurchase = cpu / Double(count)
        let (sign, verify) = Floors.signature()
        let commit = try Floors.commit(path: floors.path + "/floor.sqlite")
        let floor = sign + verify + 2 * commit
        print(
            "ledger: CPU \(Floors.millis(perPurchase)) per validated purchase; unavoidable \(Floors.micros(floor)) = one ES256 "
                + "signature \(Floors.micros(sign)) + one verification \(Floors.micros(verify)) + two commits of "
                + "\(Floors.micros(commit)): \(String(printf: "%.0f", floor / perPurchase * 100)) % of the time")
        BenchTable.shared.add(
            "validated purchase (`bench ledger`)", "\(Floors.millis(perPurchase)) CPU",
            floor: "unavoidable \(Floors.micros(floor)) (1 sign + 1 verify + 2 commits) = "
                + "\(String(printf: "%.0f", floor / perPurchase * 100)) %", goal: "unavoidable ≥ 50 %")
    }

    /// The same number of one-row transactions into a table shaped like the ledger's purchases.
    private static func rawInserts(count: Int, path: String) throws -> Double {
        let database = try Database(path: path)
        try database.execute(
            "CREATE TABLE IF NOT EXISTS purchases (id TEXT PRIMARY KEY, product_id TEXT, owner_id TEXT, expires_ms INTEGER)"
        )
        return try measure {
            for index in 0..<count {
                try database.transaction {
                    try database.run(
                        "INSERT INTO purchases (id, product_id, owner_id, expires_ms) VALUES (?, ?, ?, ?)",
                        [.text("raw-\(index)"), .text("product"), .text("owner-\(index)"), .integer(Int64(index))])
                }
            }
        }
    }

    private static func format(_ seconds: Double) -> String { String(printf: "%.3f", seconds) }
}

/// A receipt kept in memory, for benchmarks.
final class MemoryReceipt: ReceiptSlot {
    var receipt: String?
    func load() -> String? { receipt }
    func save(_ receipt: String?) { self.receipt = receipt }
}
