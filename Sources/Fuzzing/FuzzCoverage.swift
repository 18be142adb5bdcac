import AppFlow
import Scenarios
import Simulation

/// What a fuzz run exercised, so a passing run says what it passed over: each kind of step done
/// and refused, the screens the phone showed, and the faults that fired.
public struct FuzzCoverage: Sendable {
    /// Done steps by their verb (`confirm payment`, `store refund`, `inject`…).
    public private(set) var steps: [String: Int] = [:]
    public private(set) var refused = 0
    /// Steps the next came after at once, with answers still on their way.
    public private(set) var withoutWaiting = 0
    public private(set) var screens: Set<String> = []
    public private(set) var faultsFired = 0
    /// The faults that fired by their target (`payment`, `receipts`, `notifications`…), so a run says which kinds it
    /// passed over.
    public private(set) var faultsByTarget: [String: Int] = [:]
    /// The same action twice, the second before the first's answers came back.
    public private(set) var doubleTaps = 0
    /// Clock moves of a year or more at once (tokens and yearly plans run out on the way).
    public private(set) var pastAYear = 0
    private var previous: SessionStep?

    mutating func count(_ step: SessionStep) {
        if !step.waits { withoutWaiting += 1 }
        if let previous, !previous.waits, previous.kind == step.kind { doubleTaps += 1 }
        previous = step
        if case .world(.advance(let advance)) = step.kind, Self.days(advance) >= 365 { pastAYear += 1 }
        if step.refused {
            refused += 1
        } else {
            steps[Self.verb(step.kind), default: 0] += 1
        }
    }

    mutating func saw(_ screen: ScreenID) { screens.insert(screen.rawValue) }

    /// Counts the faults that fired, from the world's recorded events, once the session is over.
    mutating func read(_ world: World) {
        for recorded in world.timeline.events {
            guard case .faultFired(_, let target) = recorded.event else { continue }
            faultsFired += 1
            faultsByTarget[target, default: 0] += 1
        }
    }

    mutating func add(_ other: FuzzCoverage) {
        steps.merge(other.steps, uniquingKeysWith: +)
        refused += other.refused
        withoutWaiting += other.withoutWaiting
        screens.formUnion(other.screens)
        faultsFired += other.faultsFired
        faultsByTarget.merge(other.faultsByTarget, uniquingKeysWith: +)
        doubleTaps += other.doubleTaps
        pastAYear += other.pastAYear
    }

    private static func days(_ advance: Advance) -> Int64 {
        switch advance {
        case .fixed(let duration): duration.milliseconds / 86_400_000
        case .months(let months): Int64(months) * 30
        }
    }

    /// The words of a step that name what it does, without its arguments.
    static func verb(_ step: StepKind) -> String {
        switch step {
        case .setup(let setup): StepText.setup(setup).split(separator: " ").first.map(String.init) ?? "setup"
        case .launch: "launch"
        case .expect: "expect"
        case .world(.advance): "advance"
        case .world(.newDevice): "new device"
        case .world(.inject): "inject"
        case .world(.storefront): "storefront"
        case .world(.latency): "latency"
        case .world(.changePlan(let change, _)): "store \(change.rawValue)"
        case .world(.raisePrice): "store price-increase PRODUCT PRICE"
        case .world(.transaction(let control, _)): "store \(control.rawValue) ID"
        case .world(let action): action.text
        case .reader(let action):
            switch action {
            case .openContent: "open content"
            case .selectOffer: "select offer"
            case .doubleTapOffer: "double-tap offer"
            case .answerGate: "answer gate"
            case .logIn: "login"
            case .signUp: "signup"
            case .changePlan: "switch plan"
            default: StepText.reader(action)
            }
        }
    }

    /// A few lines for the terminal: the screens, the faults, then every kind of step by count.
    public var summary: String {
        let done = steps.values.reduce(0, +)
        let byCount = Self.byCount(steps)
        let faults =
            faultsByTarget.isEmpty
            ? "" : " (\(Self.byCount(faultsByTarget).map { "\($0.key) \($0.value)" }.joined(separator: ", ")))"
        // The targets the sessions draw that never fired, said rather than left out (session 31: `notifications` was
        // missing from the list for as long as it was never drawn, and nothing said so).
        let never = StepGenerator.faultTargets.map(\.target).filter { faultsByTarget[$0] == nil }
        let none = never.isEmpty ? "" : "; none fired on \(never.joined(separator: ", "))"
        return """
            screens: \(screens.sorted().joined(separator: ", "))
            \(done) steps done (\(withoutWaiting) without waiting for answers, \(doubleTaps) double taps, \(pastAYear) \
            clock moves of a year or more), \(refused) refused by the screen or the world; \(faultsFired) faults fired\(faults)\(none)
            steps: \(byCount.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            """
    }

    /// Most first, ties by name: the same run prints the same line.
    private static func byCount(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
    }
}
