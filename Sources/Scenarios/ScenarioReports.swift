import SimKernel

/// The reports of a run: the table, TAP, the markdown table of the edge cases, and JUnit XML.
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

    /// Test Anything Protocol, version 13: a failure's report goes in YAML-ish comment lines.
    public static func tap(_ results: [ScenarioResult]) -> String {
        var lines = ["TAP version 13", "1..\(results.count)"]
        for (index, result) in results.enumerated() {
            lines.append("\(result.passed ? "ok" : "not ok") \(index + 1) - \(result.name)")
            if let failure = result.failure {
                lines += failure.report.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)" }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The edge-case table: What happens | What the reader sees | Result, from `title` and `sees`.
    public static func markdown(_ results: [ScenarioResult]) -> String {
        var lines = ["| What happens | What the reader sees | Result |", "| --- | --- | --- |"]
        for result in results {
            let outcome = result.failure.map { "failed at line \($0.line)" } ?? "passed"
            lines.append("| \(cell(result.name)) | \(cell(result.sees ?? "")) | \(outcome) |")
        }
        return lines.joined(separator: "\n")
    }

    /// JUnit XML as CI systems read it: one test case per scenario, a failure element with the report.
    public static func junit(_ results: [ScenarioResult]) -> String {
        let failures = results.filter { !$0.passed }.count
        let seconds = results.map(\.virtualMilliseconds).reduce(0, +)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\">",
            "  <testsuite name=\"scenarios\" tests=\"\(results.count)\" failures=\"\(failures)\" "
                + "time=\"\(Double(seconds) / 1000)\">",
        ]
        for result in results {
            // `time` is the virtual time covered: the engine never reads the wall clock.
            let open =
                "    <testcase classname=\"\(xml(result.file))\" name=\"\(xml(result.name))\" "
                + "time=\"\(Double(result.virtualMilliseconds) / 1000)\""
            if let failure = result.failure {
                lines.append(open + ">")
                lines.append(
                    "      <failure message=\"\(xml("expected \(failure.expected), got \(failure.actual)"))\">"
                        + xml(failure.report) + "</failure>")
                lines.append("    </testcase>")
            } else {
                lines.append(open + "/>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    private static func xml(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
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
