import CirrusModel
import Testing

@Suite("Timestamp")
struct TimestampTests {
    @Test("ISO 8601 with or without a fraction, with Z or an offset, parses to milliseconds", arguments: [
        ("2015-06-21T18:02:52.249Z", Int64(1_434_909_772_249)),
        ("2015-06-21T18:02:52Z", 1_434_909_772_000),
        ("2015-06-21T18:02:52.2Z", 1_434_909_772_200),
        ("2015-06-21T18:02:52.24Z", 1_434_909_772_240),
        ("2015-06-21T18:02:52.249999Z", 1_434_909_772_249),
        ("2015-06-21t18:02:52.249z", 1_434_909_772_249),
        ("2015-06-21T18:02:52+08:00", 1_434_880_972_000),
        ("2015-06-21T18:02:52+0800", 1_434_880_972_000),
        ("2015-06-21T18:02:52-05:30", 1_434_929_572_000),
        ("2015-06-21T18:02:52.249+00:00", 1_434_909_772_249),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2016-02-29T00:00:00Z", 1_456_704_000_000),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func parsesISO(_ text: String, _ milliseconds: Int64) {
        #expect(Timestamp(parsing: text)?.millisecondsSince1970 == milliseconds)
    }

    @Test("Bmob's spaced form is read in the default offset unless it carries a zone", arguments: [
        ("2015-06-21 18:02:52", 0, Int64(1_434_909_772_000)),
        ("2015-06-21 18:02:52", 480, 1_434_880_972_000),
        ("2015-06-21 18:02:52", -330, 1_434_929_572_000),
        ("2015-06-21T18:02:52", 480, 1_434_880_972_000),
        ("2015-06-21 18:02:52Z", 480, 1_434_909_772_000),
        ("2015-06-21T18:02:52.249Z", 480, 1_434_909_772_249),
    ])
    func parsesSpaced(_ text: String, _ offset: Int, _ milliseconds: Int64) {
        #expect(Timestamp(parsing: text, defaultOffsetMinutes: offset)?.millisecondsSince1970 == milliseconds)
    }

    @Test("impossible dates, times and layouts are refused", arguments: [
        "2015-02-30T00:00:00Z", "2015-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2015-04-31T00:00:00Z",
        "2015-13-01T00:00:00Z", "2015-00-10T00:00:00Z", "2015-06-00T00:00:00Z", "2015-06-21T24:00:00Z",
        "2015-06-21T23:60:00Z", "2015-06-21T23:59:60Z", "2015-6-21T18:02:52Z", "2015-06-21", "2015-06-21T18:02Z",
        "2015-06-21T18:02:52.Z", "2015-06-21T18:02:52+8:00", "2015-06-21T18:02:52+24:00", "2015-06-21T18:02:52+08:60",
        "2015-06-21T18:02:52Zjunk", "2015-06-21T18:02:52 ", " 2015-06-21T18:02:52Z", "2015/06/21 18:02:52",
        "2015-06-21X18:02:52Z", "", "yesterday", "-015-06-21T18:02:52Z",
    ])
    func refuses(_ text: String) {
        #expect(Timestamp(parsing: text) == nil)
    }

    @Test("the ISO form is always UTC with three fraction digits, also before 1970", arguments: [
        (Int64(1_434_909_772_249), "2015-06-21T18:02:52.249Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (-86_400_001, "1969-12-30T23:59:59.999Z"),
        (951_825_600_000, "2000-02-29T12:00:00.000Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func formatsISO(_ milliseconds: Int64, _ text: String) {
        let stamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(stamp.iso8601 == text)
        #expect(stamp.description == text)
        #expect(stamp.format(offsetMinutes: 480, style: .iso8601) == text)
        #expect(Timestamp(parsing: text) == stamp)
    }

    @Test("the spaced form is written in the given offset without a fraction", arguments: [
        (Int64(1_434_909_772_249), 0, "2015-06-21 18:02:52"),
        (1_434_909_772_249, 480, "2015-06-22 02:02:52"),
        (1_434_909_772_249, -330, "2015-06-21 12:32:52"),
        (-1, 0, "1969-12-31 23:59:59"),
        (0, -60, "1969-12-31 23:00:00"),
    ])
    func formatsSpaced(_ milliseconds: Int64, _ offset: Int, _ text: String) {
        #expect(Timestamp(millisecondsSince1970: milliseconds).format(offsetMinutes: offset, style: .spaced) == text)
    }

    @Test("formatting then parsing gives back the same instant", arguments: UInt64(0)..<50)
    func roundTrip(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let stamp = Timestamp(millisecondsSince1970: Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator))
        #expect(Timestamp(parsing: stamp.iso8601) == stamp)
        let offset = Int.random(in: -720...840, using: &generator)
        let spaced = stamp.format(offsetMinutes: offset, style: .spaced)
        let wholeSeconds = stamp.millisecondsSince1970 - (stamp.millisecondsSince1970 % 1000 + 1000) % 1000
        #expect(Timestamp(parsing: spaced, defaultOffsetMinutes: offset)?.millisecondsSince1970 == wholeSeconds)
    }

    @Test("timestamps order by instant")
    func ordering() throws {
        let early = try #require(Timestamp(parsing: "2015-06-21T18:02:52+08:00"))
        let late = try #require(Timestamp(parsing: "2015-06-21T18:02:52Z"))
        #expect(early < late)
        #expect([late, early].sorted() == [early, late])
    }
}
