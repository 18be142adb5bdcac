import Database
import SimKernel
import StoreSim
import Subscriptions

/// Errors met on a money or access path: a file or a ledger that could not be read or written. Each is
/// a line on the timeline when it happens; `run` repeats them on stderr at the end, so none is silent.
extension World {
    public var problems: [String] { ownProblems + store.errors }

    /// The first file of the state folder the disk could not write or read (full, a file-size limit, an I/O
    /// error), store's or ledger's: nothing more can be kept, and `run` ends with it said once (h3 03).
    public var storageFailure: StorageFailure? { store.storageFailure ?? backend.storageFailure }

    /// A phone's files report what they could not read or write.
    func watch(_ storage: PhoneStorage) {
        guard let files = storage as? DeviceFiles else { return }
        files.onProblem = { [weak self] problem in self?.report(problem, from: .app) }
    }

    func report(_ problem: String, from source: TimelineSource) {
        ownProblems.append(problem)
        timeline.log(source, problem)
    }

    /// `work`'s value, or nil once its error is reported: a control that failed says so.
    func attempt<T>(_ what: String, _ work: () throws -> T) -> T? {
        do {
            return try work()
        } catch {
            report("error: cannot \(what): \(error)", from: .control)
            return nil
        }
    }
}
