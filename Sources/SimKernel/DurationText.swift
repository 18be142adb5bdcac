extension SimDuration {
    /// The longest length anything takes (a step, a delay): ten years. Longer ones are refused where they
    /// are read, so no sum of instants overflows and no catch-up of renewals runs for minutes.
    public static let longest = SimDuration.days(3_660)

    /// Parses a length written for people: `500ms`, `30s`, `5m`, `2h`, `3d`; nil for anything else,
    /// and for a length longer than `longest`.
    public init?(text: String) {
        let units: [(suffix: String, millis: Int64)] = [
            ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Int64(text.dropLast(unit.suffix.count)), value >= 0 else { continue }
            let (millis, overflow) = value.multipliedReportingOverflow(by: unit.millis)
            guard !overflow, millis <= Self.longest.milliseconds else { return nil }
            self.init(milliseconds: millis)
            return
        }
        return nil
    }
}
