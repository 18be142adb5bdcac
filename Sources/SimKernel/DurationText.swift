extension SimDuration {
    /// Parses a length written for people: `500ms`, `30s`, `5m`, `2h`, `3d`; nil for anything else.
    public init?(text: String) {
        let units: [(suffix: String, millis: Int64)] = [
            ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Int64(text.dropLast(unit.suffix.count)), value >= 0 else { continue }
            self.init(milliseconds: value * unit.millis)
            return
        }
        return nil
    }
}
