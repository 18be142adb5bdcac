import AppFlow
import FoundationEssentials
import SimKernel
import Simulation
import TerminalUI
import WhiteLabel

/// The terminal's cost per key press, without a terminal, as the interactive loop spends it: the key's own
/// frame (the reducer's new state, rendered into a cell grid) is painted before the world's consequences
/// run; those (store, network, backend) run in the loop's next turn, which paints its own frame. Both are
/// timed: key → its frame is the figure a reader feels, the consequences' turn is the purchase's CPU. How
/// many cells change per frame is what ncurses must repaint; the bytes that really reach a terminal are
/// measured by `bench/terminal-bytes.sh` through tmux.
enum RenderBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        let rounds = options.count ?? 200
        let (config, resources) = try AppArgument.load(nil)
        let theme = try AppArgument.theme(for: config, resources: resources)
        let size = TerminalSize(columns: 130, rows: 40)
        let state = FrontState()
        // A walk through the purchase: feed → article → paywall → sheet (up from Cancel, where it opens, to
        // Subscribe) → unlocked article → feed.
        let keys: [ReaderInput] = [.down, .select, .select, .down, .select, .up, .select, .back, .down, .up]
        var frames = 0
        var changedCells = 0
        var previous: Frame?
        var keyFrames: [Double] = []
        var renderOnly: [Double] = []
        var selects: [Double] = []
        var consequences: [Double] = []
        var turnTimeline: [TimelineEntry] = []
        // As the interactive loop draws: a key's frame keeps the timeline of the world's last turn.
        func paint(_ world: World, keyFrame: Bool = false) -> Double {
            let began = Floors.cpuSeconds()
            var content = FrontContent(world: world)
            if keyFrame { content.timeline = turnTimeline } else { turnTimeline = content.timeline }
            let frame = FrontView.render(content, state: state, theme: theme, size: size)
            let took = Floors.cpuSeconds() - began
            renderOnly.append(took)
            if let previous { changedCells += previous.changedCells(to: frame) }
            previous = frame
            frames += 1
            return took
        }
        let seconds = try measure {
            for _ in 0..<rounds {
                let world = try World(config: config, options: WorldOptions(latency: .none))
                world.launch()
                world.scheduler.runUntilIdle()
                for key in keys {
                    // The key's own frame: the loop paints it before it runs what the key set going.
                    let began = Floors.cpuSeconds()
                    world.send(key)
                    let sent = Floors.cpuSeconds() - began
                    let keyFrame = sent + paint(world, keyFrame: true)
                    keyFrames.append(keyFrame)
                    if key == .select { selects.append(keyFrame) }
                    // The next turn: at `--latency none` everything the key set going is due at once.
                    let turn = Floors.cpuSeconds()
                    world.scheduler.runUntilIdle()
                    consequences.append(Floors.cpuSeconds() - turn + paint(world))
                }
            }
        }
        func p99(_ values: [Double]) -> Double { values.sorted()[min(values.count - 1, values.count * 99 / 100)] }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print(
            "render: \(frames) frames of 130x40 in \(String(printf: "%.3f", seconds)) s; "
                + "\(changedCells / max(1, frames - 1)) of \(130 * 40) cells change per frame on average")
        print(
            "render: CPU per key press at p99, key to its frame: every key \(Floors.millis(p99(keyFrames))), "
                + "Enter (select, confirm) \(Floors.millis(p99(selects))); render alone \(Floors.millis(p99(renderOnly))) "
                + "(median \(Floors.millis(median(renderOnly))))")
        print(
            "render: the consequences' turn (store, network, backend, then its frame), \(consequences.count) turns: "
                + "p99 \(Floors.millis(p99(consequences))), median \(Floors.millis(median(consequences)))")
        BenchTable.shared.add(
            "key press → its frame, p99 at 130x40 (`bench render`)",
            "\(Floors.millis(p99(keyFrames))) (Enter \(Floors.millis(p99(selects))))",
            floor: "render alone p99 \(Floors.millis(p99(renderOnly))); the purchase's own turn p99 "
                + Floors.millis(p99(consequences)),
            goal: "< 1 ms every key")
    }
}
