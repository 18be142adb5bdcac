import Scenarios

/// `compare --live`: two worlds side by side in the terminal.
enum LiveCompare {
    static func main(_ scenarios: [Scenario], variation: Variation?) throws -> Int32 {
        throw UsageError(message: "--live is not built yet")
    }
}
