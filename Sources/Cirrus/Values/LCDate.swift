import CirrusModel
public import Foundation

/// A date value, sent as `{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}` (UTC, milliseconds).
public final class LCDate: LCValue, Hashable {
    /// The date, to the millisecond.
    public let value: Date

    /// Now, or `date` rounded to the millisecond (the precision the server keeps).
    public init(_ date: Date = Date()) {
        value = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// The date of an ISO 8601 text (`2015-06-21T18:02:52.249Z`), or `nil`.
    public convenience init?(isoString text: String) {
        guard let stamp = Timestamp(parsing: text) else { return nil }
        self.init(stamp)
    }

    /// The ISO 8601 text the server uses: UTC, milliseconds, `Z`.
    public var isoString: String { timestamp.iso8601 }

    public var description: String { isoString }

    public static func == (lhs: LCDate, rhs: LCDate) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
