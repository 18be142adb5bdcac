/// A comparison as text: where the worlds diverge (the step, then a line per world with what the reader
/// sees, the levels, the charges and the ledger's moves), the first divergence marked, then a summary.
public enum ComparisonReport {
    public static let firstMark = "▶"
    public static let agreeMark = "="

    public static func text(_ result: ComparedWorlds) -> String {
        var lines = ["compare \(result.file): \(result.labels.joined(separator: " vs "))", ""]
        let labelWidth = result.labels.map(\.count).max() ?? 0
        let cellWidths = widths(result.rows)
        let first = result.firstDivergence
        if result.rows.isEmpty { lines.append("The worlds never diverged: after every step they showed the same.") }
        for row in result.rows {
            let mark =
                row == first ? "\(firstMark) first divergence · " : row.differ ? "  " : "\(agreeMark) agree again · "
            lines.append("\(mark)\(result.file):\(row.line) · \(row.text)")
            for (index, observation) in row.observations.enumerated() {
                let cells =
                    observation?.cells.enumerated().map { $0.element.padded(to: cellWidths[$0.offset]) }
                    ?? [row.failedHere.contains(index) ? "(stopped: it failed here)" : "(stopped: it failed earlier)"]
                let text = ([result.labels[index].padded(to: labelWidth)] + cells).joined(separator: "   ")
                lines.append("    " + String(text.reversed().drop { $0 == " " }.reversed()))
            }
        }
        lines.append("")
        lines += summary(result)
        return lines.joined(separator: "\n")
    }

    private static func summary(_ result: ComparedWorlds) -> [String] {
        var lines: [String] = []
        for world in result.worlds {
            lines.append(
                "\(world.name): \(world.passed ? "passed" : "FAILED") (\(world.stepsRun)/\(world.stepCount) steps)")
            if let failure = world.failure {
                lines += failure.report.split(separator: "\n").map { "  " + $0 }
            }
        }
        if let first = result.firstDivergence {
            lines.append("First divergence: \(result.file):\(first.line) (\(first.text)).")
        }
        if let expectation = result.expectation {
            let wanted = expectation.step.map { "expect diverge at \($0)" } ?? "expect diverge"
            lines.append(
                result.unmetDivergence.map { "\(result.file):\(expectation.line): \(wanted): NOT MET: \($0)." }
                    ?? "\(wanted): met.")
        }
        lines.append(result.passed ? "Result: PASSED" : "Result: FAILED")
        return lines
    }

    /// Each cell column as wide as its widest cell, so the worlds' lines read as a table.
    private static func widths(_ rows: [DivergenceRow]) -> [Int] {
        var widths: [Int] = []
        for observation in rows.flatMap(\.observations).compactMap({ $0 }) {
            for (index, cell) in observation.cells.enumerated() {
                if index == widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        return widths
    }
}

extension String {
    fileprivate func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
