import SimKernel
import Simulation
import WhiteLabel

/// The interactive ncurses screen: the phone, the timeline, the controls and the key bar, driven in real time.
public enum TerminalFront {
    /// Launches the world's app and runs the screen until `q` (exit code 0) or a stop signal
    /// (128 + the signal's number). The terminal is restored on every way out, including a throw.
    /// `recordings` records the session (`r`, `--record`).
    public static func run(
        world: World, theme: Theme, speed: Double = 1.0, recordings: Recordings? = nil
    ) throws(TerminalError) -> Int32 {
        let session = try TerminalSession.start(theme: theme)
        defer { session.end() }
        recordings?.attach(to: world)
        world.launch()
        var loop = InteractiveLoop(
            world: world, session: session, theme: theme,
            driver: RealTimeDriver(
                anchorWallNanoseconds: MonotonicClock.nanoseconds(), anchorVirtual: world.scheduler.now,
                speed: speed))
        loop.recordings = recordings
        let code = loop.run()
        recordings?.finish(world)
        return code
    }
}

/// One thread, no concurrency: run the world up to now, draw if the frame changed, wait for a key or the next event.
struct InteractiveLoop {
    let world: World
    let session: TerminalSession
    let theme: Theme
    var driver: RealTimeDriver
    var state = FrontState()
    var recordings: Recordings?
    private var painted: Frame?
    private var repaintAll = true

    init(world: World, session: TerminalSession, theme: Theme, driver: RealTimeDriver) {
        self.world = world
        self.session = session
        self.theme = theme
        self.driver = driver
    }

    /// Returns the exit code.
    mutating func run() -> Int32 {
        while true {
            if let signal = session.stopSignal { return 128 + signal }
            let target = driver.target(
                atWall: MonotonicClock.nanoseconds(), schedulerNow: world.scheduler.now)
            world.scheduler.run(until: target)
            recordings?.settle(world)
            state.isRecording = recordings?.isRecording ?? false

            let content = FrontContent(world: world)
            let size = session.size
            let frame = FrontView.render(content, state: state, theme: theme, size: size)
            if repaintAll || frame != painted {
                FramePainter.paint(frame, palette: session.palette, clearFirst: repaintAll)
                painted = frame
                repaintAll = false
            }

            let wait = driver.waitMilliseconds(
                now: world.scheduler.now, nextDue: world.scheduler.nextDue,
                spinnerStep: content.screen.waiting == nil ? nil : FrontContent.spinnerStepMilliseconds)
            guard let key = session.readKey(timeoutMilliseconds: wait),
                let action = KeyMap.action(
                    for: key, focus: state.focus, textFieldFocused: content.screen.isEditingText)
            else { continue }

            if action == .resize { repaintAll = true }
            var metrics = (page: 1, limit: 0)
            if case .scrollTimeline = action {
                metrics = FrontView.timelineScrollMetrics(content, filter: state.timelineFilter, size: size)
            }
            let controls = action == .activateControl ? ControlBoard.controls(content.controls) : []
            switch state.apply(action, timelinePage: metrics.page, timelineLimit: metrics.limit, controls: controls) {
            case .send(let input): world.send(input)
            case .control(let control):
                control.apply(to: world)
                recordings?.control(control, on: world)
            case .toggleRecording:
                recordings?.toggle(world)
                state.isRecording = recordings?.isRecording ?? false
            case .quit: return 0
            case nil: break
            }
        }
    }
}
