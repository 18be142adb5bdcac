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
        var whole: [Double] = []
        var renderOnly: [Double] = []
        var selects: [Double] = []
        let seconds = try measure {
            for _ in 0..<rounds {
                let world = try World(config: config, options: WorldOptions(latency: .none))
                world.launch()
                world.scheduler.runUntilIdle()
                for key in keys {
                    let began = Floors.cpuSeconds()
                    world.send(key)
                    world.scheduler.runUntilIdle()
                    let rendering = Floors.cpuSeconds()
                    let frame = FrontView.render(FrontContent(world: world), state: state, theme: theme, size: size)
                    let done = Floors.cpuSeconds()
                    whole.append(done - began)
                    renderOnly.append(done - rendering)
                    if key == .select { selects.append(done - began) }
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
        func p99(_ values: [Double]) -> Double { values.sorted()[min(values.count - 1, values.count * 99 / 100)] }
        print(
            "render: CPU per key press at p99: step and render \(Floors.millis(p99(whole))), Enter (select, confirm) "
                + "\(Floors.millis(p99(selects))), render alone \(Floors.millis(p99(renderOnly))) "
                + "(median \(Floors.millis(renderOnly.sorted()[renderOnly.count / 2])))")
        BenchTable.shared.add(
            "key press step+render p99 at 130x40 (`bench render`)",
            "\(Floors.millis(p99(whole))) (Enter \(Floors.millis(p99(selects))))",
            floor: "render alone p99 \(Floors.millis(p99(renderOnly)))", goal: "< 1 ms every key")
        BenchTable.shared.add(
            "cells changed per key (bytes: `bench/terminal-bytes.sh`)",
            "\(changedCells / max(1, frames - 1)) of \(130 * 40)",
            floor: "—", goal: "< 1 KB average, a move < 200 B")
        BenchTable.shared.add(
            "peak RSS of this bench process (`run`: `/usr/bin/time -v`)",
            String(format: "%.1f MiB", peakResidentMegabytes()),
            floor: "—", goal: "`run` < 30 MB")
    }
}
