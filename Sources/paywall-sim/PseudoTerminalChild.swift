import CTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process in a pseudo-terminal of its own, as a terminal emulator runs it: keys are written to
/// it, and what it draws is read back as the bytes a real terminal would receive.
struct PseudoTerminalChild {
    let pid: pid_t
    let master: Int32

    /// Starts `path` in a new session whose controlling terminal is a new pseudo-terminal of that size.
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String], rows: UInt16, columns: UInt16
    ) throws(UsageError) -> PseudoTerminalChild {
        var master: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        let opened = pws_open_pseudo_terminal(rows, columns, &master, &name, UInt(name.count))
        guard opened == 0 else {
            throw UsageError(message: "terminal: no pseudo-terminal: \(String(cString: strerror(opened)))")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session: the terminal opened below, without O_NOCTTY, becomes its controlling terminal.
        posix_spawnattr_setflags(&attributes, pws_spawn_new_session_flag())
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else {
            close(master)
            throw UsageError(message: "terminal: cannot start \(path): \(String(cString: strerror(code)))")
        }
        return PseudoTerminalChild(pid: pid, master: master)
    }

    /// Types `bytes`, as the terminal sends a key.
    func type(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if count > 0 {
                sent += count
            } else if count < 0 && errno != EINTR {
                return
            }
        }
    }

    /// What the child writes until it has been quiet for `quiet` milliseconds, or has closed its terminal,
    /// or `limit` milliseconds have passed.
    func readUntilQuiet(quiet: Int32, limit: Int32 = 10_000) -> [UInt8] {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(limit))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while clock.now < deadline {
            var wanted = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wanted, 1, quiet)
            if ready == 0 { break }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[0..<count]
            } else if !(count < 0 && errno == EINTR) {
                break  // EIO: the child closed its terminal
            }
        }
        return bytes
    }

    /// Waits up to `limit` milliseconds for the child to exit, reading what it still writes so it never
    /// blocks on a full terminal: its exit code (128 + the signal that ended it), or nil if it still runs.
    func finish(limit: Int32 = 5_000) -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(limit))
        while clock.now < deadline {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                close(master)
                let signal = status & 0x7F
                return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            }
            if reaped < 0 && errno != EINTR { break }
            _ = readUntilQuiet(quiet: 20, limit: 20)
        }
        return nil
    }

    /// Ends a child that did not quit when asked, and reaps it.
    func end() {
        kill(pid, SIGKILL)
        reap(pid)
        close(master)
    }
}

/// Waits for a child to exit.
private func reap(_ pid: pid_t) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
}
