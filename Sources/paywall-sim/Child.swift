#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process whose standard output comes back through a pipe (what Foundation's Process and Pipe did
/// for `play --jobs`): posix_spawn, read to the end, wait.
struct Child {
    let pid: pid_t
    let output: Int32

    static func spawn(_ path: String, _ arguments: [String]) throws(UsageError) -> Child {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw UsageError(message: "--jobs: no pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let code = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(ends[1])
        guard code == 0 else {
            close(ends[0])
            throw UsageError(message: "--jobs: cannot start \(path): \(String(cString: strerror(code)))")
        }
        return Child(pid: pid, output: ends[0])
    }

    /// Everything the child writes, until it closes its output.
    func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(output, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(output)
        return bytes
    }

    /// The exit code, or the number of the signal that ended it (as Process's `terminationStatus`).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }
}
