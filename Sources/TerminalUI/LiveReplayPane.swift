import Scenarios
import WhiteLabel

/// Live replay's pane: the caption of the step on screen, the steps ticked as they run, and how it ended.
enum LiveReplayPane {
    static func content(_ live: LiveReplayState, width: Int) -> ChecklistPane.Content {
        let (lines, lineOfStep) = ChecklistPane.steps(live.walked, next: live.next)
        var header: [ChecklistPane.Line] = []
        if let caption = live.caption {
            header = ChecklistPane.wrapped(caption, width: width, limit: 3, role: .accent, style: .bold)
            header.append(ChecklistPane.Line("", .muted, "", .muted))
        }
        let focus = live.next ?? live.failure.map { live.walked.scenario.steps.firstIndex(of: $0.step) ?? 0 }
        return ChecklistPane.Content(
            title: "Live · \(live.walked.scenario.name)", header: header, lines: lines,
            keepInView: focus.map { lineOfStep[$0] } ?? lines.count - 1, footer: status(live, width: width))
    }

    private static func status(_ live: LiveReplayState, width: Int) -> [ChecklistPane.Line] {
        if let failed = live.failure {
            return ChecklistPane.wrapped(
                "FAILED at line \(failed.step.line): \(failed.step.text): expected \(failed.failure.expected), "
                    + "got \(failed.failure.actual)", width: width, limit: 3, role: .error, style: .bold)
        }
        if live.isFinished {
            return [ChecklistPane.Line("", .success, "PASSED: all \(live.walked.outcomes.count) steps", .success)]
        }
        return [
            live.isPaused
                ? ChecklistPane.Line("", .accent, "paused · space resumes", .accent, style: .bold)
                : ChecklistPane.Line("", .muted, "playing · space pauses", .muted)
        ]
    }
}
