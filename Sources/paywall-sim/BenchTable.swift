import Database
import FoundationEssentials

/// The figures of issue 16's table, each beside its floor or anchor from the same run: every benchmark
/// adds its rows, and `paywall-sim bench` with no argument prints them together at the end.
final class BenchTable: @unchecked Sendable {
    struct Row {
        let figure: String
        let value: String
        let floor: String
        let goal: String
    }

    static let shared = BenchTable()
    private let lock = Lock()
    private var rows: [Row] = []

    func add(_ figure: String, _ value: String, floor: String, goal: String) {
        lock.withLock { rows.append(Row(figure: figure, value: value, floor: floor, goal: goal)) }
    }

    /// The rows as a Markdown table.
    func printed() -> String {
        let all = lock.withLock { rows }
        let lines = all.map { "| \($0.figure) | \($0.value) | \($0.floor) | \($0.goal) |" }
        return (["| figure | this run | floor / anchor (same run) | goal |", "| --- | --- | --- | --- |"] + lines)
            .joined(separator: "\n")
    }
}
