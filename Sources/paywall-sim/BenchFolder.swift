import FoundationEssentials
import Simulation

/// `bench ledger --state DIR` and `bench lifecycle --state DIR` write into DIR itself: purchases, renewals, refunds,
/// a plan change, a year of virtual time, and the ledger benchmark's `raw.sqlite` and `floor.sqlite`. Pointed at a
/// person's `run` folder they upgraded the demo reader's plan, charged it twice and moved its purchase to another
/// phone (session 26). They take a folder that is new, empty, or marked as made by an earlier bench, and refuse any
/// other before writing a byte into it.
enum BenchFolder {
    /// The mark a benchmark leaves in a folder it made.
    static let markName = "made-by-bench"

    /// Checks that `path` is the benchmark's to write, takes its lock, and marks it as the benchmark's.
    static func own(_ path: String) throws(UsageError) -> StateLock {
        var isFolder = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
            // A lone lock file is a killed bench's, or a run's that wrote nothing: nothing in it is a person's.
            let held = try StateFolder.contents(path)
            if !held.isEmpty && !held.contains(markName) {
                let isState = held.contains { StateCheck.databases.contains($0) }
                let shown = StateFolder.shown(held)
                throw UsageError(
                    message: "--state: \(path) holds \(isState ? "a state folder" : "files") bench did not make "
                        + "(\(shown)); bench writes purchases, renewals and refunds into its folder: name a new or "
                        + "empty folder")
            }
        }
        let lock = try StateFolder.own(path)
        let mark = "\(path)/\(markName)"
        if !FileManager.default.fileExists(atPath: mark) {
            let text = "made by paywall-sim bench, which writes only into a folder holding this file, or a new one\n"
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: mark))
            } catch {
                throw UsageError(message: "--state: cannot write \(mark) (\(error.failureDescription))")
            }
        }
        return lock
    }

    /// Opens what the benchmark measures on the folder `lock` holds; refused, the lock file is put back as it was
    /// found, as `run` puts it back: a refused folder is left byte for byte (h3, session 29).
    static func opening<Opened>(_ lock: StateLock, _ open: () throws -> Opened) throws -> Opened {
        do {
            return try open()
        } catch {
            lock.restore()
            throw error
        }
    }
}
