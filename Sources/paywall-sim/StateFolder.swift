import FoundationEssentials
import Simulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--state DIR` as the commands take it: checked before any work, created, and owned by one process.
enum StateFolder {
    /// Checks that `path` can be the folder (not empty, not a file) and creates it; the folders it made, outermost
    /// first.
    @discardableResult
    static func prepare(_ path: String, option: String = "--state") throws(UsageError) -> [String] {
        guard !path.isEmpty else { throw UsageError(message: "\(option) needs a folder, not an empty name") }
        var isFolder = false
        var made: [String] = []
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder else { throw UsageError(message: "\(option): \(path) is a file, not a folder") }
        } else if let reason = makeFolders(path, made: &made) {
            throw UsageError(message: "\(option): cannot create \(path) (\(reason))")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw UsageError(message: "\(option): cannot write in \(path) (\(String(cString: strerror(errno))))")
        }
        return made
    }

    /// Prepares the folder and takes its lock: two processes on one folder would mix two worlds' clocks
    /// and ids in one ledger. Keep the returned lock for as long as the folder is used.
    static func own(_ path: String, option: String = "--state") throws(UsageError) -> StateLock {
        try prepare(path, option: option)
        try checkNotAStranger(path, option: option)
        // A folder refused for what its names are gets not even a lock file.
        do {
            try StateCheck.checkShape(folder: path)
        } catch {
            return try settledOwner(path, refusal: error)
        }
        let lock: StateLock
        do {
            lock = try StateLock(folder: path)
        } catch {
            throw UsageError(message: error.description)
        }
        // Owned now: no other run writes here, so a temp file is one a killed run left (session 28).
        StateFile.removeStale(in: path)
        return lock
    }

    /// Names only a state folder holds: `app` is the first file every run writes into a new one, `keys` and the
    /// databases come with it, and an older folder has its databases.
    static let marks = StateCheck.databases + ["app", "keys", BenchFolder.markName]

    /// What `path` holds besides what a run killed before it wrote anything leaves there (a lock file, a temp file).
    static func contents(_ path: String, option: String = "--state") throws(UsageError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0 != StateLock.fileName && !StateFile.isTemporary($0) }.sorted()
        } catch {
            throw UsageError(message: "\(option): cannot read \(path) (\(error.failureDescription))")
        }
    }

    /// A folder that holds files and nothing of a state folder is refused, untouched: `run --state .` or
    /// `--state ~/notes` wrote its state among a person's files, over their `phone` and `lock` (session 29). The rule
    /// `bench` had for its folders, for every command that writes into `--state`: it never writes over what it did not
    /// make.
    static func checkNotAStranger(_ path: String, option: String = "--state") throws(UsageError) {
        let held = try contents(path, option: option)
        guard !held.isEmpty, !held.contains(where: marks.contains) else { return }
        throw UsageError(
            message: "\(option): \(path) holds files paywall-sim did not make (\(shown(held))) and is not a state "
                + "folder; paywall-sim writes its state into the folder itself: name a new or empty folder")
    }

    /// The first few names, for a message.
    static func shown(_ names: [String]) -> String {
        names.prefix(4).joined(separator: ", ") + (names.count > 4 ? ", …" : "")
    }

    /// A folder whose shape was refused while it has an owner, or had one: seen while another run makes it (its
    /// databases still 0 bytes, or one made and not yet the other), the shape is that run's work in progress, and
    /// "records gone" was a false alarm for a run started beside it on a new folder (session 27). That run's lock
    /// says the folder is in use; taken, the shape is judged again, settled.
    private static func settledOwner(_ path: String, refusal: WorldSetupError) throws(UsageError) -> StateLock {
        let owner: StateLock?
        do {
            owner = try StateLock.existing(folder: path)
        } catch {
            throw UsageError(message: error.description)
        }
        guard let owner else { throw UsageError(message: refusal.description) }
        do {
            try StateCheck.checkShape(folder: path)
        } catch {
            throw UsageError(message: error.description)
        }
        owner.signPid()
        StateFile.removeStale(in: path)
        return owner
    }

    /// A fresh subfolder of `path` that this run made: with the folders made to hold it, the only things it may
    /// remove when done.
    static func scratch(in path: String, prefix: String, option: String = "--state") throws(UsageError)
        -> ScratchFolder
    {
        let made = try prepare(path, option: option)
        var template = Array("\(path)/\(prefix)-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            let reason = String(cString: strerror(errno))
            ScratchFolder.removeEmpty(made)
            throw UsageError(message: "\(option): cannot create a folder in \(path) (\(reason))")
        }
        return ScratchFolder(path: String(cString: created), madeAround: made)
    }

    /// `mkdir -p`, with the reason of the first folder that could not be made.
    private static func makeFolders(_ path: String, made: inout [String]) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) == 0 {
                made.append(String(prefix.dropLast()))
            } else if errno != EEXIST {
                return "\(String(prefix.dropLast())): \(String(cString: strerror(errno)))"
            }
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder else {
            return "a file is in the way"
        }
        return nil
    }
}

/// A run's own working folder, and the folders `--state` named that the run made to hold it (`fuzz --state
/// new/dir`): a command leaves behind only what it means to keep.
struct ScratchFolder {
    let path: String
    let madeAround: [String]

    /// Removes the folder, then the folders made around it that are still empty.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
        Self.removeEmpty(madeAround)
    }

    /// Innermost first; one that holds something now (another process's files) stops it.
    static func removeEmpty(_ folders: [String]) {
        for folder in folders.reversed() where rmdir(folder) != 0 { return }
    }
}
