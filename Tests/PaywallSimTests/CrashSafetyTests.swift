import BackendSim
import Foundation
import Testing

/// The real process killed with SIGKILL while it writes the ledger: what is left must hold.
@Suite struct CrashSafetyTests {
    /// Starts the ledger benchmark on `directory`, waits for `progressLines` progress lines, kills it.
    private func killMidWrite(directory: String, afterProgressLines progressLines: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.binaryPath)
        process.arguments = ["bench", "ledger", "--count", "1000000", "--state", directory, "--progress"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = 0
        var buffer = ""
        while seen < progressLines {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            seen = buffer.components(separatedBy: "progress ").count - 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the benchmark ended before it could be killed")
    }

    @Test func aLedgerKilledDuringWritesStillHolds() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for kill in 1...5 {
            try killMidWrite(directory: directory, afterProgressLines: kill)
            let ledger = try BackendLedger(path: directory + "/backend.sqlite")
            #expect(try ledger.integrityCheck() == "ok")
            #expect(try LedgerCheck.violations(in: ledger) == [])
            #expect(try ledger.allPurchases().count >= 50 * kill)
        }
        let check = try TestSupport.runBinary(["check", "--ledger", "--state", directory])
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("the ledger holds"))
    }
}
