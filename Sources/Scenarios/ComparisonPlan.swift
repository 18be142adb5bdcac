import WhiteLabel

/// The steps each world of a comparison runs, slot by slot, so the worlds go in lockstep: the scenario's
/// steps with the varied setup line in a slot of its own after the scenario's setup, the scenario's own
/// line of that key left out where the varied one replaces it (every one of them in a world without the key), and
/// `when` steps only in their world.
struct ComparisonPlan {
    let labels: [String]
    /// For each slot, what each world runs there (nil: nothing).
    let slots: [[ScenarioStep?]]
    /// For each slot, the step a report names (the varied slot: the first world's line).
    let named: [ScenarioStep]

    init(_ scenario: Scenario, _ variation: Variation) throws(VariationError) {
        let labels = variation.labels
        self.labels = labels
        let known = Set(labels)
        for step in scenario.steps {
            if let condition = step.condition, !known.contains(condition) {
                throw VariationError(
                    "\(scenario.file):\(step.line): when \(condition) names no world (worlds: "
                        + "\(labels.joined(separator: ", ")))")
            }
        }
        let setupCount = scenario.steps.prefix { $0.kind.configures }.count
        var slots: [[ScenarioStep?]] = []
        var named: [ScenarioStep] = []
        for (index, step) in scenario.steps.enumerated() {
            if index == setupCount { Self.addVaried(variation, scenario, to: &slots, &named) }
            let ofKey =
                index < setupCount && step.text.split(separator: " ").first.map(String.init) == variation.key
            slots.append(
                labels.indices.map { world in
                    // The varied line replaces the scenario's own; a world without it (an empty value) has none of
                    // that key, an added kind too (`inject=X,`: "(none)" kept the file's own fault, session 25).
                    let replaced = ofKey && (variation.replaces || variation.steps[world] == nil)
                    return replaced || (step.condition.map { $0 != labels[world] } ?? false) ? nil : step
                })
            named.append(step)
        }
        if setupCount == scenario.steps.count { Self.addVaried(variation, scenario, to: &slots, &named) }
        self.slots = slots
        self.named = named
    }

    private static func addVaried(
        _ variation: Variation, _ scenario: Scenario, to slots: inout [[ScenarioStep?]], _ named: inout [ScenarioStep]
    ) {
        let line = Int(variation.source.split(separator: ":").last ?? "") ?? 0
        let steps = variation.steps.indices.map { index in
            variation.steps[index].map {
                ScenarioStep(line: line, text: variation.line(index) ?? "", kind: $0)
            }
        }
        slots.append(steps)
        // At least one value is not empty (values are two or more, and distinct).
        let kind = steps.compactMap { $0 }.first?.kind ?? .launch
        named.append(
            ScenarioStep(
                line: line, text: "vary \(variation.key)=\(variation.values.joined(separator: ","))", kind: kind))
    }
}

extension Scenario {
    /// A `when` naming none of the worlds of the file's own `vary` line is a mistake at its line, bad input as
    /// `compare` says it: `play` ran such a file as a failed comparison, exit 1, under "expected: a comparison"
    /// (session 37). (`compare --vary` replaces the line, and `ComparisonPlan` checks against its worlds.)
    public func checkWorldsNamed() throws(ConfigError) {
        guard let variation else { return }
        let labels = variation.labels
        for step in steps {
            if let condition = step.condition, !labels.contains(condition) {
                throw ConfigError(
                    file: "\(file):\(step.line)",
                    message: "when \(condition) names no world (worlds: \(labels.joined(separator: ", ")))")
            }
        }
    }
}
