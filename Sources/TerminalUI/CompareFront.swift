import SimKernel
import Simulation
import WhiteLabel

/// `compare --live`: two worlds side by side in the terminal, driven by one keyboard.
public enum CompareFront {
    /// Runs the screen over `worlds` (launched, in the same state of the same scenario) until `q` (0) or
    /// a stop signal (128 + its number). The terminal is restored on every way out.
    public static func run(worlds: [World], labels: [String], theme: Theme) throws(TerminalError) -> Int32 {
        let session = try TerminalSession.start(theme: theme)
        defer { session.end() }
        var loop = CompareLoop(worlds: worlds, labels: labels, session: session, theme: theme)
        return loop.run()
    }
}

/// The interactive loop of `compare --live`: each world's clock follows wall time on its own driver; a
/// reader's key goes to every world, and so does a control, unless the worlds differ in it (`ComparedControls`).
struct CompareLoop {
    let worlds: [World]
    let labels: [String]
    let session: TerminalSession
    let theme: Theme
    var drivers: [RealTimeDriver]
    var state = FrontState()
    private var painted: Frame?
    private var repaintAll = true

    init(worlds: [World], labels: [String], session: TerminalSession, theme: Theme) {
        self.worlds = worlds
        self.labels = labels
        self.session = session
        self.theme = theme
        let wall = MonotonicClock.nanoseconds()
        drivers = worlds.map {
            RealTimeDriver(anchorWallNanoseconds: wall, anchorVirtual: $0.scheduler.now, speed: 1.0)
        }
    }

    /// Returns the exit code.
    mutating func run() -> Int32 {
        while true {
            if let signal = session.stopSignal { return 128 + signal }
            let wall = MonotonicClock.nanoseconds()
            for index in worlds.indices {
                let scheduler = worlds[index].scheduler
                scheduler.run(until: drivers[index].target(atWall: wall, schedulerNow: scheduler.now))
            }
            let content = CompareContent(worlds: worlds, labels: labels)
            let size = session.size
            let frame = CompareView.render(content, state: state, theme: theme, size: size)
            if repaintAll || frame != painted {
                FramePainter.paint(frame, palette: session.palette, clearFirst: repaintAll)
                painted = frame
                repaintAll = false
            }
            let waiting = content.worlds.contains { $0.screen.waiting != nil }
            let wait = zip(worlds, drivers).map { world, driver in
                driver.waitMilliseconds(
                    now: world.scheduler.now, nextDue: world.scheduler.nextDue,
                    spinnerStep: waiting ? FrontContent.spinnerStepMilliseconds : nil)
            }.min()
            // The first world's screen decides whether letters go into a text field.
            let editing = content.worlds.first?.screen.isEditingText ?? false
            let digits = content.worlds.first?.screen.isEditingDigits ?? false
            guard let key = session.readKey(timeoutMilliseconds: wait ?? RealTimeDriver.maxWaitMilliseconds),
                let action = KeyMap.action(for: key, focus: state.focus, textFieldFocused: editing, digitsOnly: digits)
            else { continue }
            if action == .resize { repaintAll = true }
            var metrics = (page: 1, limit: 0)
            if case .scrollTimeline = action {
                metrics = CompareView.timelineScrollMetrics(
                    content, filter: state.timelineFilter, size: size, focus: state.focus)
            }
            let controls =
                action == .activateControl ? ComparedControls.controls(content.worlds.map(\.controls)) : []
            let selected = controls.indices.contains(state.controlSelection) ? controls[state.controlSelection] : nil
            switch state.apply(action, timelinePage: metrics.page, timelineLimit: metrics.limit, controls: controls) {
            case .send(let input): for world in worlds { world.send(input) }
            case .control: if let selected { ComparedControls.press(selected, on: worlds) }
            case .quit: return 0
            case .walk, .togglePause, .toggleRecording, nil: break
            }
        }
    }
}
