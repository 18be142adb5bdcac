import Scenarios
import Simulation

/// Shrinks a failing session to a few steps that still break the same guarantee: delta debugging
/// over the steps (remove halves, then quarters… then single steps, keeping every removal that
/// still fails), then over the setup's faults and account, then each step made plainer where it
/// still fails (a double tap as one tap).
struct Shrinker {
    let runner: SessionRun
    /// How many sessions shrinking may replay: a bound on its time.
    var budget = 2_000
    private(set) var replays = 0

    init(runner: SessionRun) {
        self.runner = runner
    }

    /// The smallest session found that breaks `invariant`, with the violation it shows.
    mutating func shrink(_ failing: SessionOutcome, invariant: Invariant) -> SessionOutcome {
        var best = failing
        var chunks = 2
        while true {
            let actions = Self.actionIndices(best.steps)
            guard !actions.isEmpty else { break }
            chunks = min(chunks, actions.count)
            let size = (actions.count + chunks - 1) / chunks
            var removedOne = false
            for start in stride(from: 0, to: actions.count, by: size) {
                let dropped = Set(actions[start..<min(start + size, actions.count)])
                if let smaller = attempt(best, dropping: dropped, invariant) {
                    best = smaller
                    removedOne = true
                    break
                }
                if replays >= budget { return best }
            }
            if removedOne {
                chunks = max(chunks - 1, 2)
            } else if chunks >= actions.count {
                break
            } else {
                chunks = min(chunks * 2, actions.count)
            }
        }
        for index in best.steps.indices.reversed() where Self.isOptionalSetup(best.steps[index].kind) {
            if let smaller = attempt(best, dropping: [index], invariant) { best = smaller }
        }
        for index in best.steps.indices {
            guard index < best.steps.count, let plainer = Self.plainer(best.steps[index]) else { continue }
            if let simpler = attempt(best, replacing: index, with: plainer, invariant) { best = simpler }
        }
        return best
    }

    /// The same intent, said more plainly (waiting for the world; one tap for two; one month for
    /// several); nil when the step is as plain as it gets.
    private static func plainer(_ step: SessionStep) -> SessionStep? {
        if !step.waits { return SessionStep(kind: step.kind) }
        switch step.kind {
        case .reader(.doubleTapOffer(let offer)): return SessionStep(kind: .reader(.selectOffer(offer)))
        case .world(.advance(.months(let months))) where months > 1:
            return SessionStep(kind: .world(.advance(.months(1))))
        default: return nil
        }
    }

    private mutating func attempt(
        _ session: SessionOutcome, replacing index: Int, with step: SessionStep, _ invariant: Invariant
    ) -> SessionOutcome? {
        guard replays < budget else { return nil }
        replays += 1
        var steps = session.steps
        steps[index] = step
        let outcome = runner.replay(steps)
        return outcome.violation?.invariant == invariant ? outcome : nil
    }

    private mutating func attempt(_ session: SessionOutcome, dropping: Set<Int>, _ invariant: Invariant)
        -> SessionOutcome?
    {
        guard replays < budget else { return nil }
        replays += 1
        let kept = session.steps.indices.filter { !dropping.contains($0) }.map { session.steps[$0] }
        let outcome = runner.replay(kept)
        guard outcome.violation?.invariant == invariant, outcome.steps.count < session.steps.count else { return nil }
        return outcome
    }

    /// The steps after launch: what the reader and the world did.
    private static func actionIndices(_ steps: [SessionStep]) -> [Int] {
        guard let launch = steps.firstIndex(where: { if case .launch = $0.kind { true } else { false } }) else {
            return []
        }
        return Array(steps.indices.dropFirst(launch + 1))
    }

    /// Setup a session can do without: faults, latency, the phone's language (English without), the account on the
    /// backend, the owner's choices (the config's without).
    private static func isOptionalSetup(_ step: StepKind) -> Bool {
        switch step {
        case .world(.inject), .setup(.account), .world(.latency), .world(.locale), .setup(.adsForSubscribers),
            .setup(.restorePolicy), .world(.finish):
            true
        default: false
        }
    }
}
