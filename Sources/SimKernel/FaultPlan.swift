/// How often a planned fault fires: on the next N calls, on every call, or with a seeded probability.
public enum FaultFrequency: Hashable, Sendable, CustomStringConvertible {
    case times(Int)
    case always
    case chance(Double)

    public var description: String {
        switch self {
        case .times(let count): "times \(count)"
        case .always: "always"
        case .chance(let probability): "chance \(probability)"
        }
    }
}

/// One rule of a fault plan: on calls to `target`, inject `fault` (with its optional argument).
/// Targets and faults are plain names here; each simulated service says which it understands.
public struct FaultRule: Hashable, Sendable, CustomStringConvertible {
    public var target: String
    public var fault: String
    /// What follows `:` in `error:paymentInvalid` or `delayed:2h`.
    public var argument: String?
    public var frequency: FaultFrequency

    public init(target: String, fault: String, argument: String? = nil, frequency: FaultFrequency = .times(1)) {
        self.target = target
        self.fault = fault
        self.argument = argument
        self.frequency = frequency
    }

    /// The rule as it is written: `payment error:paymentInvalid times 2`.
    public var description: String { "\(targetAndFault) \(frequency)" }

    /// What a refusal quotes: the words a person typed, without the frequency they left implicit.
    public var targetAndFault: String { "\(target) \(fault)\(argument.map { ":\($0)" } ?? "")" }
}

/// Why a fault plan was refused, in words a person typing `--inject` can act on.
public struct FaultPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Faults to inject, per operation, drawn on each call. Chance rules draw from the seeded
/// generator the caller passes, so the same seed injects the same faults.
public struct FaultPlan: Hashable, Sendable {
    public private(set) var rules: [FaultRule]

    public init(rules: [FaultRule] = []) {
        self.rules = rules
    }

    public var isEmpty: Bool { rules.isEmpty }

    public mutating func add(_ rule: FaultRule) {
        rules.append(rule)
    }

    public mutating func removeAll(target: String? = nil) {
        rules.removeAll { target == nil || $0.target == target }
    }

    /// Parses rules written `TARGET FAULT[:ARGUMENT] [times N | always | chance P]`, separated by `;`
    /// or new lines. Without a frequency a rule fires on the next call only.
    public static func parse(_ text: String) throws(FaultPlanError) -> FaultPlan {
        var plan = FaultPlan()
        let lines = text.split(whereSeparator: { $0 == ";" || $0 == "\n" })
        for line in lines {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.isEmpty { continue }
            plan.add(try rule(words, line: String(line)))
        }
        if plan.isEmpty { throw FaultPlanError("no fault given: write TARGET FAULT [times N | always | chance P]") }
        return plan
    }

    private static func rule(_ words: [String], line: String) throws(FaultPlanError) -> FaultRule {
        let rule = line.trimmingSpaces
        guard words.count >= 2 else {
            throw FaultPlanError("\"\(rule)\": write TARGET FAULT [times N | always | chance P]")
        }
        let faultWord = words[1]
        let parts = faultWord.split(separator: ":", maxSplits: 1).map(String.init)
        guard let fault = parts.first, !fault.isEmpty else { throw FaultPlanError("\"\(rule)\": the fault is empty") }
        let argument = parts.count > 1 ? parts[1] : nil
        let frequency: FaultFrequency
        switch words.count {
        case 2:
            frequency = .times(1)
        case 3 where words[2] == "always":
            frequency = .always
        case 4 where words[2] == "times":
            guard let count = Int(words[3]), count > 0 else {
                throw FaultPlanError("\"\(rule)\": times takes a whole number above 0, not \"\(words[3])\"")
            }
            frequency = .times(count)
        case 4 where words[2] == "chance":
            guard let probability = Self.probability(words[3]) else {
                throw FaultPlanError(
                    "\"\(rule)\": chance takes a number from 0 to 1 or a percentage, not \"\(words[3])\"")
            }
            frequency = .chance(probability)
        default:
            throw FaultPlanError(
                "\"\(rule)\": after the fault write times N, always or chance P, not \"\(words[2...].joined(separator: " "))\""
            )
        }
        return FaultRule(target: words[0], fault: fault, argument: argument, frequency: frequency)
    }

    private static func probability(_ text: String) -> Double? {
        let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let value, (0...1).contains(value) else { return nil }
        return value
    }

    /// The rule that fires on this call of `target`, if any; a `times` rule counts down and ends at zero.
    /// Only chance rules draw from `generator`, so a plan without them leaves the caller's numbers alone.
    /// `only`: the one fault of the target that can fire on this call (a notification's retry is only ever lost).
    public mutating func draw(for target: String, only: String? = nil, using generator: inout SeededGenerator)
        -> FaultRule?
    {
        for index in rules.indices where rules[index].target == target {
            let rule = rules[index]
            if let only, rule.fault != only { continue }
            switch rule.frequency {
            case .always:
                return rule
            case .times(let count):
                if count <= 1 {
                    rules.remove(at: index)
                } else {
                    rules[index].frequency = .times(count - 1)
                }
                return rule
            case .chance(let probability):
                if Double.random(in: 0..<1, using: &generator) < probability { return rule }
            }
        }
        return nil
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
