import Database
import FoundationEssentials
import Signing
import SimKernel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The work no implementation can skip, timed in the same process as the figure printed beside it,
/// so a ratio holds on a machine shared with others. CPU time, not wall time: other load does not count.
enum Floors {
    /// This process's CPU seconds so far.
    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// CPU seconds `work` takes.
    static func cpu(_ work: () throws -> Void) rethrows -> Double {
        let start = cpuSeconds()
        try work()
        return cpuSeconds() - start
    }

    /// Seconds per ES256 signature and per verification of a message the size of a notification.
    static func signature(rounds: Int = 300) -> (sign: Double, verify: Double) {
        guard let key = SigningKey(seed: Digest.sha256(Array("floor".utf8))) else { return (0, 0) }
        let message = [UInt8](repeating: 0x61, count: 1_500)
        var signature: [UInt8] = []
        let sign = cpu { for _ in 0..<rounds { signature = key.sign(message) } } / Double(rounds)
        // The point held apart from the private key: the key's own public half knows the signatures it made
        // and answers them without the arithmetic (`MadeSignatures`), which the floor is to count.
        let verifier = VerifyingKey(p256: key.publicKey.rawBytes, legacyEd25519: [])
        let verify =
            cpu { for _ in 0..<rounds { _ = verifier.isValidSignature(signature, for: message) } }
            / Double(rounds)
        return (sign, verify)
    }

    /// Seconds per one-row committed transaction: in memory (`path` nil) or in a WAL file as the ledgers are.
    static func commit(path: String?, rounds: Int = 300) throws -> Double {
        let database = try Database(path: path)
        try database.execute("CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, body TEXT)")
        return try cpu {
            for index in 0..<rounds {
                try database.transaction {
                    try database.run("INSERT INTO floor (body) VALUES (?)", [.text("row \(index)")])
                }
            }
        } / Double(rounds)
    }

    static func micros(_ seconds: Double) -> String { String(printf: "%.0f µs", seconds * 1e6) }
    static func millis(_ seconds: Double) -> String { String(printf: "%.2f ms", seconds * 1e3) }
    static func ratio(_ value: Double, _ floor: Double) -> String { String(printf: "%.2f×", value / max(floor, 1e-9)) }
}
