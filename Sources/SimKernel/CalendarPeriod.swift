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

    /// The instant one period after `start` for a subscription whose periods count from `anchor`, Apple's anniversary:
    /// months and years end on the anchor's day of the month, clamped to the target month, so a plan bought on Jan 31
    /// renews on Feb 28, then on Mar 31 (each period counted from the one before lost the 31st for good, session 28).
    /// Days and weeks count from `start`.
    public func added(to start: SimInstant, anniversary anchor: SimInstant) -> SimInstant {
        switch unit {
        case .day, .week: return added(to: start)
        case .month: return Self.addMonths(value, to: start, on: anchor)
        case .year: return Self.addMonths(value * 12, to: start, on: anchor)
        }
    }

    /// Whether `instant` is a monthly anniversary of `anchor`, or `anchor` itself: the same time of day, on the
    /// anchor's day of the month or, in a month too short for it, on the month's last day.
    public static func isAnniversary(_ instant: SimInstant, of anchor: SimInstant) -> Bool {
        let (date, timeOfDay) = civil(instant)
        let (anchorDate, anchorTimeOfDay) = civil(anchor)
        return instant >= anchor && timeOfDay == anchorTimeOfDay
            && date.day == min(anchorDate.day, CivilDate.daysIn(month: date.month, year: date.year))
    }

    private static func addMonths(_ months: Int, to start: SimInstant, on anchor: SimInstant? = nil) -> SimInstant {
        let (date, timeOfDay) = civil(start)
        let monthIndex = date.year * 12 + (date.month - 1) + Int64(months)
        let year = monthIndex / 12
        let month = monthIndex % 12 + 1
        let day = min(anchor.map { civil($0).date.day } ?? date.day, CivilDate.daysIn(month: month, year: year))
        return SimInstant(
            milliseconds: CivilDate.daysSinceEpoch(year: year, month: month, day: day) * 86_400_000 + timeOfDay)
    }

    /// The UTC date of `instant` and the milliseconds into that day.
    private static func civil(_ instant: SimInstant) -> (date: CivilDate, timeOfDay: Int64) {
        let days = Int64((Double(instant.milliseconds) / 86_400_000).rounded(.down))
        return (CivilDate(daysSinceEpoch: days), instant.milliseconds - days * 86_400_000)
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
