import SimKernel

/// The reports other tools read: TAP and JUnit XML, each with a malformed file in it rather than nothing.
extension ScenarioReports {
    /// A file that could not be parsed: its path and the parser's message (`file:line: …`).
    public struct Malformed: Sendable, Equatable {
        public let file: String
        public let message: String

        public init(file: String, message: String) {
            self.file = file
            self.message = message
        }
    }

    /// Test Anything Protocol, version 13: a failure's report in comment lines; a malformed file is
    /// `Bail out!`, since the plan cannot be trusted.
    public static func tap(_ results: [ScenarioResult], malformed: [Malformed] = []) -> String {
        if let first = malformed.first {
            return "TAP version 13\nBail out! \(oneLine(first.message))"
        }
        var lines = ["TAP version 13", "1..\(results.count)"]
        for (index, result) in results.enumerated() {
            // `#` starts a directive in TAP: a name's own is escaped.
            let name = oneLine(result.name).replacing("#", with: "\\#")
            lines.append("\(result.passed ? "ok" : "not ok") \(index + 1) - \(name)")
            if let failure = result.failure {
                lines += failure.report.split(separator: "\n", omittingEmptySubsequences: false).map {
                    "# \(oneLine(String($0)))"
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// JUnit XML in the Surefire report's shape: `tests`, `failures`, `errors`, `skipped` and wall-clock
    /// `time` on the suite and each case; the virtual time as properties and in `system-out`. A malformed
    /// file is an `error` case.
    public static func junit(_ results: [ScenarioResult], malformed: [Malformed] = []) -> String {
        let failures = results.filter { !$0.passed }.count
        let tests = results.count + malformed.count
        let wall = results.compactMap(\.wallSeconds).reduce(0, +)
        let virtual = results.map(\.virtualMilliseconds).reduce(0, +)
        let counts =
            "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(malformed.count)\" skipped=\"0\" time=\"\(seconds(wall))\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites \(counts)>",
            "  <testsuite name=\"scenarios\" \(counts)>",
            "    <properties>",
            "      <property name=\"virtual-time\" value=\"\(seconds(Double(virtual) / 1000))\"/>",
            "    </properties>",
        ]
        for result in results {
            lines.append(
                "    <testcase classname=\"\(xml(result.file))\" name=\"\(xml(result.name))\" "
                    + "time=\"\(seconds(result.wallSeconds ?? 0))\">")
            if let failure = result.failure {
                lines.append(
                    "      <failure message=\"\(xml("expected \(failure.expected), got \(failure.actual)"))\" "
                        + "type=\"\(xml(failure.step))\">" + xml(failure.report) + "</failure>")
            }
            let readable = SimDuration(milliseconds: result.virtualMilliseconds).readable
            lines.append("      <system-out>virtual time: \(readable)</system-out>")
            lines.append("    </testcase>")
        }
        for file in malformed {
            lines.append("    <testcase classname=\"\(xml(file.file))\" name=\"\(xml(file.file))\" time=\"0\">")
            lines.append(
                "      <error message=\"\(xml(file.message))\" type=\"malformed scenario\">\(xml(file.message))</error>"
            )
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        return "\(Int64(milliseconds) / 1000).\(String(Int64(milliseconds) % 1000).leftPadded(to: 3))"
    }

    private static func oneLine(_ text: String) -> String {
        visible(text.replacing("\n", with: " "))
    }

    /// XML 1.0 has no way to write most control characters, even as references: they are shown as `\u{1B}`.
    static func visible(_ text: String) -> String { text.withVisibleControls }

    static func xml(_ text: String) -> String {
        var escaped = ""
        for character in visible(text) {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            case "\t": escaped += "&#9;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
