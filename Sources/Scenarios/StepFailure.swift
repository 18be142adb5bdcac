/// What a failing step expected, and what it found.
public struct StepFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let expected: String
    public let actual: String

    public init(expected: String, actual: String) {
        self.expected = expected
        self.actual = actual
    }

    public var description: String { "expected \(expected), got \(actual)" }
}
