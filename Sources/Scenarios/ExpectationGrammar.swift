import AppFlow
import Simulation

/// The words after `expect`.
enum ExpectationGrammar {
    static func expectation(_ arguments: [String], rest: String) throws(StepError) -> ScenarioExpectation {
        guard let what = arguments.first else {
            throw StepError(
                "expect what? screen, offers, levels, identity, content, ads, alert, no alert, text, no text, "
                    + "charges, pending payment, timeline, invariants or nothing lost")
        }
        let tail = Array(arguments.dropFirst())
        let afterWhat = rest.dropFirst(what.count).trimmingSpaces()
        switch what {
        case "screen":
            let id = try StepGrammar.single(tail, "expect screen ID")
            guard let screen = ScreenID(rawValue: id) else {
                let ids = ScreenID.allCases.map(\.rawValue).joined(separator: ", ")
                throw StepError("unknown screen \"\(id)\" (screens: \(ids))")
            }
            return .screen(screen)
        case "offers": return .offers(try list(afterWhat, "expect offers ID, ID…"))
        case "levels":
            if tail == ["none"] { return .levels([]) }
            return .levels(try list(afterWhat, "expect levels L, L… or expect levels none"))
        case "identity":
            // An email as a recording writes it: bare, or quoted when it holds a space, a quote or a `#`.
            let words = try QuotedWords.split(afterWhat)
            switch words.count {
            case 1 where words[0] == "anonymous": return .identity(.anonymous)
            case 1 where words[0] == "none": return .identity(.none)
            case 2 where words[0] == "account": return .identity(.account(words[1]))
            default: throw StepError("write expect identity anonymous, expect identity account EMAIL or none")
            }
        case "content":
            guard tail.count == 2, tail[1] == "locked" || tail[1] == "unlocked" else {
                throw StepError("write expect content ID locked or expect content ID unlocked")
            }
            return .content(id: tail[0], unlocked: tail[1] == "unlocked")
        case "ads":
            guard tail.count == 1, tail[0] == "shown" || tail[0] == "hidden" else {
                throw StepError("write expect ads shown or expect ads hidden")
            }
            return .ads(shown: tail[0] == "shown")
        case "alert": return .alert(try quoted(afterWhat, "expect alert \"TEXT\""))
        case "no":
            if tail.first == "text" {
                return .noText(try quoted(afterWhat.dropFirst(4).trimmingSpaces(), "expect no text \"TEXT\""))
            }
            guard tail == ["alert"] else { throw StepError("write expect no alert or expect no text \"TEXT\"") }
            return .noAlert
        case "text": return .text(try quoted(afterWhat, "expect text \"TEXT\""))
        case "charges":
            guard (1...2).contains(tail.count), let count = Int(tail[0]), count >= 0 else {
                throw StepError(
                    "expect charges takes a whole number and an Apple ID if one alone is meant, such as "
                        + "expect charges 1 or expect charges 1 kid@icloud.test")
            }
            if tail.count == 2, let problem = AppleIdText.problem(tail[1]) {
                throw StepError("expect charges: \(problem)")
            }
            return .charges(count, appleId: tail.count == 2 ? tail[1] : nil)
        case "pending":
            guard tail == ["payment"] else { throw StepError("write expect pending payment") }
            return .pendingPayment
        case "timeline" where tail.first == "once":
            return .timelineOnce(
                try quoted(afterWhat.dropFirst("once".count).trimmingSpaces(), "expect timeline once \"TEXT\""))
        case "timeline": return .timeline(try quoted(afterWhat, "expect timeline \"TEXT\""))
        case "invariants":
            guard tail.isEmpty else { throw StepError("write expect invariants") }
            return .invariants
        case "nothing":
            guard tail == ["lost"] else { throw StepError("write expect nothing lost") }
            return .nothingLost
        default:
            throw StepError("unknown expectation \"\(what)\"")
        }
    }

    /// `a, b, c` (commas, spaces or both); at least one item.
    private static func list(_ text: String, _ usage: String) throws(StepError) -> [String] {
        let items = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        if items.isEmpty { throw StepError("write \(usage)") }
        return items
    }

    private static func quoted(_ text: String, _ usage: String) throws(StepError) -> String {
        guard text.count >= 3, text.hasPrefix("\""), text.hasSuffix("\"") else {
            throw StepError("the text goes in double quotes: write \(usage)")
        }
        return String(text.dropFirst().dropLast())
    }
}
