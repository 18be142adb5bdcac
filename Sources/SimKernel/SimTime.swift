/// A point on the virtual clock, in milliseconds since the Unix epoch.
/// The engine never reads the wall clock; every instant comes from the scheduler.
public struct SimInstant: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Where every simulated world starts: 2026-03-02 09:00:00 UTC, a Monday morning.
    public static let worldStart = SimInstant(milliseconds: 1_772_442_000_000)
    /// 9999-12-31: no clock goes past it, so no instant plus a bounded duration overflows.
    public static let latest = SimInstant(milliseconds: 253_402_214_400_000)

    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }
    public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
        SimDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }

    /// `2026-03-02 09:00:01.250`, computed without Foundation's calendars so it is the same everywhere.
    public var description: String {
        let totalMillis = milliseconds
        let days = Int64((Double(totalMillis) / 86_400_000).rounded(.down))
        let millisOfDay = totalMillis - days * 86_400_000
        let date = CivilDate(daysSinceEpoch: days)
        let hours = millisOfDay / 3_600_000
        let minutes = millisOfDay / 60_000 % 60
        let seconds = millisOfDay / 1000 % 60
        let millis = millisOfDay % 1000
        return "\(date) \(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
    }

    /// The calendar date only, `2026-03-02`.
    public var dateDescription: String {
        CivilDate(daysSinceEpoch: Int64((Double(milliseconds) / 86_400_000).rounded(.down))).description
    }
}

/// A length of virtual time, in milliseconds.
public struct SimDuration: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static let zero = SimDuration(milliseconds: 0)
    public static func millis(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value) }
    public static func seconds(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 1000) }
    public static func minutes(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 60_000) }
    public static func hours(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 3_600_000) }
    public static func days(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 86_400_000) }

    public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public var description: String {
        if milliseconds % 86_400_000 == 0 && milliseconds != 0 { return "\(milliseconds / 86_400_000)d" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }
}

/// A proleptic Gregorian date from a day count (Howard Hinnant's civil_from_days).
struct CivilDate: CustomStringConvertible {
    let year: Int64
    let month: Int64
    let day: Int64

    init(daysSinceEpoch: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    var description: String { "\(year)-\(pad(month, 2))-\(pad(day, 2))" }
}

func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
