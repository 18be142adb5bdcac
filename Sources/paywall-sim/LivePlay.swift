import FoundationEssentials
import Scenarios
import SimKernel
import Simulation
import TerminalUI

/// `paywall-sim play --live FILE [--pace SECONDS] [--cast OUT.cast]`: one scenario played in the terminal at a
/// human pace, each step's comment as a caption; then the table `play` prints, and its exit code. With `--cast`
/// the terminal stays closed: the replay is written as an asciicast v2 recording, paced on virtual time.
enum LivePlay {
    static let defaultPace = 1.5

    static func main(paths: [String], options: Options) throws -> Int32 {
        for option in ["--junit", "--jobs"] where options[option] != nil {
            throw UsageError(message: "--live plays one scenario in the terminal: \(option) does not apply")
        }
        for flag in ["--tap", "--markdown"] where options.has(flag) {
            throw UsageError(message: "--live plays one scenario in the terminal: \(flag) does not apply")
        }
        guard paths.count == 1 else {
            throw UsageError(
                message: "--live plays one scenario file, not \(paths.count) (\(paths.joined(separator: ", ")))")
        }
        var isDirectory = false
        if FileManager.default.fileExists(atPath: paths[0], isDirectory: &isDirectory), isDirectory {
            throw UsageError(message: "--live plays one scenario file; \(paths[0]) is a folder")
        }
        if let cast = options["--cast"] { try OutputFile.check(cast, option: "--cast", own: .cast) }
        let pace = try self.pace(options["--pace"])
        let scenarios = try ScenarioArgument.load(paths[0], option: "--live")
        let replay = LiveReplay(scenario: scenarios[0], resources: AppArgument.resources, paceSeconds: pace)
        let world: World
        do throws(StepFailure) {
            world = try replay.prepare()
        } catch {
            throw UsageError(message: "--live: \(paths[0]): cannot set up the world: \(error.actual)")
        }
        let theme = try AppArgument.theme(for: world.config, resources: AppArgument.resources)
        if let cast = options["--cast"] {
            do {
                try OutputWriter.write(LiveCast.record(replay, world: world, theme: theme), to: cast, as: .cast)
            } catch {
                throw UsageError(message: "--cast: cannot write \(cast) (\(error))")
            }
            guard let result = replay.result else { return ExitCode.failures }
            print(ScenarioReports.table([result]))
            return result.passed ? ExitCode.ok : ExitCode.failures
        }
        let code: Int32
        do {
            code = try TerminalFront.run(world: world, theme: theme, live: replay)
        } catch {
            throw UsageError(message: "\(error)")
        }
        guard code == ExitCode.ok, let result = replay.result else { return code }
        print(ScenarioReports.table([result]))
        if result.stepsRun < result.stepCount && result.passed {
            print("stopped before the end: \(result.stepsRun) of \(result.stepCount) steps played")
        }
        return result.passed ? ExitCode.ok : ExitCode.failures
    }

    /// `--pace SECONDS`: wall time between steps, 0 to 60.
    static func pace(_ text: String?) throws(UsageError) -> Double {
        guard let text else { return defaultPace }
        guard let seconds = Double(text), seconds.isFinite, (0...60).contains(seconds) else {
            throw UsageError(message: "--pace takes seconds between steps, from 0 to 60 (such as 1.5), not \"\(text)\"")
        }
        return seconds
    }
}
