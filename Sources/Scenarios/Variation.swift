/// `vary KEY=V1,V2[,V3…]` (a scenario line, or `compare --vary`): one setting, one world per value. KEY is
/// a setup line's first word (`finish`, `restore-policy`, `latency`, `storefront`, `inject`…); each value
/// becomes that line, and an empty value means a world without it.
public struct Variation: Equatable, Sendable {
    public let key: String
    public let values: [String]
    /// The setup line (or setting) per value, nil for an empty value.
    let steps: [StepKind?]
    /// Where it was written (`file:line`, or `--vary`), for messages.
    public let source: String

    /// The keys `compare --help` names first; every setup line's word works too.
    public static let namedKeys = ["finish", "restore-policy", "latency", "storefront"]
    static let setupKeys = ["app", "seed", "locale", "device", "apple-id", "account", "inject", "defect"]
    /// Keys of which a world has several lines: a varied one adds to the scenario's own.
    static let accumulating: Set<String> = ["account", "inject"]

    /// Reads `KEY=V1,V2`; a mistake names the key or the value.
    public static func parse(_ text: String, source: String) throws(VariationError) -> Variation {
        guard let equals = text.firstIndex(of: "=") else {
            throw VariationError("write KEY=V1,V2 (keys: \(keyList)), not \"\(text)\"")
        }
        let key = text[..<equals].trimmingSpaces()
        let values = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces() }
        guard Self.namedKeys.contains(key) || Self.setupKeys.contains(key) else {
            throw VariationError("unknown key \"\(key)\" (keys: \(keyList))")
        }
        guard values.count >= 2 else { throw VariationError("\(key) needs two values or more, as \(key)=A,B") }
        guard Set(values).count == values.count else { throw VariationError("\(key): a value is given twice") }
        var steps: [StepKind?] = []
        for value in values {
            guard !value.isEmpty else {
                steps.append(nil)
                continue
            }
            let words = ([key] + value.split(whereSeparator: \.isWhitespace).map(String.init))
            do throws(StepError) {
                let step = try StepGrammar.step(words, rest: value)
                guard step.configures else { throw StepError("not a setup line") }
                steps.append(step)
            } catch {
                throw VariationError("\(key)=\(value): \(error.description)")
            }
        }
        return Variation(key: key, values: values, steps: steps, source: source)
    }

    static var keyList: String { (namedKeys + setupKeys).joined(separator: ", ") }

    /// Each world's name: `finish=before`; `inject=(none)` for an empty value.
    public var labels: [String] { values.map { "\(key)=\($0.isEmpty ? "(none)" : $0)" } }

    /// The line a world's value writes, as the scenario would (`finish after`); nil for an empty value.
    func line(_ index: Int) -> String? { steps[index].map(StepText.line) }

    /// Whether the world's line replaces the scenario's own line of the same key.
    var replaces: Bool { !Self.accumulating.contains(key) }
}

/// A `vary` that cannot be read: one message, naming the key or the value.
public struct VariationError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// `expect diverge [at STEP]`: the worlds must end up showing different things, first at that step.
public struct DivergenceExpectation: Equatable, Sendable {
    public let line: Int
    /// The step's text as written (`restart app`); nil for anywhere.
    public let step: String?
}
