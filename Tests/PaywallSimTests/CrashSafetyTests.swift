import BackendSim
import Database
import Foundation
import SimKernel
import Subscriptions
import Testing

@testable import Simulation

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

    /// `bench lifecycle` (purchases, restores on new phones, renewals, refunds) on one state directory,
    /// killed 200 times at seeded points: after a seeded number of steps, then a seeded amount of
    /// further work in this process before the signal, so the kill lands anywhere in a step.
    /// After every kill both databases pass SQLite's integrity check, the ledger's invariants hold
    /// (at most 3 moves in 30 days, an unbroken chain of owners), and nothing paid is lost.
    @Test func twoHundredKillsDuringPurchasesRestoresAndRenewalsLoseNothingPaid() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = SeededGenerator(seed: 2026)
        var checkedPaid = 0
        for kill in 1...200 {
            let steps = Int(random.next() % 6) + 1
            let events = Int(random.next() % 40)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestSupport.binaryPath)
            process.arguments = [
                "bench", "lifecycle", "--state", directory, "--count", "1000000", "--seed", "\(kill)", "--progress",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // `steps` whole steps, then `events` events into the next one (a charge, an answer, a notification).
            var reader = ProgressReader()
            while !reader.reached(steps: steps, events: events) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                reader.read(data)
            }
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try #require(process.terminationReason == .uncaughtSignal, "kill \(kill): the workload ended by itself")
            checkedPaid += try checkAfterKill(directory: directory, kill: kill)
        }
        // The kills hit a workload that had something to lose.
        #expect(checkedPaid > 100)
    }

    /// Integrity, ledger invariants, and a restore on a fresh phone of the Apple ID; the number of paid
    /// subscriptions it checked.
    private func checkAfterKill(directory: String, kill: Int) throws -> Int {
        for file in ["backend.sqlite", "appstore.sqlite"] {
            #expect(try Database(path: "\(directory)/\(file)").integrityCheck() == "ok", "kill \(kill): \(file)")
        }
        #expect(
            try LedgerCheck.violations(in: BackendLedger(path: directory + "/backend.sqlite")) == [], "kill \(kill)")

        let config = try TestSupport.demoConfig()
        let world = try World(
            config: config,
            options: WorldOptions(latency: .none, stateDirectory: directory, deviceName: "check-\(kill)"))
        let paid = world.paidSubscriptions.count
        guard paid > 0 else { return 0 }
        world.launch()
        world.scheduler.runUntilIdle()
        // The world was opened on a phone named for this kill: it is the fresh phone that restores.
        #expect(world.nothingLostViolations(newPhone: false) == [], "kill \(kill)")
        return paid
    }
}

/// Counts the workload's `progress N` lines, and the `event` lines since the last of them, as output arrives.
private struct ProgressReader {
    private(set) var steps = 0
    private(set) var eventsSinceStep = 0
    private var partial: [UInt8] = []

    mutating func read(_ data: Data) {
        for byte in data {
            guard byte == UInt8(ascii: "\n") else {
                partial.append(byte)
                continue
            }
            if partial.starts(with: Array("progress ".utf8)) {
                steps += 1
                eventsSinceStep = 0
            } else if partial == Array("event".utf8) {
                eventsSinceStep += 1
            }
            partial.removeAll(keepingCapacity: true)
        }
    }

    /// Whether `steps` steps were done and then `events` events of the next one.
    func reached(steps: Int, events: Int) -> Bool {
        self.steps > steps || (self.steps == steps && eventsSinceStep >= events)
    }
}
