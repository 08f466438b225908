package import CirrusModel
import Foundation

/// When a scheduled job runs: a cron expression read in a time zone.
///
/// Five fields are Unix cron's (`minute hour day-of-month month day-of-week`, days of the week 0–7, Sunday 0 or 7);
/// six or seven are Quartz's, as LeanCloud's timers take them (`second minute hour day-of-month month day-of-week
/// [year]`, days of the week 1–7, Sunday 1). Each field is `*`, a number, a range `a-b`, a step `*/n`, `a/n` or
/// `a-b/n`, or a list of those; months and days of the week may be named (`JAN`, `MON`); `?` stands for "any" in the
/// day fields. Quartz's `L`, `W` and `#` are refused. When both day fields are restricted, a day matching either runs.
package struct CronSchedule: Sendable, Equatable {
    let seconds: Set<Int>
    let minutes: Set<Int>
    let hours: Set<Int>
    let daysOfMonth: Set<Int>?
    let months: Set<Int>
    /// 0 = Sunday.
    let daysOfWeek: Set<Int>?
    let years: Set<Int>?
    let timeZone: TimeZone

    /// Reads an expression in the time zone named `timeZone` (an IANA name such as `Asia/Shanghai`, or `UTC`).
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` naming what is wrong.
    package init(_ expression: String, timeZone zoneName: String = "UTC") throws(APIError) {
        guard let zone = TimeZone(identifier: zoneName) else { throw Self.invalid("unknown time zone \(zoneName.prefix(64))") }
        timeZone = zone
        let fields = expression.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard expression.utf8.count <= 256, (5...7).contains(fields.count) else {
            throw Self.invalid("a cron expression has 5 fields (minute hour day month weekday) or 6–7 (second first, year last)")
        }
        let quartz = fields.count > 5
        let f = quartz ? fields : ["0"] + fields
        seconds = try Self.field(f[0], 0...59, "second")
        minutes = try Self.field(f[1], 0...59, "minute")
        hours = try Self.field(f[2], 0...23, "hour")
        daysOfMonth = try Self.dayField(f[3], 1...31, "day of month")
        months = try Self.field(f[4], 1...12, "month", names: Self.monthNames, first: 1)
        if quartz {
            daysOfWeek = try Self.dayField(f[5], 1...7, "day of week", names: Self.dayNames, first: 1).map { Set($0.map { $0 - 1 }) }
        } else {
            daysOfWeek = try Self.dayField(f[5], 0...7, "day of week", names: Self.dayNames, first: 0).map { Set($0.map { $0 % 7 }) }
        }
        years = fields.count == 7 ? try Self.dayField(f[6], 1970...2199, "year") : nil
    }

    /// The first time after `instant` that the schedule names, or `nil` when it names none before 2200.
    package func next(after instant: Timestamp) -> Timestamp? {
        var seconds = instant.millisecondsSince1970 / 1000 + 1
        while true {
            let wall = seconds + Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
            guard let match = nextWall(from: wall) else { return nil }
            // Back from the wall clock to an instant, with the zone's offset at that time.
            let guess = match - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(match))))
            let found = match - Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(guess))))
            if found > instant.millisecondsSince1970 / 1000 { return Timestamp(millisecondsSince1970: found * 1000) }
            seconds = max(seconds + 1, found + 1)
        }
    }

    /// The first wall-clock second at or after `wall` (seconds since 1970 on the zone's clock) that matches.
    func nextWall(from wall: Int64) -> Int64? {
        var t = CivilTime(wall)
        for _ in 0..<200_000 {
            guard t.year < 2200 else { return nil }
            if let years, !years.contains(t.year) {
                t.advanceYear()
            } else if !months.contains(t.month) {
                t.advanceMonth()
            } else if !matchesDay(t) {
                t.advanceDay()
            } else if !hours.contains(t.hour) {
                t.advanceHour()
            } else if !minutes.contains(t.minute) {
                t.advanceMinute()
            } else if !seconds.contains(t.second) {
                t.advanceSecond()
            } else {
                return t.wall
            }
        }
        return nil
    }

    private func matchesDay(_ t: CivilTime) -> Bool {
        switch (daysOfMonth, daysOfWeek) {
        case (nil, nil): true
        case (let days?, nil): days.contains(t.day)
        case (nil, let weekdays?): weekdays.contains(t.weekday)
        case (let days?, let weekdays?): days.contains(t.day) || weekdays.contains(t.weekday)
        }
    }

    // MARK: Reading fields

    static let monthNames = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    static let dayNames = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]

    /// A day field (or the year): `nil` for `*` or `?` (no restriction).
    static func dayField(_ text: String, _ range: ClosedRange<Int>, _ what: String, names: [String] = [], first: Int = 0) throws(APIError) -> Set<Int>? {
        if text == "*" || text == "?" { return nil }
        return try field(text, range, what, names: names, first: first)
    }

    static func field(_ text: String, _ range: ClosedRange<Int>, _ what: String, names: [String] = [], first: Int = 0) throws(APIError) -> Set<Int> {
        var values: Set<Int> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw invalid("\(what) \(text.prefix(32)): one step at most") }
            var step = 1
            if pieces.count == 2 {
                guard let value = Int(pieces[1]), value > 0, value <= range.upperBound else { throw invalid("\(what) \(text.prefix(32)): a bad step") }
                step = value
            }
            let span: ClosedRange<Int>
            if pieces[0] == "*" || (pieces[0] == "?" && step == 1) {
                span = range
            } else {
                let bounds = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
                guard bounds.count <= 2 else { throw invalid("\(what) \(text.prefix(32))") }
                let low = try value(bounds[0], range, what, names: names, first: first)
                let high = bounds.count == 2 ? try value(bounds[1], range, what, names: names, first: first) : (pieces.count == 2 ? range.upperBound : low)
                guard low <= high else { throw invalid("\(what) \(text.prefix(32)): a range runs low to high") }
                span = low...high
            }
            values.formUnion(stride(from: span.lowerBound, through: span.upperBound, by: step))
        }
        return values
    }

    static func value(_ text: Substring, _ range: ClosedRange<Int>, _ what: String, names: [String], first: Int) throws(APIError) -> Int {
        if let index = names.firstIndex(of: text.uppercased()) { return index + first }
        guard let number = Int(text), range.contains(number) else {
            if text.contains(where: { "LW#".contains($0) }) { throw invalid("\(what) \(text.prefix(32)): L, W and # are not supported") }
            throw invalid("\(what) \(text.prefix(32)) is not in \(range.lowerBound)–\(range.upperBound)")
        }
        return number
    }

    static func invalid(_ detail: String) -> APIError {
        APIError(.invalidParameter, "Invalid schedule: \(detail).")
    }
}

/// A wall-clock time broken into its fields, advanced field by field (the lower fields reset).
struct CivilTime {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    init(_ wall: Int64) {
        let days = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
        let rest = Int(wall - days * 86_400)
        let (year, month, day) = CivilDate.from(daysSince1970: days)
        (self.year, self.month, self.day) = (Int(year), Int(month), Int(day))
        hour = rest / 3600
        minute = rest % 3600 / 60
        second = rest % 60
    }

    private var days: Int64 {
        CivilDate.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    var wall: Int64 {
        days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// 0 = Sunday (1970-01-01 was a Thursday).
    var weekday: Int {
        Int(((days % 7) + 11) % 7)
    }

    mutating func advanceYear() {
        (year, month, day, hour, minute, second) = (year + 1, 1, 1, 0, 0, 0)
    }

    mutating func advanceMonth() {
        if month == 12 { return advanceYear() }
        (month, day, hour, minute, second) = (month + 1, 1, 0, 0, 0)
    }

    mutating func advanceDay() {
        if day >= CivilDate.daysIn(month: Int64(month), year: Int64(year)) { return advanceMonth() }
        (day, hour, minute, second) = (day + 1, 0, 0, 0)
    }

    mutating func advanceHour() {
        if hour == 23 { return advanceDay() }
        (hour, minute, second) = (hour + 1, 0, 0)
    }

    mutating func advanceMinute() {
        if minute == 59 { return advanceHour() }
        (minute, second) = (minute + 1, 0)
    }

    mutating func advanceSecond() {
        if second == 59 { return advanceMinute() }
        second += 1
    }
}
