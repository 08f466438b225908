/// A point in time with millisecond precision, as LeanCloud stores dates.
///
/// Parsing accepts ISO 8601 (`2015-06-21T18:02:52.249Z`, any fraction, `Z` or an offset) and Bmob's
/// `2015-06-21 18:02:52`, whose missing zone is read in the caller's default offset.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The canonical form `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var iso8601: String { format(offsetMinutes: 0, style: .iso8601) }

    /// The instant `duration` later (to the millisecond).
    public func adding(_ duration: Duration) -> Timestamp {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return Timestamp(millisecondsSince1970: millisecondsSince1970 + milliseconds)
    }

    public var description: String { iso8601 }

    /// The layouts this type can write.
    public enum Style: Sendable {
        /// `2015-06-21T18:02:52.249Z`
        case iso8601
        /// `2015-06-21 18:02:52`, in the given offset (Bmob).
        case spaced
    }

    /// The time written in `style`, shifted to `offsetMinutes` east of UTC for ``Style/spaced``.
    public func format(offsetMinutes: Int, style: Style) -> String {
        let shift = style == .spaced ? Int64(offsetMinutes) * 60_000 : 0
        let local = millisecondsSince1970 + shift
        let (days, dayMillis) = local.floorDividedBy(86_400_000)
        let (year, month, day) = CivilDate.from(daysSince1970: days)
        let seconds = dayMillis / 1000
        // Written digit by digit: this runs twice for every object a reply holds.
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func append(_ value: Int64, width: Int) {
            if value >= 10_000 || value < 0 {
                let digits = Array(String(value).utf8)
                text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count)))
                text.append(contentsOf: digits)
                return
            }
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, width: 4)
        text.append(UInt8(ascii: "-"))
        append(month, width: 2)
        text.append(UInt8(ascii: "-"))
        append(day, width: 2)
        text.append(style == .iso8601 ? UInt8(ascii: "T") : UInt8(ascii: " "))
        append(seconds / 3600, width: 2)
        text.append(UInt8(ascii: ":"))
        append(seconds / 60 % 60, width: 2)
        text.append(UInt8(ascii: ":"))
        append(seconds % 60, width: 2)
        if style == .iso8601 {
            text.append(UInt8(ascii: "."))
            append(dayMillis % 1000, width: 3)
            text.append(UInt8(ascii: "Z"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses ISO 8601 or Bmob's spaced form; a missing zone means `defaultOffsetMinutes` east of UTC.
    public init?(parsing text: String, defaultOffsetMinutes: Int = 0) {
        var parser = TimestampParser(text)
        guard let parsed = parser.parse(defaultOffsetMinutes: defaultOffsetMinutes) else { return nil }
        self = parsed
    }
}

extension Int64 {
    /// Floor division and the matching non-negative remainder.
    fileprivate func floorDividedBy(_ divisor: Int64) -> (Int64, Int64) {
        let quotient = self >= 0 ? self / divisor : (self - divisor + 1) / divisor
        return (quotient, self - quotient * divisor)
    }
}

/// Conversions between proleptic Gregorian dates and day numbers (H. Hinnant's algorithms).
public enum CivilDate {
    /// Year, month and day of a day counted from 1970-01-01.
    public static func from(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day counted from 1970-01-01 of a date.
    public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days a month has.
    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A strict reader of the two accepted date layouts.
private struct TimestampParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    mutating func parse(defaultOffsetMinutes: Int) -> Timestamp? {
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
            expect("T") || expect(" ") || expect("t"),
            let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var millis: Int64 = 0
        if expect(".") {
            guard let fraction = fractionMillis() else { return nil }
            millis = fraction
        }
        guard let offset = zoneOffsetMinutes(default: defaultOffsetMinutes), index == bytes.count else { return nil }
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        let total = ((days * 24 + hour) * 60 + minute - Int64(offset)) * 60 + second
        return Timestamp(millisecondsSince1970: total * 1000 + millis)
    }

    private mutating func expect(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func digits(_ count: Int) -> Int64? {
        guard index + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for _ in 0..<count {
            let byte = bytes[index]
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int64(byte - 48)
            index += 1
        }
        return value
    }

    private mutating func fractionMillis() -> Int64? {
        var millis: Int64 = 0
        var count = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if count < 3 { millis = millis * 10 + Int64(bytes[index] - 48) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        if count < 3 { for _ in count..<3 { millis *= 10 } }
        return millis
    }

    private mutating func zoneOffsetMinutes(default defaultOffset: Int) -> Int? {
        if index == bytes.count { return defaultOffset }
        if expect("Z") || expect("z") { return 0 }
        let sign: Int
        if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
        guard let hours = digits(2) else { return nil }
        _ = expect(":")
        guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
        return sign * Int(hours * 60 + minutes)
    }
}
