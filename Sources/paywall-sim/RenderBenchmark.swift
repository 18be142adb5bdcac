import AppFlow
import Foundation
import Simulation
import TerminalUI
import WhiteLabel

/// The terminal's cost per key press, without a terminal: the time to render the whole frame
/// (phone, timeline, controls, key bar) into a cell grid, and how many cells change per key press,
/// which is what ncurses must repaint. The bytes that really reach a terminal are measured by
/// `bench/terminal-bytes.sh` through tmux.
enum RenderBenchmark {
    static func run(_ options: BenchCommand.BenchOptions) throws {
        let rounds = options.count ?? 200
        let (config, resources) = try AppArgument.load(nil)
        let theme = try AppArgument.theme(for: config, resources: resources)
        let size = TerminalSize(columns: 130, rows: 40)
        let state = FrontState()
        // A walk through the purchase: feed → article → paywall → sheet → unlocked article → feed.
        let keys: [ReaderInput] = [.down, .select, .select, .down, .select, .select, .back, .down, .up]
        var frames = 0
        var changedCells = 0
        var previous: Frame?
        let seconds = try measure {
            for _ in 0..<rounds {
                let world = try World(config: config, options: WorldOptions(latency: .none))
                world.launch()
                world.scheduler.runUntilIdle()
                for key in keys {
                    world.send(key)
                    world.scheduler.runUntilIdle()
                    let frame = FrontView.render(FrontContent(world: world), state: state, theme: theme, size: size)
                    if let previous { changedCells += previous.changedCells(to: frame) }
                    previous = frame
                    frames += 1
                }
            }
        }
        print(
            "render: \(frames) frames of 130x40 in \(String(format: "%.3f", seconds)) s = "
                + "\(String(format: "%.0f", seconds / Double(frames) * 1_000_000)) µs per key press (world step and render); "
                + "\(changedCells / max(1, frames - 1)) of \(130 * 40) cells change per key press on average")
    }
}
