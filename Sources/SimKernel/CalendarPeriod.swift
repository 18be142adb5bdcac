/// A calendar length such as one month or one week, as ISO 8601 writes it (`P1M`, `P1W`, `P3D`, `P1Y`).
/// Subscription periods and trials are calendar lengths, so a monthly plan bought on Jan 31 renews on Feb 28.
public struct CalendarPeriod: Hashable, Codable, Sendable, CustomStringConvertible {
    public enum Unit: String, Codable, Sendable, CaseIterable {
        case day, week, month, year
    }

    public var unit: Unit
    public var value: Int

    public init(unit: Unit, value: Int) {
        self.unit = unit
        self.value = value
    }

    /// The most of each unit a period may hold: ten years, as `SimDuration.longest`.
    public static let most: [Unit: Int] = [.day: 3_660, .week: 522, .month: 120, .year: 10]

    /// Parses `P1M`, `P1W`, `P3D`, `P1Y`; nil for anything else, and for a period longer than ten years.
    public init?(iso8601 text: String) {
        guard text.count >= 3, text.first == "P", let last = text.last,
            let value = Int(text.dropFirst().dropLast()), value > 0
        else { return nil }
        switch last {
        case "D": unit = .day
        case "W": unit = .week
        case "M": unit = .month
        case "Y": unit = .year
        default: return nil
        }
        guard value <= Self.most[unit]! else { return nil }
        self.value = value
    }

    public var iso8601: String {
        let letter: String
        switch unit {
        case .day: letter = "D"
        case .week: letter = "W"
        case .month: letter = "M"
        case .year: letter = "Y"
        }
        return "P\(value)\(letter)"
    }

    /// "month", "3 months", "week": the English words a paywall template receives.
    public var description: String {
        value == 1 ? unit.rawValue : "\(value) \(unit.rawValue)s"
    }

    /// "1 month", "7 days": a length with its number always said, as in "free for 1 week".
    public var lengthDescription: String { "\(value) \(unit.rawValue)\(value == 1 ? "" : "s")" }

    /// The instant one period after `start`, in UTC; the day of month is clamped to the target month.
    public func added(to start: SimInstant) -> SimInstant {
        switch unit {
        case .day: return start + .days(Int64(value))
        case .week: return start + .days(Int64(value) * 7)
        case .month: return Self.addMonths(value, to: start)
        case .year: return Self.addMonths(value * 12, to: start)
        }
    }

    private static func addMonths(_ months: Int, to start: SimInstant) -> SimInstant {
        let days = Int64((Double(start.milliseconds) / 86_400_000).rounded(.down))
        let timeOfDay = start.milliseconds - days * 86_400_000
        let date = CivilDate(daysSinceEpoch: days)
        let monthIndex = date.year * 12 + (date.month - 1) + Int64(months)
        let year = monthIndex / 12
        let month = monthIndex % 12 + 1
        let day = min(date.day, CivilDate.daysIn(month: month, year: year))
        return SimInstant(
            milliseconds: CivilDate.daysSinceEpoch(year: year, month: month, day: day) * 86_400_000 + timeOfDay)
    }
}

extension CivilDate {
    /// Howard Hinnant's days_from_civil.
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
