import SimKernel

/// The reports of a run: the table and the markdown table of the edge cases (TAP and JUnit in ScenarioReports+Machine.swift).
public enum ScenarioReports {
    /// scenario | result | steps | virtual time, then each failure in full.
    public static func table(_ results: [ScenarioResult]) -> String {
        let rows = results.map { result in
            [
                result.name, result.passed ? "passed" : "FAILED", "\(result.stepsRun)/\(result.stepCount)",
                SimDuration(milliseconds: result.virtualMilliseconds).readable,
            ]
        }
        let header = ["scenario", "result", "steps", "virtual time"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $1.padded(to: widths[$0]) }.joined(separator: "  ")
                .trimmingTrailingSpaces
        }
        var lines = [line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
        let failed = results.filter { !$0.passed }
        lines.append("")
        lines.append("\(results.count - failed.count) passed, \(failed.count) failed")
        for result in failed {
            lines += ["", "FAILED \(result.name)", result.failure!.report]
        }
        return lines.joined(separator: "\n")
    }

    /// The edge-case table: What happens | What the reader sees | Result, from `title` and `sees`; then per
    /// scenario a Mermaid sequence diagram of the messages between reader, app, App Store and backend.
    public static func markdown(_ results: [ScenarioResult]) -> String {
        var lines = ["| What happens | What the reader sees | Result |", "| --- | --- | --- |"]
        for result in results {
            let outcome = result.failure.map { "failed at line \($0.line)" } ?? "passed"
            lines.append("| \(cell(result.name)) | \(cell(result.sees ?? "")) | \(outcome) |")
        }
        for result in results {
            guard let timeline = result.timeline, !timeline.isEmpty else { continue }
            lines += ["", "### \(result.name)", "", "```mermaid", SequenceDiagram.mermaid(timeline), "```"]
        }
        return lines.joined(separator: "\n")
    }

    static func cell(_ text: String) -> String { text.replacing("|", with: "\\|") }
}

extension SimDuration {
    /// `2d 3h`, `1h 5m`, `12s`, `250ms`: the two largest units, for a table.
    var readable: String {
        let units: [(String, Int64)] = [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        var rest = milliseconds
        var parts: [String] = []
        for (name, size) in units where rest >= size && parts.count < 2 {
            parts.append("\(rest / size)\(name)")
            rest %= size
        }
        if parts.isEmpty { return "\(milliseconds)ms" }
        return parts.joined(separator: " ")
    }
}

extension String {
    fileprivate func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate var trimmingTrailingSpaces: String {
        String(reversed().drop(while: { $0 == " " }).reversed())
    }
}
