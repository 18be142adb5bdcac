import Scenarios
import WhiteLabel

/// The guided walk's checklist pane: the list of scenarios, or the steps of the one being walked, each
/// ticked, green or red; the next step and where the report goes.
enum WalkPane {
    static func content(_ walk: WalkState, width: Int) -> ChecklistPane.Content {
        let footer = ChecklistPane.wrapped(
            walk.message ?? "s saves the report to \(walk.reportPath)", width: width, limit: 2,
            role: walk.message == nil ? .muted : .accent)
        guard !walk.showsList, let current = walk.current else {
            return ChecklistPane.Content(
                title: "Walk · \(walk.scenarios.count) scenario\(walk.scenarios.count == 1 ? "" : "s")",
                header: [ChecklistPane.Line("", .muted, "Enter walks a scenario:", .muted)],
                lines: walk.scenarios.map { line(for: $0, walk: walk) }, keepInView: walk.listSelection,
                highlight: walk.listSelection, footer: footer)
        }
        let next = walk.nextStep
        let (lines, lineOfStep) = ChecklistPane.steps(current, next: next)
        let green = current.outcomes.filter(\.isGreen).count
        let red = current.outcomes.filter(\.isFailed).count
        let expectations = current.scenario.steps.filter { step in
            if case .expect = step.kind { return true }
            return false
        }.count
        var header = [
            ChecklistPane.Line(
                "", .muted, "\(green) of \(expectations) expectations green" + (red > 0 ? ", \(red) red" : ""),
                red > 0 ? .error : .muted)
        ]
        header.append(nextLine(current, next: next))
        // Keep the first live expectation in view, else the next step: what the tester looks for.
        let focusStep = walk.liveExpectations.first ?? next ?? (current.outcomes.count - 1)
        return ChecklistPane.Content(
            title: "Walk · \(current.scenario.name)", header: header, lines: lines,
            keepInView: lineOfStep.indices.contains(focusStep) ? lineOfStep[focusStep] : nil, footer: footer)
    }

    /// Whose the next step is: the tester's on the phone, or `n`'s.
    private static func nextLine(_ current: WalkedScenario, next: Int?) -> ChecklistPane.Line {
        guard let next else { return ChecklistPane.Line("", .success, "Every step done.", .success) }
        if case .reader = current.scenario.steps[next].kind {
            return ChecklistPane.Line("", .accent, "Your turn on the phone.", .accent)
        }
        return ChecklistPane.Line("", .accent, "n does the next step (or the controls).", .accent)
    }

    /// A scenario in the list, marked with how its last walk went.
    private static func line(for scenario: Scenario, walk: WalkState) -> ChecklistPane.Line {
        let walked = walk.report.first { $0.scenario.file == scenario.file }
        guard let walked else { return ChecklistPane.Line(" ", .muted, scenario.name, .text) }
        if walked.firstFailure != nil { return ChecklistPane.Line("✗", .error, scenario.name, .text) }
        if walked.verdict == "passed" { return ChecklistPane.Line("✓", .success, scenario.name, .text) }
        return ChecklistPane.Line("·", .accent, scenario.name, .text)
    }
}
