import CirrusModel
import CirrusServices
import Testing

@Suite("Scheduled jobs' cron schedules")
struct CronScheduleTests {
    static func at(_ iso: String) -> Timestamp {
        Timestamp(parsing: iso)!
    }

    @Test("the next run after a time is the first instant the expression names, in its time zone", arguments: [
        // Unix cron, five fields.
        ("*/15 * * * *", "UTC", "2026-11-27T12:07:30.000Z", "2026-11-27T12:15:00.000Z"),
        ("0 3 * * *", "UTC", "2026-11-27T03:00:00.000Z", "2026-11-28T03:00:00.000Z"),
        ("30 9 * * MON-FRI", "UTC", "2026-11-27T10:00:00.000Z", "2026-11-30T09:30:00.000Z"),
        ("0 0 1 1 *", "UTC", "2026-11-27T00:00:00.000Z", "2027-01-01T00:00:00.000Z"),
        ("0 0 29 2 *", "UTC", "2026-03-01T00:00:00.000Z", "2028-02-29T00:00:00.000Z"),
        ("0 12 * * 7", "UTC", "2026-11-27T00:00:00.000Z", "2026-11-29T12:00:00.000Z"),
        ("0 0 13 * 5", "UTC", "2026-11-14T00:00:00.000Z", "2026-11-20T00:00:00.000Z"),
        ("5,10-12 4 * * *", "UTC", "2026-11-27T04:10:00.000Z", "2026-11-27T04:11:00.000Z"),
        // Quartz, as LeanCloud's timers: seconds first, 1 = Sunday, `?`, a year.
        ("0 0 8 * * ?", "Asia/Shanghai", "2026-11-27T00:00:00.000Z", "2026-11-28T00:00:00.000Z"),
        ("*/10 * * * * ?", "UTC", "2026-11-27T12:00:05.500Z", "2026-11-27T12:00:10.000Z"),
        ("0 0 12 ? * 1", "UTC", "2026-11-27T00:00:00.000Z", "2026-11-29T12:00:00.000Z"),
        ("0 0 0 1 JAN ? 2030", "UTC", "2026-11-27T00:00:00.000Z", "2030-01-01T00:00:00.000Z"),
        // A zone with daylight saving time: 09:00 in New York is 14:00Z in winter, 13:00Z in summer.
        ("0 9 * * *", "America/New_York", "2026-11-27T15:00:00.000Z", "2026-11-28T14:00:00.000Z"),
        ("0 9 * * *", "America/New_York", "2026-07-01T15:00:00.000Z", "2026-07-02T13:00:00.000Z"),
    ])
    func next(expression: String, zone: String, after: String, expected: String) throws {
        let schedule = try CronSchedule(expression, timeZone: zone)
        #expect(schedule.next(after: Self.at(after)) == Self.at(expected))
    }

    @Test("a schedule naming no time before 2200 has no next run")
    func never() throws {
        #expect(try CronSchedule("0 0 0 30 2 ?").next(after: Self.at("2026-01-01T00:00:00.000Z")) == nil)
        #expect(try CronSchedule("0 0 0 1 1 ? 1999-2000").next(after: Self.at("2026-01-01T00:00:00.000Z")) == nil)
    }

    @Test("malformed expressions and zones are refused with what is wrong", arguments: [
        ("* * * *", "UTC", "5 fields"), ("60 * * * *", "UTC", "minute"), ("* 24 * * *", "UTC", "hour"),
        ("* * 0 * *", "UTC", "day of month"), ("* * * 13 *", "UTC", "month"), ("* * * * 8", "UTC", "day of week"),
        ("0 0 0 ? * 0", "UTC", "day of week"), ("0 0 L * ?", "UTC", "not supported"), ("0 0 1W * ?", "UTC", "not supported"),
        ("*/0 * * * *", "UTC", "step"), ("5-1 * * * *", "UTC", "low to high"), ("1/2/3 * * * *", "UTC", "one step"),
        ("a * * * *", "UTC", "minute"), ("* * * * *", "Nowhere/Else", "time zone"), ("0 0 * * * ? 1800", "UTC", "year"),
        (String(repeating: "1,", count: 200) + "1 * * * *", "UTC", "fields"),
    ])
    func malformed(expression: String, zone: String, fragment: String) {
        #expect {
            _ = try CronSchedule(expression, timeZone: zone)
        } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.reason == .invalidParameter && error.message.contains(fragment)
        }
    }
}
