import AppFlow
import SimKernel
import Simulation
import WhiteLabel

/// The interactive ncurses screen: the phone, the timeline, the controls and the key bar, driven in real time.
public enum TerminalFront {
    /// Whether the screen can start here; commands call it before they create anything on disk.
    public static func checkTerminal() throws(TerminalError) {
        try TerminalSession.check()
    }

    /// Launches the world's app and runs the screen until `q` (exit code 0), a stop signal (128 + the signal's
    /// number) or a file of the state folder the disk cannot write (2: `World.storageFailure` says which, and
    /// nothing more is written). The terminal is restored on every way out, including a throw.
    /// `recordings` records the session (`r`, `--record`). With `walk` (a guided walk) or `live` (a live
    /// replay) the world comes launched, and a checklist pane shows the scenario. `save` keeps what must outlive the
    /// process (the clock), run while a stop signal still only sets a flag: a hangup then cannot cut it short.
    public static func run(
        world: World, theme: Theme, speed: Double = 1.0, recordings: Recordings? = nil, walk: WalkSession? = nil,
        live: LiveReplay? = nil, save: () -> Void = {}
    ) throws(TerminalError) -> Int32 {
        let session = try TerminalSession.start(theme: theme)
        defer { session.end() }
        recordings?.attach(to: world)
        if walk == nil && live == nil { world.launch() }
        var loop = InteractiveLoop(
            world: world, session: session, theme: theme,
            driver: RealTimeDriver(
                anchorWallNanoseconds: MonotonicClock.nanoseconds(), anchorVirtual: world.scheduler.now,
                speed: speed))
        loop.recordings = recordings
        loop.walk = walk
        loop.state.walk = walk?.initialState
        // A walk starts on its list: choosing a scenario is the first thing to do.
        if walk != nil { loop.state.focus = .checklist }
        loop.live = live
        loop.state.live = live?.initialState
        if walk?.scenarios.count == 1, let walk, loop.state.walk != nil {
            // One scenario: walk it at once, its checklist in view.
            if let chosen = walk.choose(0, state: &loop.state.walk!) {
                loop.replace(world: chosen)
                loop.state.focus = .phone
            }
        }
        let code = loop.run()
        recordings?.finish(world)
        if let state = loop.state.live { live?.ended(state) }
        if world.storageFailure == nil { save() }
        return code
    }
}

/// One thread, no concurrency: run the world up to now, draw if the frame changed, wait for a key or the next event.
/// A key's own frame (what the reducer made of it on the phone) is painted before the world runs what the key
/// set going: the store, network and backend answer in the very next turn, before another key is read, with a
/// frame of their own, as they do at any latency above zero; a key press never waits for a whole purchase.
struct InteractiveLoop {
    /// The world on screen; a guided walk replaces it with each scenario it walks.
    private(set) var world: World
    let session: TerminalSession
    var theme: Theme
    var driver: RealTimeDriver
    var state = FrontState()
    var recordings: Recordings?
    var walk: WalkSession?
    /// Live replay's scripted steps: they act on the world instead of the reader, at the replay's pace.
    var live: LiveReplay?
    private var painted: Frame?
    private var repaintAll = true
    /// A key was handled since the last frame: paint its effect before the world moves on.
    private var keyFramePending = false
    /// The timeline as the last world turn drew it. A key's frame keeps it: the key's lines join the world's
    /// answers in the next frame, so the timeline scrolls once (each scroll redraws the phone rows beside it).
    private var turnTimeline: [TimelineEntry] = []
    /// The last frame offered a choice that moves money (Apple's sheet, its manage sheet): see `run`.
    private var showedMoneyChoices = false

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
            // A full disk: each further turn would show what the store cannot keep (h3 03).
            if world.storageFailure != nil { return 2 }
            let keyFrame = keyFramePending
            keyFramePending = false
            var scriptWait: Int?
            if !keyFrame {
                let wall = MonotonicClock.nanoseconds()
                if let live, state.live != nil {
                    // Each step runs until idle on the virtual clock, as `play` runs it; only the pace is wall time.
                    scriptWait = live.tick(atWall: wall, state: &state.live!)
                } else {
                    world.scheduler.run(until: driver.target(atWall: wall, schedulerNow: world.scheduler.now))
                }
                recordings?.settle(world)
                state.isRecording = recordings?.showsMark ?? false
                if let walk, state.walk != nil { walk.settle(world, state: &state.walk!) }
                if world.storageFailure != nil { return 2 }
            }

