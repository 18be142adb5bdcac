import AppFlow
import FoundationEssentials
import SimKernel
import Simulation

/// Writes what happens to a world as a scenario: the setup, each reader action and world action in
/// the words a person would write, then expectations of the final screen, levels, identity and charges.
/// Every line it writes is a step that replays: an action the world refused is a comment.
public final class ScenarioRecorder {
    private var lines: [String]
    /// The world recorded (its clock and what is in flight), and the last action's line and the clock after it.
    private weak var world: World?
    private var lastAction: (line: Int, at: SimInstant)?
    /// The clock just after the last step, and whether (and when) the world settled since: the instant `play`'s
    /// clock stands at after that step. The time past it is idle time, written as `advance`: a renewal that came
    /// while the reader looked on was not in the recording (a `_timeRate` session, session 27).
    private var afterStep: SimInstant?
    private var settled: (since: Bool, at: SimInstant?) = (false, nil)

    /// Starts with the setup that rebuilds the world: app, seed, latency, any further `setup` and
    /// `settings`, then `launch`. `app` nil: no `app` line, for a world built around a `.storekit` file alone
    /// (`storekit FILE` in `setup`), which a named app would make an owner's app selling from the file.
    public init(
        app: String?, seed: UInt64, latency: LatencyProfile, setup: [SetupStep] = [], settings: [WorldAction] = [],
        comments: [String] = []
    ) {
        lines = comments.map { "# \($0)" }
        let steps = (app.map { [SetupStep.app($0)] } ?? []) + [.seed(seed)]
        for step in steps + setup {
            switch step {
            case .app(let path) where path.hasPrefix("/"): files.append((lines.count, step))
            case .storekit: files.append((lines.count, step))
            default: break
            }
            lines.append(StepText.setup(step))
            if case .seed = step { lines.append(WorldAction.latency(latency).text) }
        }
        lines += settings.map(\.text) + ["launch"]
    }

    /// The setup lines naming a file, by line: written relative to the recording's folder when it is saved.
    private var files: [(line: Int, step: SetupStep)] = []

    /// Records every reader action on `world`'s phones from now on.
    public func attach(to world: World) {
        self.world = world
        afterStep = world.scheduler.now
        settled = (false, nil)
        world.scheduler.onSettled = { [weak self] instant in
            guard let self, !settled.since else { return }
            settled = (true, instant)
        }
        world.onReaderAction = { [weak self, weak world] action in
            guard let self else { return }
            // Told as the phone handles it, before its own requests leave: what is in flight came before it.
            record(action, inFlight: world.map { !$0.scheduler.isIdle } ?? false, at: world?.scheduler.now)
        }
    }

    /// `inFlight`: answers of earlier steps were still on their way when the reader acted (a person is quicker
    /// than the network); the replay must act at the same moment, not once everything landed.
    public func record(_ action: ReaderAction, inFlight: Bool = false, at now: SimInstant? = nil) {
        step(StepText.reader(action), inFlight: inFlight, at: now)
    }

    /// An action the world did; one it refused changed nothing, so it is a comment, never a failing step.
    /// `inFlight` and `now` are as the world stood just before it.
    public func record(
        _ action: WorldAction, refusal: WorldActionRefusal? = nil, inFlight: Bool = false, at now: SimInstant? = nil
    ) {
        if let refusal {
            note("\(action.text) did nothing: \(refusal)")
        } else {
            step(action.text, inFlight: inFlight, at: now)
        }
    }

    /// A step that replays as it happened: `play` runs each step until nothing is in flight, so an action taken
    /// while the last one's answers were on their way makes that one `without waiting`, followed by the time that
    /// passed (`without waiting advance`): the same answers land before it, and the others after.
    private func step(_ text: String, inFlight: Bool, at now: SimInstant?) {
        if inFlight, let last = lastAction, let now {
            if !lines[last.line].hasPrefix("without waiting ") {
                lines[last.line] = "without waiting " + lines[last.line]
            }
            let gap = SimDuration(milliseconds: now.milliseconds - last.at.milliseconds)
            if gap > .zero { lines.append("without waiting advance \(gap)") }
        } else if let now, let idle = idleLine(until: now) {
            lines.append(idle)
        }
        lines.append(text)
        // A reader action is told before the phone handles it, a world action once done: either way the clock now.
        afterStep = world?.scheduler.now ?? now
        // The next gap counts from after this step: from before it, a time travel's own jump was written again as
        // `without waiting advance` and replayed twice (session 28).
        lastAction = (afterStep ?? now).map { (lines.count - 1, $0) }
        settled = (false, nil)
    }

    /// `advance` for the time the world stood idle after the last step until `now`, nil when none passed.
    private func idleLine(until now: SimInstant) -> String? {
        guard let start = settled.at ?? afterStep else { return nil }
        let gap = SimDuration(milliseconds: now.milliseconds - start.milliseconds)
        return gap > .zero ? "advance \(gap)" : nil
    }

    /// A `#` comment line.
    public func note(_ comment: String) { lines.append("# \(comment)") }

    /// The scenario so far, ending with what `world` shows now. `savedTo`: the file it is written to, whose folder
    /// the files it names are written relative to where they share one (`RecordedPath`).
    public func text(endingWith world: World, savedTo file: String? = nil) -> String {
        let idle = world.scheduler.isIdle ? idleLine(until: world.scheduler.now).map { [$0] } ?? [] : []
        var lines = lines
        if let file {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            for (line, step) in files {
                switch step {
                case .app(let path): lines[line] = StepText.setup(.app(RecordedPath.relative(path, from: folder)))
                case .storekit(let path):
                    lines[line] = StepText.setup(.storekit(RecordedPath.relative(path, from: folder)))
                default: break
                }
            }
        }
        return (lines + idle + [""] + Self.expectations(of: world).map(StepText.expectation)).joined(separator: "\n")
            + "\n"
    }

    /// The final screen, levels, identity and charges.
    public static func expectations(of world: World) -> [ScenarioExpectation] {
        let access = world.appState.access
        let identity: IdentityExpectation
        switch access.identity {
        case .none: identity = .none
        case .anonymous: identity = .anonymous
        case .account(let email): identity = .account(email)
        }
        return [
            .screen(world.screen.visibleID), .levels(access.levels.map(\.rawValue).sorted()), .identity(identity),
            .charges(world.charges, appleId: nil),
        ]
    }
}
