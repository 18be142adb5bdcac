import FoundationEssentials
import SimKernel

/// The virtual clock of a world kept on disk survives the process: a reopened state directory
/// carries on from where it stopped, never from the world's first morning again.
extension World {
    /// `clock` in the state directory: the instant the last run stopped at, in milliseconds.
    private var clockFile: String? { options.stateDirectory.map { "\($0)/clock" } }

    /// Moves a reopened world's clock to the latest of: the instant the last run saved, the store's
    /// latest record of any Apple ID (a payment confirmed on Apple's sheet and held too: charged after a kill at an
    /// instant before its confirmation, time went back, session 27), the ledger's last change (a run killed before it
    /// could save still left those).
    /// A fresh world stays where it starts. Refused: an instant past `SimInstant.latest`, and a clock file more
    /// than ten years past the store's and the ledger's last records (a garbled or hand-edited file): catching
    /// up to it would charge renewals for centuries before the first frame. Ten years at most is bounded work.
    func resumeClock() throws(WorldSetupError) {
        let saved = try savedClock()
        let lastRecord = store.latestRecorded()
        let lastChange = attempt("read the ledger's last change") { try backend.ledger.latestChange() } ?? nil
        for (instant, source) in [
            (saved, "its clock file"), (lastRecord, "its App Store records"), (lastChange, "its ledger"),
        ]
        where instant.map({ $0 > SimInstant.latest }) ?? false {
            throw WorldSetupError(
                description:
                    "\(options.stateDirectory ?? "the state folder"): \(source) is past \(SimInstant.latest), "
                    + "the latest instant a world may reach; remove the folder or its clock file")
        }
        let recorded = [lastRecord, lastChange, scheduler.now].compactMap { $0 }.max()!
        if let saved, saved - recorded > .longest {
            throw WorldSetupError(
                description:
                    "\(clockFile!): \(saved) is more than ten years past the App Store's or the ledger's last record "
                    + "(\(recorded)); remove the clock file to carry on from those")
        }
        guard let last = [saved, lastRecord, lastChange].compactMap({ $0 }).max(), last > scheduler.now else { return }
        scheduler.run(until: last)
        timeline.log(.control, "state reopened: the clock carries on from where the last run stopped")
        scheduler.runUntilIdle()
    }

    /// The instant the clock file holds; nil when there is none. One that is there but cannot be read, or
    /// holds no number, is refused naming it: taken as none, the world would lose the time travelled since
    /// the last record.
    private func savedClock() throws(WorldSetupError) -> SimInstant? {
        guard let clockFile, FileManager.default.fileExists(atPath: clockFile) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: clockFile, encoding: .utf8)
        } catch {
            throw WorldSetupError(description: "\(clockFile): cannot be read (\(error.failureDescription))")
        }
        // Digits alone, as `saveClock` writes them: "-5" and "+5" were read as numbers (h3, session 29).
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let milliseconds = Int64(digits)
        else {
            throw WorldSetupError(
                description: "\(clockFile): not a number of milliseconds; remove it to carry on from the last records")
        }
        // Before the first morning every world starts at, the file was ignored in silence: no run writes one.
        let saved = SimInstant(milliseconds: milliseconds)
        guard saved >= .worldStart else {
            throw WorldSetupError(
                description: "\(clockFile): \(saved) is before \(SimInstant.worldStart.dateDescription), the first "
                    + "morning of every world; remove it to carry on from the last records")
        }
        return saved
    }

    /// Writes the clock to the state directory (atomically), so the next run carries on from here.
    public func saveClock() {
        guard let clockFile else { return }
        _ = attempt("save the clock") {
            try StateFile.write(Data(String(scheduler.now.milliseconds).utf8), to: clockFile)
        }
    }
}