            var content = FrontContent(world: world, inspecting: state.inspector != nil)
            if keyFrame { content.timeline = turnTimeline } else { turnTimeline = content.timeline }
            let size = session.size
            let frame = FrontView.render(content, state: state, theme: theme, size: size)
            // Apple's sheet asks for a deliberate act: keys typed before it was on screen (a double press on an offer,
            // "Enter Down Enter" in one burst) are dropped as it first appears, before it is painted, so none of them
            // acts on it; a key pressed once it shows is kept (session 26).
            let moneyChoices = content.screen.alert == nil && content.screen.choices.contains(where: \.movesMoney)
            if moneyChoices && !showedMoneyChoices && live == nil { session.discardTypeahead() }
            showedMoneyChoices = moneyChoices
            if repaintAll || frame != painted {
                FramePainter.paint(frame, palette: session.palette, clearFirst: repaintAll, ascii: !session.isUnicode)
                painted = frame
                repaintAll = false
            }
            // The world's turn comes next, before another key is read: typed-ahead keys act in the same order.
            if keyFrame { continue }

            var wait = driver.waitMilliseconds(
                now: world.scheduler.now, nextDue: world.scheduler.nextDue,
                spinnerStep: content.screen.waiting == nil ? nil : FrontContent.spinnerStepMilliseconds)
            if live != nil { wait = min(RealTimeDriver.maxWaitMilliseconds, scriptWait ?? .max) }
            guard let key = session.readKey(timeoutMilliseconds: wait),
                let action = KeyMap.action(
                    for: key, focus: state.focus, textFieldFocused: content.screen.isEditingText && size.fitsMinimum,
                    digitsOnly: content.screen.isEditingDigits, inspecting: state.inspector != nil)
            else { continue }

            keyFramePending = true
            if action == .resize { repaintAll = true }
            var metrics = (page: 1, limit: 0)
            if case .scrollTimeline = action {
                metrics = FrontView.timelineScrollMetrics(
                    content, filter: state.timelineFilter, size: size, checklist: state.hasChecklist)
            }
            let controls = action == .activateControl ? ControlBoard.controls(content.controls) : []
            switch state.apply(
                action, timelinePage: metrics.page, timelineLimit: metrics.limit, controls: controls,
                transactions: content.transactions ?? [], terminalFits: size.fitsMinimum)
            {
            case .send(let input):
                if let walk, state.walk != nil { walk.willSend(input, to: world, state: &state.walk!) }
                world.send(input)
            case .control(let action):
                let (inFlight, at) = (!world.scheduler.isIdle, world.scheduler.now)
                let refusal =
                    if let walk, state.walk != nil {
                        walk.apply(action, to: world, state: &state.walk!)
                    } else {
                        action.press(on: world)
                    }
                recordings?.control(action, refusal: refusal, inFlight: inFlight, at: at)
            case .walk(let command): perform(command)
            case .togglePause:
                if live != nil, state.live != nil {
                    live?.togglePause(atWall: MonotonicClock.nanoseconds(), state: &state.live!)
                }
            case .toggleRecording:
                recordings?.toggle(world)
                state.isRecording = recordings?.showsMark ?? false
            case .quit: return 0
            case nil: break
            }
        }
    }

    /// The walk's commands, done on the world.
    private mutating func perform(_ command: WalkCommand) {
        guard let walk, state.walk != nil else { return }
        switch command {
        case .choose(let index):
            if let chosen = walk.choose(index, state: &state.walk!) {
                replace(world: chosen)
                // The tester's first step is on the phone.
                state.focus = .phone
            }
        case .runStep(let index): walk.runStep(index, state: &state.walk!)
        case .saveReport: walk.saveReport(&state.walk!)
        }
    }

    /// Puts `newWorld` on screen: the clock mapping starts again from its time, the timeline from its newest
    /// entry, and the app's theme comes with it.
    mutating func replace(world newWorld: World) {
        world = newWorld
        driver = RealTimeDriver(
            anchorWallNanoseconds: MonotonicClock.nanoseconds(), anchorVirtual: newWorld.scheduler.now,
            speed: driver.speed)
        state.timelineScrollBack = 0
        if let theme = walk?.theme(for: newWorld) {
            self.theme = theme
            session.use(theme: theme)
        }
        repaintAll = true
    }
}
