import AppFlow
import FoundationEssentials
import SimKernel
import Simulation
import WhiteLabel

/// Reads the scenario language: one step per line, `#` starts a comment. A mistake is a `ConfigError`
/// naming the file, the line and what is wrong, so a QA engineer can fix it without reading code.
public enum ScenarioParser {
    public static func parse(file: String) throws(ConfigError) -> Scenario {
        // Not UTF-8 is named with the line and column of the first bad byte.
        try parse(try TextFile.read(path: file), file: file)
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> Scenario {
        var scenario = Scenario(file: file)
        var launched = false
        // The first action or expectation before any launch: a launch after it is that step's mistake, said at its
        // line and in its words (the launch line was named, session 32, h13 05).
        var actionBeforeLaunch: (line: Int, content: String, word: String)?
        var launchAfterAnAction: Int?
        // The line of each setup word given so far.
        var setupLines: [String: Int] = [:]
        // Comment lines since the last step or blank line: the caption of the step that follows them.
        var commentsAbove: [String] = []
        // A file saved on Windows ends lines in CRLF; Swift reads "\r\n" as one character, not a "\n".
        let lines = text.replacing("\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let line = index + 1
            let content = stripComment(String(rawLine)).trimmingSpaces()
            let comment = self.comment(String(rawLine))
            if content.isEmpty {
                if let comment, !comment.isEmpty { commentsAbove.append(comment) } else { commentsAbove = [] }
                continue
            }
            let caption =
                comment.flatMap { $0.isEmpty ? nil : $0 }
                ?? (commentsAbove.isEmpty ? nil : commentsAbove.joined(separator: " "))
            commentsAbove = []
            var stepText = content
            let condition: String?
            do throws(StepError) {
                condition = try StepPrefix.condition(from: &stepText)
            } catch {
                throw ConfigError(file: "\(file):\(line)", message: "\(error.description) (in \"\(content)\")")
            }
            // The step as written, without its `when` (reports name it with its world).
            let written = stepText
            let mayFail = StepPrefix.take("try", from: &stepText)
            let waits = !StepPrefix.take("without waiting", from: &stepText)
            let words = stepText.split(whereSeparator: \.isWhitespace).map(String.init)
            let rest = stepText.dropFirst(words.first?.count ?? 0).trimmingSpaces()
            do throws(StepError) {
                if words.isEmpty {
                    throw StepError(
                        "\(mayFail ? "try" : "without waiting") what? write an action after it, such as restore")
                }
                switch words[0] {
                case "title": scenario.title = try nonEmpty(unquoted(rest), "title takes the text of the table row")
                case "sees": scenario.sees = try nonEmpty(unquoted(rest), "sees takes what the reader should see")
                case "vary":
                    if scenario.variation != nil { throw StepError("one vary line per scenario") }
                    do {
                        scenario.variation = try Variation.parse(rest, source: "\(file):\(line)")
                    } catch {
                        throw StepError(error.description)
                    }
                case "expect" where words.count > 1 && words[1] == "diverge":
                    scenario.divergence = try divergence(words, line: line)
                default:
                    let kind = try StepGrammar.step(words, rest: rest)
                    if mayFail || !waits, !kind.isAction {
                        throw StepError(
                            "\(mayFail ? "try" : "without waiting") goes before an action (a reader's or the world's), "
                                + "not a setup or an expectation")
                    }
                    if case .setup = kind {
                        if launched {
                            throw StepError(
                                "\(words[0]) builds the world, so it must come before launch and every action")
                        }
                        // One value each (accounts may be many): a second one silently won over the first.
                        if words[0] != "account", let first = setupLines[words[0]] {
                            throw StepError("\(words[0]) is given twice: first on line \(first)")
                        }
                        setupLines[words[0]] = line
                    } else if case .launch = kind, launched {
                        if actionBeforeLaunch == nil {
                            throw StepError("launch must come once, before every action (restart app launches again)")
                        }
                        launchAfterAnAction = line
                    } else if !kind.configures {
                        // A setting (`storefront`, `latency`…) is setup before launch and an action after it.
                        if !launched, kind != .launch { actionBeforeLaunch = (line, content, words[0]) }
                        launched = true
                    }
                    scenario.steps.append(
                        ScenarioStep(
                            line: line, text: written, kind: kind, mayFail: mayFail, waits: waits, caption: caption,
                            condition: condition))
                }
            } catch {
                // `when inject=receipts error times 1 back` read `error` as the step, and nothing said that a world
                // whose value has spaces is quoted (session 33).
                let hint =
                    condition != nil && !content.dropFirst(4).trimmingSpaces().hasPrefix("\"")
                        && error.description.hasPrefix("unknown step")
                    ? "; a world whose value has spaces is quoted: when \"inject=receipts error times 1\" STEP" : ""
                // `file:line: message`, as compilers write it, so editors and terminals can jump to the line.
                throw ConfigError(
                    file: "\(file):\(line)", message: "\(error.description) (in \"\(content)\")\(hint)")
            }
            if let launchLine = launchAfterAnAction, let early = actionBeforeLaunch {
                throw ConfigError(
                    file: "\(file):\(early.line)",
                    message: "\(early.word) must come after launch (line \(launchLine)): only setup goes before it "
                        + "(in \"\(early.content)\")")
            }
        }
        if scenario.steps.isEmpty { throw ConfigError(file: file, message: "no steps: write at least launch") }
        return scenario
    }

    /// `expect diverge` or `expect diverge at STEP`.
    private static func divergence(_ words: [String], line: Int) throws(StepError) -> DivergenceExpectation {
        if words.count == 2 { return DivergenceExpectation(line: line, step: nil) }
        guard words.count > 3, words[2] == "at" else {
            throw StepError("write expect diverge, or expect diverge at STEP (the step as written)")
        }
        return DivergenceExpectation(line: line, step: words.dropFirst(3).joined(separator: " "))
    }

    /// The line up to a `#` that is not inside quotes (a quoted word's `\"` does not end it).
    static func stripComment(_ line: String) -> String {
        var inQuotes = false
        var escaped = false
        for index in line.indices {
            defer { escaped = inQuotes && !escaped && line[index] == "\\" }
            if line[index] == "\"" && !escaped { inQuotes.toggle() }
            if line[index] == "#" && !inQuotes { return String(line[..<index]) }
        }
        return line
    }

    /// The text after a `#` that is not inside quotes, trimmed; nil when the line has no comment.
    static func comment(_ line: String) -> String? {
        let code = stripComment(line)
        guard code.count < line.count else { return nil }
        return String(line.dropFirst(code.count + 1)).trimmingSpaces()
    }

    static func unquoted(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    private static func nonEmpty(_ text: String, _ message: String) throws(StepError) -> String {
        if text.isEmpty { throw StepError(message) }
        return text
    }
}

/// What is wrong with one line; the parser adds the file and the line.
struct StepError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The words that may come before an action: `try` (it may not be possible), `without waiting` (the next
/// step comes before the world settles).
enum StepPrefix {
    /// Removes `prefix` and the spaces after it from the start of `text`; whether it was there.
    static func take(_ prefix: String, from text: inout String) -> Bool {
        guard text.hasPrefix(prefix + " ") || text == prefix else { return false }
        text = String(text.dropFirst(prefix.count)).trimmingSpaces()
        return true
    }

    /// `when KEY=VALUE STEP` (or `when "KEY=A VALUE" STEP`): the condition, and `text` left with the step.
    static func condition(from text: inout String) throws(StepError) -> String? {
        guard take("when", from: &text) else { return nil }
        let condition: Substring
        if text.hasPrefix("\""), let close = text.dropFirst().firstIndex(of: "\"") {
            condition = text[text.index(after: text.startIndex)..<close]
            text = String(text[text.index(after: close)...]).trimmingSpaces()
        } else {
            condition = text.prefix { !$0.isWhitespace }
            text = String(text.dropFirst(condition.count)).trimmingSpaces()
        }
        guard condition.contains("="), !text.isEmpty else {
            throw StepError("write when KEY=VALUE STEP, as when finish=after expect levels premium")
        }
        return String(condition)
    }
}
