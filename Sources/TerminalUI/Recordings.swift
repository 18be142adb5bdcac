import FoundationEssentials
import Scenarios
import SimKernel
import Simulation

/// The terminal's recordings: the whole session is recorded from launch; `r` marks a stretch and, on
/// stop, writes the session so far as `recording-N.scenario`; `--record FILE` writes it all on quit.
public final class Recordings {
    private let recorder: ScenarioRecorder
    private let sessionFile: String?
    private let directory: String
    /// `r` was pressed again: the file is written once nothing is in flight.
    private var stopRequested = false
    public private(set) var isRecording = false
    /// What to tell the person once the terminal is restored (where files went, or why they did not).
    public private(set) var messages: [String] = []
    /// A recording could not be written: the session is lost, and `run` exits 2 (it exited 0, session 26).
    public private(set) var writeFailed = false

    /// Why this world's recordings would not replay (it opened a state folder earlier sessions wrote, which a
    /// scenario starts without): `r` says so and records nothing.
    private let unreplayable: String?

    public init(recorder: ScenarioRecorder, sessionFile: String?, directory: String, unreplayable: String? = nil) {
        self.recorder = recorder
        self.sessionFile = sessionFile
        self.directory = directory
        self.unreplayable = unreplayable
    }

    func attach(to world: World) { recorder.attach(to: world) }

    /// A control pressed: its action is the step; refused, it changed nothing and is only a comment. `inFlight` and
    /// `now`: the world just before the press.
    func control(_ action: WorldAction, refusal: WorldActionRefusal?, inFlight: Bool, at now: SimInstant) {
        recorder.record(action, refusal: refusal, inFlight: inFlight, at: now)
    }

    /// The key bar's "● REC": a stretch started with `r`, or the whole session for `--record FILE`.
    var showsMark: Bool { isRecording || sessionFile != nil }

    /// `r`: starts recording, or asks to stop (the file is written when the world is idle).
    /// A stop asked while answers are on their way is said on the timeline: the key bar keeps "● REC" until they land
    /// (a minute or two for Apple's notifications on a slow profile), and a second `r` seemed to be ignored (session 38).
    func toggle(_ world: World) {
        if isRecording {
            stopRequested = true
            if !world.scheduler.isIdle {
                world.timeline.log(.control, "● REC stops once the answers on their way have landed")
            }
            return
        }
        if let unreplayable {
            world.timeline.log(.control, "● REC not started: \(unreplayable)")
            return
        }
        isRecording = true
        let at = "\(world.scheduler.now)"
        recorder.note("recording started here (\(at) on the timeline)")
        world.timeline.log(.control, "● REC recording started")
    }

    /// Called every turn of the loop: writes a stopped recording once no answer is in flight.
    func settle(_ world: World) {
        guard stopRequested, world.scheduler.isIdle else { return }
        stopRequested = false
        isRecording = false
        let path = Self.freePath(in: directory)
        write(to: path, world: world)
        recorder.note("\(path.split(separator: "/").last.map(String.init) ?? path) stopped here")
    }

    /// The app quits: what is in flight lands, then the session (and a recording still on) is written.
    func finish(_ world: World) {
        guard sessionFile != nil || isRecording else { return }
        world.scheduler.runUntilIdle()
        if isRecording { stopRequested = true }
        settle(world)
        if let sessionFile { write(to: sessionFile, world: world) }
    }

    private func write(to asked: String, world: World) {
        let path = KeptFile.path(asked, own: .recording)
        if path != asked {
            world.timeline.log(.control, "\(asked) is not a recording now: kept, and the recording goes to \(path)")
        }
        do {
            try OutputWriter.write(recorder.text(endingWith: world, savedTo: path), to: path, as: .recording)
            world.timeline.log(.control, "recording saved to \(path)")
            messages.append("recording saved to \(path)")
        } catch {
            writeFailed = true
            world.timeline.log(.control, "could not write \(path): \(error)")
            messages.append("could not write \(path): \(error)")
        }
    }

    /// `recording-1.scenario`, or the first number not taken.
    private static func freePath(in directory: String) -> String {
        var number = 1
        while FileManager.default.fileExists(atPath: "\(directory)/recording-\(number).scenario") { number += 1 }
        return "\(directory)/recording-\(number).scenario"
    }
}
