import Foundation

/// The time of a SigV4 signature in its two written forms: `20130524T000000Z` (`x-amz-date`) and `20130524` (the
/// credential scope), always in UTC.
struct SigningDate: Sendable, Hashable {
    /// `yyyyMMdd'T'HHmmss'Z'`.
    let timestamp: String

    /// `yyyyMMdd`.
    var day: String { String(timestamp.prefix(8)) }

    init(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = Self.floorDivision(seconds, 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        timestamp = Self.digits(year, 4) + Self.digits(month, 2) + Self.digits(day, 2) + "T"
            + Self.digits(secondOfDay / 3600, 2) + Self.digits(secondOfDay / 60 % 60, 2) + Self.digits(secondOfDay % 60, 2) + "Z"
    }

    /// Year, month and day of a day counted from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's
    /// `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let (era, _) = floorDivision(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(width - text.count, 0)) + text
    }
}
