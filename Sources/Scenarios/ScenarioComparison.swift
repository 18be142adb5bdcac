import SimKernel
import Simulation
import WhiteLabel

/// Runs one scenario in several worlds, one per value of its variation, step by step in lockstep through
/// `ScenarioRun`, and reads each world after every step to find where they diverge.
public enum ScenarioComparison {
    /// `variation` replaces the scenario's own `vary` line; one of the two is needed.
    public static func run(
        _ scenario: Scenario, variation: Variation? = nil, resources: ResourceLocator?
    ) throws(VariationError) -> ComparedWorlds {
        guard let variation = variation ?? scenario.variation else {
            throw VariationError("\(scenario.file): nothing to compare: write a vary line, or give --vary KEY=V1,V2")
        }
        let plan = try ComparisonPlan(scenario, variation)
        let runs = plan.labels.map { _ in ScenarioRun(scenario: scenario, resources: resources) }
        var failures: [ScenarioFailure?] = Array(repeating: nil, count: runs.count)
        var stepsRun = Array(repeating: 0, count: runs.count)
        var rows: [DivergenceRow] = []
        var last: [[String]] = []
        for (slot, steps) in plan.slots.enumerated() {
            var failedHere: Set<Int> = []
            for (index, step) in steps.enumerated() {
                guard let step, failures[index] == nil else { continue }
                stepsRun[index] += 1
                do {
                    try runs[index].execute(step)
                } catch {
                    if !step.mayFail {
                        failures[index] = runs[index].failure(at: step, error)
                        failedHere.insert(index)
                    }
                }
            }
            guard runs.contains(where: { $0.world != nil }) else { continue }
            let seen = runs.indices.map { index in
                failures[index] == nil ? runs[index].world.map(WorldObservation.init(world:)) : nil
            }
            let row = DivergenceRow(
                line: plan.named[slot].line, text: plan.named[slot].text, observations: seen, failedHere: failedHere)
            // A row when how the worlds differ changed: a new difference, one gone, or agreement again.
            if row.differences != last { rows.append(row) }
            last = row.differences
        }
        let worlds = runs.indices.map { index in
            let result = runs[index].result(stepsRun: stepsRun[index], failure: failures[index])
            return ScenarioResult(
                file: result.file, name: plan.labels[index], title: result.title, sees: result.sees,
                stepsRun: result.stepsRun, stepCount: plan.slots.filter { $0[index] != nil }.count,
                virtualMilliseconds: result.virtualMilliseconds, failure: result.failure)
        }
        return ComparedWorlds(
            file: scenario.file, name: scenario.name, labels: plan.labels, rows: rows, worlds: worlds,
            expectation: scenario.divergence)
    }

    /// The worlds for `compare --live`, one per value, each run through the steps before the scenario's
    /// first reader action (the rest is the tester's to do); a step that fails there names its world.
    public static func prepare(
        _ scenario: Scenario, variation: Variation? = nil, resources: ResourceLocator?
    ) throws(VariationError) -> [World] {
        guard let variation = variation ?? scenario.variation else {
            throw VariationError("\(scenario.file): nothing to compare: write a vary line, or give --vary KEY=V1,V2")
        }
        let plan = try ComparisonPlan(scenario, variation)
        var worlds: [World] = []
        for (index, label) in plan.labels.enumerated() {
            let run = ScenarioRun(scenario: scenario, resources: resources)
            for steps in plan.slots {
                guard let step = steps[index] else { continue }
                if case .reader = step.kind { break }
                do {
                    try run.execute(step)
                } catch {
                    if step.mayFail { continue }
                    throw VariationError("\(label): \(scenario.file):\(step.line): \(step.text): \(error.actual)")
                }
            }
            do {
                worlds.append(try run.launchedWorld())
            } catch {
                throw VariationError("\(label): cannot set up that world: \(error.actual)")
            }
        }
        return worlds
    }
}
